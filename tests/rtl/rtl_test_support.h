// What the RTL tests share: the Verilated units, the harness that clocks
// them and the ports in the model's types (model/rtl/), and a seeded random
// source.
#pragma once

#include <cstdint>

#include "model/rtl/ports.h"
#include "model/rtl/verilated_models.h"
#include "model/rtl/verilated_unit.h"

namespace rtl_test {

// splitmix64: seeded, the same sequence every run.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 40) / 16777216.0f; }
};

}  // namespace rtl_test

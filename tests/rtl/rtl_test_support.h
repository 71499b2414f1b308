// What the RTL tests share: the Verilated units (their headers are not
// written to the project's warning flags), a seeded random source, and a
// clock for the pipelined units.
#pragma once

#include <cstdint>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#include "Vtd_box_datapath.h"
#include "Vtd_fp16_to_fp32.h"
#include "Vtd_fp32_add.h"
#include "Vtd_fp32_minmax.h"
#include "Vtd_fp32_mul.h"
#include "Vtd_fp32_ulp_up.h"
#include "Vtd_sort4.h"
#include "Vtd_tri_datapath.h"
#pragma GCC diagnostic pop

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

// One clock edge of a pipelined unit (inputs already driven).
template <typename Unit>
void clock(Unit& unit) {
  unit.clk_i = 1;
  unit.eval();
  unit.clk_i = 0;
  unit.eval();
}

// Reset for one clock, inputs idle.
template <typename Unit>
void reset(Unit& unit) {
  unit.clk_i = 0;
  unit.rst_ni = 0;
  unit.in_valid_i = 0;
  unit.eval();
  clock(unit);
  unit.rst_ni = 1;
  unit.eval();
}

}  // namespace rtl_test

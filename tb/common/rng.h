// rng.h — the testbench's random numbers: splitmix64, whose output is fixed
// by its definition on every platform (unlike std::uniform_*_distribution),
// so the same seed gives the same vectors and workloads everywhere. Callers
// draw in separate statements or braced lists: the evaluation order of
// function arguments is unspecified and would make streams compiler-dependent.
#pragma once

#include <cstdint>

#include "model/isa/node.h"

namespace td::tb {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  uint32_t next32() { return static_cast<uint32_t>(next() >> 32); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  bool chance(uint32_t percent) { return below(100) < percent; }
  // 24 random bits scaled into [lo, hi): exact steps, IEEE arithmetic only.
  float uniform(float lo, float hi) {
    const float u = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
  }
  Vec3 vec(float lo, float hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }

 private:
  uint64_t state_;
};

}  // namespace td::tb

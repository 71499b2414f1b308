// int_math.h — small integer helpers the model's parameter checks share.
#pragma once

#include <cstdint>

namespace td::sim {

constexpr bool is_power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

// log2 of a power of two (the smallest shift reaching x otherwise).
constexpr uint32_t log2_ceil(uint64_t x) {
  uint32_t shift = 0;
  while (shift < 63 && (uint64_t{1} << shift) < x) ++shift;
  return shift;
}

}  // namespace td::sim

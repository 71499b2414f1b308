// half.h — IEEE binary16 <-> binary32. Widening is exact (every binary16 value
// is a binary32 value); narrowing rounds to nearest even and is used only by
// tools that build nodes (scene encoder, vector generator), never by a datapath.
#pragma once

#include <cstdint>

#include "model/isa/fp32.h"

namespace td {

// Exact widening, NaN payloads kept (quiet bit as in the source). Inline:
// the FP16 box datapath widens 24 values per node.
inline float half_to_float(uint16_t half) {
  // Shift exponent and mantissa into binary32 position and rebias, then fix
  // up the two rare classes with masks rather than branches, so that the FP16
  // box decoder's 24 conversions a node vectorise. Inf/NaN: rebias once more
  // so the exponent is all ones, payload kept. Subnormal: rebias as if normal
  // with an implicit 1, then subtract that 1 (2^-14) in binary32 (exact).
  constexpr uint32_t kExponentMask = 0x7c00u << 13;
  const uint32_t magnitude = static_cast<uint32_t>(half & 0x7fffu) << 13;
  const uint32_t exponent = magnitude & kExponentMask;
  const uint32_t special_mask = 0u - static_cast<uint32_t>(exponent == kExponentMask);
  const uint32_t subnormal_mask = 0u - static_cast<uint32_t>(exponent == 0);
  const uint32_t rebiased = magnitude + (112u << 23) + (special_mask & (112u << 23));
  const uint32_t subnormal = bits_of(float_of(magnitude + (113u << 23)) - float_of(113u << 23));
  const uint32_t bits = (rebiased & ~subnormal_mask) | (subnormal & subnormal_mask);
  return float_of(bits | static_cast<uint32_t>(half & 0x8000u) << 16);
}

// Round-to-nearest-even narrowing; overflow gives ±Inf, NaN stays NaN (quiet).
uint16_t float_to_half(float value);

// Narrowing that rounds toward -Inf (for box minima) or +Inf (for box maxima),
// so that a widened box always contains the original one.
uint16_t float_to_half_down(float value);
uint16_t float_to_half_up(float value);

}  // namespace td

// half.h — IEEE binary16 <-> binary32. Widening is exact (every binary16 value
// is a binary32 value); narrowing rounds to nearest even and is used only by
// tools that build nodes (scene encoder, vector generator), never by a datapath.
#pragma once

#include <cstdint>

namespace td {

// Exact widening, NaN payloads kept (quiet bit as in the source).
float half_to_float(uint16_t half);

// Round-to-nearest-even narrowing; overflow gives ±Inf, NaN stays NaN (quiet).
uint16_t float_to_half(float value);

// Narrowing that rounds toward -Inf (for box minima) or +Inf (for box maxima),
// so that a widened box always contains the original one.
uint16_t float_to_half_down(float value);
uint16_t float_to_half_up(float value);

}  // namespace td

#include "model/isa/half.h"

#include "model/isa/fp32.h"

namespace td {

namespace {

enum class Rounding { kNearestEven, kDown, kUp };

uint16_t narrow(float value, Rounding rounding) {
  const uint32_t bits = bits_of(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const bool negative = sign != 0;
  if (is_nan(value)) return static_cast<uint16_t>(sign | 0x7e00u | ((bits >> 13) & 0x3ffu));
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (magnitude == 0) return sign;  // ±0 (and keeps __builtin_clzll away from 0)

  // Magnitude as an integer multiple of 2^-24 (the smallest half subnormal)
  // is exact for |value| < 2^-14 * 2^11; do the general case with a 64-bit
  // fixed point: significand * 2^(exp - 150) expressed in units of 2^-24 * 2^-k.
  const int32_t exponent = static_cast<int32_t>(magnitude >> 23);
  uint64_t significand = magnitude & 0x7fffffu;
  if (exponent != 0) significand |= 0x800000u;
  const int32_t e = exponent == 0 ? -149 : exponent - 150;  // value = significand * 2^e

  // Target: half value = q * 2^qe with q < 2^11 and qe >= -24.
  // Pick qe so q has 11 bits for normals, qe = -24 for subnormals.
  int32_t msb = 63 - __builtin_clzll(significand);  // position of leading 1
  int32_t value_exp = e + msb;                        // floor(log2|value|)
  int32_t qe = value_exp - 10;
  if (qe < -24) qe = -24;
  const int32_t shift = qe - e;  // >= 0 means we drop `shift` bits
  uint64_t q;
  bool inexact = false;
  bool round_up = false;
  if (shift <= 0) {
    q = significand << (-shift);
  } else if (shift >= 64) {
    q = 0;
    inexact = significand != 0;
    if (rounding == Rounding::kNearestEven) round_up = false;
  } else {
    q = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half_point = uint64_t{1} << (shift - 1);
    inexact = rest != 0;
    if (rounding == Rounding::kNearestEven)
      round_up = rest > half_point || (rest == half_point && (q & 1));
  }
  if (rounding == Rounding::kDown) round_up = inexact && negative;
  if (rounding == Rounding::kUp) round_up = inexact && !negative;
  if (round_up) ++q;
  if (q == 0x800u) {  // carried into a new binade
    q >>= 1;
    ++qe;
  }
  // Encode q * 2^qe.
  if (q < 0x400u) return static_cast<uint16_t>(sign | q);  // subnormal (qe == -24)
  const int32_t half_exponent = qe + 10 + 15;
  if (half_exponent >= 0x1f) {
    // Overflow: RNE and the rounding toward the overflow side give Inf,
    // rounding toward zero gives the largest finite half.
    const bool to_inf = rounding == Rounding::kNearestEven ||
                        (rounding == Rounding::kUp && !negative) ||
                        (rounding == Rounding::kDown && negative);
    return static_cast<uint16_t>(sign | (to_inf ? 0x7c00u : 0x7bffu));
  }
  return static_cast<uint16_t>(sign | (half_exponent << 10) | (q & 0x3ffu));
}

}  // namespace

uint16_t float_to_half(float value) { return narrow(value, Rounding::kNearestEven); }
uint16_t float_to_half_down(float value) { return narrow(value, Rounding::kDown); }
uint16_t float_to_half_up(float value) { return narrow(value, Rounding::kUp); }

}  // namespace td

// fp32.h — binary32 helpers with the exact semantics of the TD contract
// (docs/semantics.md §1): bit casts, NaN-ignoring min/max, ulp_up.
#pragma once

#include <cstdint>
#include <cstring>

namespace td {

inline uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float float_of(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline bool is_nan(float value) { return value != value; }

inline bool is_inf(float value) {
  return (bits_of(value) & 0x7fffffffu) == 0x7f800000u;
}

inline bool sign_bit(float value) { return (bits_of(value) >> 31) != 0; }

inline float abs_value(float value) { return float_of(bits_of(value) & 0x7fffffffu); }

constexpr uint32_t kPlusInfBits = 0x7f800000u;
constexpr uint32_t kOneBits = 0x3f800000u;

// NaN-ignoring minimum. When the operands compare equal (+0 and -0 included)
// the FIRST operand is returned: the contract fixes which zero survives.
inline float fmin(float a, float b) {
  if (is_nan(a)) return b;  // b may be NaN too: then the result is NaN
  if (is_nan(b)) return a;
  return b < a ? b : a;
}

// NaN-ignoring maximum, first operand on equality (see fmin).
inline float fmax(float a, float b) {
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  return b > a ? b : a;
}

// Moves `x` up by `n` representable binary32 values (box_grow). -0 and +0 are
// the same point on the ordered line, so ulp_up(-0, 1) is the smallest
// positive subnormal; anything at or past +Inf saturates to +Inf.
inline float ulp_up(float x, uint32_t n) {
  const uint32_t bits = bits_of(x);
  if (n == 0 || is_nan(x) || bits == kPlusInfBits) return x;
  int64_t ordered = (bits >> 31) ? -static_cast<int64_t>(bits & 0x7fffffffu)
                                 : static_cast<int64_t>(bits);
  ordered += n;
  if (ordered >= static_cast<int64_t>(kPlusInfBits)) return float_of(kPlusInfBits);
  if (ordered >= 0) return float_of(static_cast<uint32_t>(ordered));
  return float_of(0x80000000u | static_cast<uint32_t>(-ordered));
}

}  // namespace td

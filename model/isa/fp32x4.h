// fp32x4.h — four lanes at once of fp32.h's NaN-ignoring min/max and
// ulp_up, for SSE2 hosts (every x86-64): each lane gives exactly the bits
// the scalar helper gives (fp32x4_test.cpp compares them). Selects by mask,
// no branches per lane. The box test uses them for a node's four children.
#pragma once

#if defined(__SSE2__)

#include <emmintrin.h>

#include <cstdint>

#include "model/isa/fp32.h"

namespace td {

// b where take_b's lane is all ones, else a.
inline __m128 select4(__m128 take_b, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(take_b, b), _mm_andnot_ps(take_b, a));
}
inline __m128i select4(__m128i take_b, __m128i a, __m128i b) {
  return _mm_or_si128(_mm_and_si128(take_b, b), _mm_andnot_si128(take_b, a));
}

// All ones in the lanes holding a NaN.
inline __m128 nan_mask4(__m128 x) { return _mm_cmpunord_ps(x, x); }

// fmin / fmax: the first operand unless the second is smaller (greater) or
// the first is NaN, so equal operands (+0, -0) give the first.
inline __m128 fmin4(__m128 a, __m128 b) { return select4(_mm_or_ps(_mm_cmplt_ps(b, a), nan_mask4(a)), a, b); }
inline __m128 fmax4(__m128 a, __m128 b) { return select4(_mm_or_ps(_mm_cmpgt_ps(b, a), nan_mask4(a)), a, b); }

// ulp_up: on the ordered line (-magnitude for a negative, so -0 and +0 meet
// at 0), plus n, saturating at +Inf; NaN and +Inf stay. In 32-bit lanes for
// n < 2^23 (the largest finite plus 2^23 - 1 still fits an int32), lane by
// lane beyond.
inline __m128 ulp_up4(__m128 x, uint32_t n) {
  if (n == 0) return x;
  if (n >= (1u << 23)) {
    alignas(16) float lanes[4];
    _mm_store_ps(lanes, x);
    for (float& lane : lanes) lane = ulp_up(lane, n);
    return _mm_load_ps(lanes);
  }
  const __m128i bits = _mm_castps_si128(x);
  const __m128i negative = _mm_srai_epi32(bits, 31);
  const __m128i magnitude = _mm_and_si128(bits, _mm_set1_epi32(0x7fffffff));
  const __m128i ordered = _mm_add_epi32(_mm_sub_epi32(_mm_xor_si128(magnitude, negative), negative),
                                        _mm_set1_epi32(static_cast<int32_t>(n)));
  const __m128i below_zero = _mm_cmplt_epi32(ordered, _mm_setzero_si128());
  const __m128i negative_bits =
      _mm_or_si128(_mm_sub_epi32(_mm_setzero_si128(), ordered), _mm_set1_epi32(static_cast<int32_t>(0x80000000u)));
  const __m128i past_largest = _mm_cmpgt_epi32(ordered, _mm_set1_epi32(0x7f7fffff));
  __m128i out = select4(below_zero, ordered, negative_bits);
  out = select4(past_largest, out, _mm_set1_epi32(static_cast<int32_t>(kPlusInfBits)));
  return select4(nan_mask4(x), _mm_castsi128_ps(out), x);
}

}  // namespace td

#endif  // __SSE2__

// half_test.cpp — contract §2/§6: binary16 values are widened exactly to
// binary32. The widening is checked exhaustively against a formula-based
// decode (ldexp) written here; the narrowing encoders used by node builders
// are checked for round trips, ties-to-even and directed rounding.
#include "model/isa/half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "model/isa/fp32.h"

namespace td {
namespace {

bool half_is_nan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

// Independent decode: sign * m * 2^-24 (subnormal) or sign * (1024 + m) * 2^(e-25).
double reference_half_value(uint16_t h) {
  const bool negative = (h & 0x8000u) != 0;
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  double magnitude;
  if (e == 31)
    magnitude = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  else if (e == 0)
    magnitude = std::ldexp(static_cast<double>(m), -24);
  else
    magnitude = std::ldexp(static_cast<double>(1024 + m), e - 25);
  return negative ? -magnitude : magnitude;
}

// Neighbours on the ordered binary16 line (-0 and +0 are one point).
uint16_t half_next_up(uint16_t h) {
  if (h == 0x8000u || h == 0x0000u) return 0x0001u;
  return (h & 0x8000u) ? static_cast<uint16_t>(h - 1) : static_cast<uint16_t>(h + 1);
}
uint16_t half_next_down(uint16_t h) {
  if (h == 0x8000u || h == 0x0000u) return 0x8001u;
  return (h & 0x8000u) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h - 1);
}

TEST(Half, WideningIsExactForEveryFiniteHalf) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto half = static_cast<uint16_t>(h);
    if ((half & 0x7c00u) == 0x7c00u) continue;  // Inf/NaN: see below
    const float expected = static_cast<float>(reference_half_value(half));  // exact
    ASSERT_EQ(bits_of(half_to_float(half)), bits_of(expected)) << "half 0x" << std::hex << h;
  }
}

TEST(Half, WideningKeepsSignedZeros) {
  EXPECT_EQ(bits_of(half_to_float(0x0000u)), 0x00000000u);
  EXPECT_EQ(bits_of(half_to_float(0x8000u)), 0x80000000u);
}

TEST(Half, WideningOfSubnormalsGivesBinary32Normals) {
  EXPECT_EQ(bits_of(half_to_float(0x0001u)), 0x33800000u);  // 2^-24
  EXPECT_EQ(bits_of(half_to_float(0x03ffu)), 0x387fc000u);  // 1023 * 2^-24
  EXPECT_EQ(bits_of(half_to_float(0x8200u)), 0xb8000000u);  // -2^-15
  EXPECT_EQ(bits_of(half_to_float(0x0400u)), 0x38800000u);  // 2^-14, smallest normal
  EXPECT_EQ(bits_of(half_to_float(0x7bffu)), 0x477fe000u);  // 65504
}

TEST(Half, WideningKeepsInfAndNanClasses) {
  EXPECT_EQ(bits_of(half_to_float(0x7c00u)), kPlusInfBits);
  EXPECT_EQ(bits_of(half_to_float(0xfc00u)), 0xff800000u);
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto half = static_cast<uint16_t>(h);
    if (!half_is_nan(half)) continue;
    const float wide = half_to_float(half);
    ASSERT_TRUE(is_nan(wide)) << "half 0x" << std::hex << h;
    ASSERT_EQ(sign_bit(wide), (half & 0x8000u) != 0) << "half 0x" << std::hex << h;
  }
}

// half.h documents that payloads survive (quiet bit as in the source).
TEST(Half, WideningKeepsNanPayload) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto half = static_cast<uint16_t>(h);
    if (!half_is_nan(half)) continue;
    ASSERT_EQ(bits_of(half_to_float(half)) & 0x007fffffu, static_cast<uint32_t>(half & 0x3ffu) << 13)
        << "half 0x" << std::hex << h;
  }
}

TEST(Half, NarrowingRoundTripsEveryNonNanHalf) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto half = static_cast<uint16_t>(h);
    if (half_is_nan(half)) continue;
    const float value = static_cast<float>(reference_half_value(half));
    ASSERT_EQ(float_to_half(value), half) << "half 0x" << std::hex << h;
    ASSERT_EQ(float_to_half_down(value), half) << "half 0x" << std::hex << h;
    ASSERT_EQ(float_to_half_up(value), half) << "half 0x" << std::hex << h;
  }
}

TEST(Half, NarrowingKeepsNanQuiet) {
  for (uint32_t bits : {0x7fc00000u, 0x7f800001u, 0xffc12345u}) {
    const uint16_t h = float_to_half(float_of(bits));
    EXPECT_TRUE(half_is_nan(h)) << std::hex << bits;
    EXPECT_NE(h & 0x0200u, 0u) << std::hex << bits;  // quiet bit
    EXPECT_EQ((h & 0x8000u) != 0, (bits >> 31) != 0) << std::hex << bits;
  }
}

TEST(Half, NarrowingTiesGoToEven) {
  EXPECT_EQ(float_to_half(float_of(0x3f801000u)), 0x3c00u);  // 1 + 2^-11: tie, 0x3c00 even
  EXPECT_EQ(float_to_half(float_of(0x3f803000u)), 0x3c02u);  // 1 + 3*2^-11: tie, 0x3c02 even
  EXPECT_EQ(float_to_half(float_of(0x3f801001u)), 0x3c01u);  // just above the tie
  EXPECT_EQ(float_to_half(float_of(0x3f800fffu)), 0x3c00u);  // just below the tie
  EXPECT_EQ(float_to_half(2049.0f), 0x6800u);                // ulp 2 at 2048: tie down to even
  EXPECT_EQ(float_to_half(2051.0f), 0x6802u);                // tie up to even
  EXPECT_EQ(float_to_half(-2051.0f), 0xe802u);
}

TEST(Half, NarrowingTiesGoToEvenInSubnormals) {
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000u);  // half of the smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002u);
  EXPECT_EQ(float_to_half(std::ldexp(5.0f, -25)), 0x0002u);
  EXPECT_EQ(float_to_half(float_of(0x33000001u)), 0x0001u);  // just above 2^-25
  EXPECT_EQ(float_to_half(-std::ldexp(1.0f, -25)), 0x8000u);
  // 1023.5 * 2^-24: tie between the largest subnormal (odd) and 2^-14 (even).
  EXPECT_EQ(float_to_half(std::ldexp(2047.0f, -25)), 0x0400u);
  EXPECT_EQ(float_to_half(float_of(0x00000001u)), 0x0000u);  // binary32 subnormal
  EXPECT_EQ(float_to_half(float_of(0x80000001u)), 0x8000u);
}

TEST(Half, NarrowingOverflowsToInfFromTheTieUp) {
  EXPECT_EQ(float_to_half(65504.0f), 0x7bffu);
  EXPECT_EQ(float_to_half(65519.0f), 0x7bffu);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00u);  // tie between 65504 (odd) and 2^16
  EXPECT_EQ(float_to_half(-65520.0f), 0xfc00u);
  EXPECT_EQ(float_to_half(1e10f), 0x7c00u);
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7c00u);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xfc00u);
}

TEST(Half, DirectedNarrowingRoundsTowardItsSide) {
  EXPECT_EQ(float_to_half_down(float_of(0x3f801000u)), 0x3c00u);
  EXPECT_EQ(float_to_half_up(float_of(0x3f801000u)), 0x3c01u);
  EXPECT_EQ(float_to_half_down(float_of(0xbf801000u)), 0xbc01u);  // toward -Inf: away from 0
  EXPECT_EQ(float_to_half_up(float_of(0xbf801000u)), 0xbc00u);
  EXPECT_EQ(float_to_half_down(0.1f), 0x2e66u);
  EXPECT_EQ(float_to_half_up(0.1f), 0x2e67u);
  EXPECT_EQ(float_to_half_down(1e6f), 0x7bffu);  // largest finite, not Inf
  EXPECT_EQ(float_to_half_up(1e6f), 0x7c00u);
  EXPECT_EQ(float_to_half_down(-1e6f), 0xfc00u);
  EXPECT_EQ(float_to_half_up(-1e6f), 0xfbffu);
  EXPECT_EQ(float_to_half_down(1e-30f), 0x0000u);
  EXPECT_EQ(float_to_half_up(1e-30f), 0x0001u);
  EXPECT_EQ(float_to_half_down(-1e-30f), 0x8001u);
  EXPECT_EQ(float_to_half_up(-1e-30f), 0x8000u);
}

// down(x) <= x <= up(x), and each is the closest half on its side: the next
// half beyond it lies strictly past x.
TEST(Half, DirectedNarrowingBracketsTheInput) {
  const uint32_t seed = 20240611u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> exponent(-30, 17);
  std::uniform_int_distribution<uint32_t> mantissa(0, 0x7fffffu);
  std::uniform_int_distribution<uint32_t> sign(0, 1);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t bits = sign(rng) << 31 | static_cast<uint32_t>(127 + exponent(rng)) << 23 | mantissa(rng);
    const float x = float_of(bits);
    const uint16_t down = float_to_half_down(x);
    const uint16_t up = float_to_half_up(x);
    ASSERT_LE(reference_half_value(down), x) << std::hex << bits;
    ASSERT_GT(reference_half_value(half_next_up(down)), x) << std::hex << bits;
    ASSERT_GE(reference_half_value(up), x) << std::hex << bits;
    ASSERT_LT(reference_half_value(half_next_down(up)), x) << std::hex << bits;
    // Round to nearest lands on one of the two.
    const uint16_t nearest = float_to_half(x);
    ASSERT_TRUE(reference_half_value(nearest) == reference_half_value(down) ||
                reference_half_value(nearest) == reference_half_value(up))
        << std::hex << bits;
  }
}

}  // namespace
}  // namespace td

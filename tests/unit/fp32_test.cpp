// fp32_test.cpp — contract §1: NaN-ignoring fmin/fmax with first-operand
// ties, and ulp_up over the ordered binary32 line. Every expectation is a bit
// pattern written out by hand.
#include "model/isa/fp32.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cstdint>

namespace td {
namespace {

constexpr uint32_t kPlusZero = 0x00000000u;
constexpr uint32_t kMinusZero = 0x80000000u;
constexpr uint32_t kQuietNan = 0x7fc00000u;
constexpr uint32_t kNanWithPayload = 0x7fc12345u;
constexpr uint32_t kNegativeNan = 0xffc00001u;
constexpr uint32_t kMinusInf = 0xff800000u;
constexpr uint32_t kFltMax = 0x7f7fffffu;

uint32_t min_bits(uint32_t a, uint32_t b) { return bits_of(fmin(float_of(a), float_of(b))); }
uint32_t max_bits(uint32_t a, uint32_t b) { return bits_of(fmax(float_of(a), float_of(b))); }
uint32_t ulp_up_bits(uint32_t x, uint32_t n) { return bits_of(ulp_up(float_of(x), n)); }

TEST(Fp32, BitsOfAndFloatOfAreExactCasts) {
  EXPECT_EQ(bits_of(1.0f), 0x3f800000u);
  EXPECT_EQ(bits_of(-0.0f), kMinusZero);
  EXPECT_EQ(bits_of(float_of(kNanWithPayload)), kNanWithPayload);
  EXPECT_TRUE(sign_bit(-0.0f));
  EXPECT_FALSE(sign_bit(0.0f));
  EXPECT_TRUE(is_inf(float_of(kMinusInf)));
  EXPECT_FALSE(is_inf(float_of(kFltMax)));
  EXPECT_TRUE(is_nan(float_of(kNegativeNan)));
}

TEST(Fp32, FminFmaxPickSmallerAndLarger) {
  EXPECT_EQ(min_bits(0x40000000u, 0x3f800000u), 0x3f800000u);  // fmin(2, 1) = 1
  EXPECT_EQ(min_bits(0x3f800000u, 0x40000000u), 0x3f800000u);
  EXPECT_EQ(max_bits(0x40000000u, 0x3f800000u), 0x40000000u);
  EXPECT_EQ(max_bits(0x3f800000u, 0x40000000u), 0x40000000u);
  EXPECT_EQ(min_bits(kMinusInf, kPlusInfBits), kMinusInf);
  EXPECT_EQ(max_bits(kMinusInf, kPlusInfBits), kPlusInfBits);
  EXPECT_EQ(min_bits(0xbf800000u, kPlusZero), 0xbf800000u);  // -1 < +0
}

// A NaN operand is ignored, whichever side it is on and whatever its payload.
TEST(Fp32, FminFmaxIgnoreSingleNanInEitherOperand) {
  for (uint32_t nan : {kQuietNan, kNanWithPayload, kNegativeNan}) {
    SCOPED_TRACE(testing::Message() << "nan bits 0x" << std::hex << nan);
    EXPECT_EQ(min_bits(nan, 0x40400000u), 0x40400000u);
    EXPECT_EQ(min_bits(0x40400000u, nan), 0x40400000u);
    EXPECT_EQ(max_bits(nan, 0xc0400000u), 0xc0400000u);
    EXPECT_EQ(max_bits(0xc0400000u, nan), 0xc0400000u);
    EXPECT_EQ(min_bits(nan, kMinusZero), kMinusZero);
    EXPECT_EQ(max_bits(kMinusZero, nan), kMinusZero);
  }
}

TEST(Fp32, FminFmaxOfTwoNansIsNan) {
  EXPECT_TRUE(is_nan(fmin(float_of(kQuietNan), float_of(kNegativeNan))));
  EXPECT_TRUE(is_nan(fmax(float_of(kQuietNan), float_of(kNegativeNan))));
}

// +0 and -0 compare equal: the contract fixes that the FIRST operand survives.
TEST(Fp32, FminFmaxReturnFirstOperandOnEqualZeros) {
  EXPECT_EQ(min_bits(kPlusZero, kMinusZero), kPlusZero);
  EXPECT_EQ(min_bits(kMinusZero, kPlusZero), kMinusZero);
  EXPECT_EQ(max_bits(kPlusZero, kMinusZero), kPlusZero);
  EXPECT_EQ(max_bits(kMinusZero, kPlusZero), kMinusZero);
}

TEST(Fp32, FminFmaxReturnFirstOperandOnEqualValues) {
  // Equal non-zero values have equal bits, so only zeros can tell; still make
  // sure equality does not fall through to a NaN or the wrong branch.
  EXPECT_EQ(min_bits(0x3f800000u, 0x3f800000u), 0x3f800000u);
  EXPECT_EQ(max_bits(kPlusInfBits, kPlusInfBits), kPlusInfBits);
}

TEST(Fp32, UlpUpByZeroReturnsInputUnchanged) {
  for (uint32_t x : {kPlusZero, kMinusZero, 0x3f800000u, 0xbf800000u, kMinusInf, kFltMax,
                     0x00000001u}) {
    EXPECT_EQ(ulp_up_bits(x, 0), x) << std::hex << x;
  }
  EXPECT_EQ(ulp_up_bits(kNanWithPayload, 0), kNanWithPayload);
}

TEST(Fp32, UlpUpFromPlusZeroGivesSmallestSubnormal) {
  EXPECT_EQ(ulp_up_bits(kPlusZero, 1), 0x00000001u);
  EXPECT_EQ(ulp_up_bits(kPlusZero, 255), 0x000000ffu);
}

// -0 and +0 are the same point (k = 0), so -0 also steps to the subnormals.
TEST(Fp32, UlpUpFromMinusZeroGivesSmallestSubnormal) {
  EXPECT_EQ(ulp_up_bits(kMinusZero, 1), 0x00000001u);
  EXPECT_EQ(ulp_up_bits(kMinusZero, 255), 0x000000ffu);
}

TEST(Fp32, UlpUpNegativeMovesTowardZero) {
  EXPECT_EQ(ulp_up_bits(0xbf800000u, 1), 0xbf7fffffu);  // -1 -> -(1 - 2^-24)
  EXPECT_EQ(ulp_up_bits(0xbf800000u, 255), 0xbf7fff01u);
  EXPECT_EQ(ulp_up_bits(0x80800000u, 1), 0x807fffffu);  // -FLT_MIN -> largest -subnormal
}

// Crossing zero from below lands on +0 (never -0) and then on +subnormals.
TEST(Fp32, UlpUpNegativeCrossesZeroToPlusZero) {
  EXPECT_EQ(ulp_up_bits(0x80000001u, 1), kPlusZero);
  EXPECT_EQ(ulp_up_bits(0x80000001u, 2), 0x00000001u);
  EXPECT_EQ(ulp_up_bits(0x80000003u, 5), 0x00000002u);
  EXPECT_EQ(ulp_up_bits(0x800000ffu, 255), kPlusZero);
  EXPECT_EQ(ulp_up_bits(0x80000080u, 255), 0x0000007fu);
}

TEST(Fp32, UlpUpStepsThroughSubnormalsIntoNormals) {
  EXPECT_EQ(ulp_up_bits(0x00000001u, 1), 0x00000002u);
  EXPECT_EQ(ulp_up_bits(0x007fffffu, 1), 0x00800000u);  // largest subnormal -> FLT_MIN
  EXPECT_EQ(ulp_up_bits(0x007fff80u, 255), 0x0080007fu);
}

TEST(Fp32, UlpUpPositiveNormal) {
  EXPECT_EQ(ulp_up_bits(0x3f800000u, 1), 0x3f800001u);
  EXPECT_EQ(ulp_up_bits(0x3f800000u, 255), 0x3f8000ffu);
  EXPECT_EQ(ulp_up_bits(0x3fffffffu, 1), 0x40000000u);  // carries into the next binade
}

TEST(Fp32, UlpUpPastFltMaxSaturatesToPlusInf) {
  EXPECT_EQ(bits_of(FLT_MAX), kFltMax);
  EXPECT_EQ(ulp_up_bits(kFltMax, 1), kPlusInfBits);
  EXPECT_EQ(ulp_up_bits(kFltMax, 255), kPlusInfBits);
  EXPECT_EQ(ulp_up_bits(0x7f7fff01u, 255), kPlusInfBits);  // k lands exactly on 0x7f800000
  EXPECT_EQ(ulp_up_bits(0x7f7fff00u, 255), kFltMax);       // one short: still finite
}

TEST(Fp32, UlpUpLeavesPlusInfUnchanged) {
  EXPECT_EQ(ulp_up_bits(kPlusInfBits, 1), kPlusInfBits);
  EXPECT_EQ(ulp_up_bits(kPlusInfBits, 255), kPlusInfBits);
}

// -Inf is an ordinary point of the ordered line: one step up is -FLT_MAX.
TEST(Fp32, UlpUpFromMinusInfGivesMinusFltMax) {
  EXPECT_EQ(ulp_up_bits(kMinusInf, 1), 0xff7fffffu);
  EXPECT_EQ(ulp_up_bits(kMinusInf, 255), 0xff7fff01u);
}

TEST(Fp32, UlpUpLeavesNanUnchanged) {
  for (uint32_t nan : {kQuietNan, kNanWithPayload, kNegativeNan}) {
    EXPECT_EQ(ulp_up_bits(nan, 1), nan) << std::hex << nan;
    EXPECT_EQ(ulp_up_bits(nan, 255), nan) << std::hex << nan;
  }
}

}  // namespace
}  // namespace td

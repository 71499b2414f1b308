// The binary32 units of rtl/ under Verilator, against the host's IEEE
// binary32 arithmetic (x86 SSE: round to nearest even, subnormals kept;
// this file is compiled with -ffp-contract=off) and the golden reference's
// helpers (fmin/fmax/ulp_up/half_to_float): every pair of a set of special
// operands, and seeded random pairs whose exponents are biased so that
// cancellation, overflow and underflow all occur. A NaN result must be a
// NaN (the contract never reads a payload: the units return one quiet
// NaN); every other result must match bit for bit.
//
// TDSIM_RTL_PAIRS sets the random pairs per unit (default 10 000 000; the
// CI run uses the default; scripts/rtl-soak runs 200 million).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/rtl/rtl_test_support.h"
#include "model/isa/fp32.h"
#include "model/isa/half.h"

namespace {

using rtl_test::Rng;

using td::bits_of;
using td::float_of;

uint64_t random_pairs() {
  const char* text = std::getenv("TDSIM_RTL_PAIRS");
  return text ? std::strtoull(text, nullptr, 10) : 10'000'000;
}

// Special operands: zeros, the subnormal and normal extremes, infinities,
// quiet and signalling NaNs, and values around rounding ties.
std::vector<uint32_t> special_operands() {
  const std::vector<uint32_t> positive = {
      0x00000000u,  // +0
      0x00000001u,  // smallest subnormal
      0x00000002u, 0x00400000u,
      0x007fffffu,  // largest subnormal
      0x00800000u,  // smallest normal
      0x00800001u, 0x01000000u,
      0x3f800000u,  // 1
      0x3f800001u,  // 1 + ulp
      0x3fffffffu, 0x33800000u,  // 2^-24: half an ulp of 1
      0x33000000u,  // 2^-25
      0x33800001u, 0x337fffffu, 0x34000000u,
      0x4b800000u,  // 2^24
      0x4b7fffffu, 0x7f000000u,
      0x7f7fffffu,  // largest normal
      0x7f800000u,  // +Inf
      0x7fc00000u,  // quiet NaN
      0x7f800001u,  // signalling NaN
      0x7fffffffu,
  };
  std::vector<uint32_t> all = positive;
  for (const uint32_t p : positive) all.push_back(p | 0x80000000u);
  return all;
}

// A random operand: exponent uniform, or near a given one (cancellation),
// or at the ends of the range (underflow, overflow), or a special.
uint32_t random_operand(Rng& rng, uint32_t near_exponent) {
  const uint32_t sign = rng.below(2) << 31;
  const auto fraction = static_cast<uint32_t>(rng.next() & 0x7fffffu);
  uint32_t exponent;
  switch (rng.below(8)) {
    case 0: exponent = rng.below(4); break;                       // subnormal and tiny
    case 1: exponent = 252 + rng.below(3); break;                 // huge
    case 2: case 3: {                                             // close to the other operand
      const int e = static_cast<int>(near_exponent) + static_cast<int>(rng.below(5)) - 2;
      exponent = static_cast<uint32_t>(e < 0 ? 0 : e > 254 ? 254 : e);
      break;
    }
    case 4: {
      static const std::vector<uint32_t> specials = special_operands();
      return specials[rng.below(static_cast<uint32_t>(specials.size()))];
    }
    case 5: exponent = 100 + rng.below(55); break;                // around 1
    default: exponent = rng.below(255); break;
  }
  return sign | (exponent << 23) | fraction;
}

std::string hex(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

// Host result `expected` against the unit's `got`.
::testing::AssertionResult same_result(uint32_t a, uint32_t b, uint32_t expected, uint32_t got) {
  const bool expected_nan = std::isnan(float_of(expected));
  if (expected_nan ? std::isnan(float_of(got)) : got == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "a=" << hex(a) << " b=" << hex(b) << ": host " << hex(expected) << ", RTL "
                                       << hex(got);
}

// Runs `check(a, b)` on every special pair and `pairs` random ones; stops at
// the first failure.
template <typename Check>
void for_all_pairs(uint64_t pairs, uint64_t seed, Check check) {
  const std::vector<uint32_t> specials = special_operands();
  for (const uint32_t a : specials)
    for (const uint32_t b : specials) {
      check(a, b);
      if (::testing::Test::HasFailure()) return;
    }
  Rng rng{seed};
  for (uint64_t i = 0; i < pairs; ++i) {
    const uint32_t a = random_operand(rng, rng.below(255));
    const uint32_t b = random_operand(rng, (a >> 23) & 0xffu);
    check(a, b);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(RtlFp32Add, MatchesTheHostOnSpecialAndRandomPairs) {
  Vtd_fp32_add unit;
  for_all_pairs(random_pairs(), 1, [&](uint32_t a, uint32_t b) {
    unit.a_i = a;
    unit.b_i = b;
    unit.eval();
    ASSERT_TRUE(same_result(a, b, bits_of(float_of(a) + float_of(b)), unit.sum_o));
  });
}

TEST(RtlFp32Add, SubtractsByFlippingTheSign) {
  Vtd_fp32_add unit;
  for_all_pairs(random_pairs() / 10, 2, [&](uint32_t a, uint32_t b) {
    unit.a_i = a;
    unit.b_i = b ^ 0x80000000u;
    unit.eval();
    ASSERT_TRUE(same_result(a, b, bits_of(float_of(a) - float_of(b)), unit.sum_o));
  });
}

TEST(RtlFp32Mul, MatchesTheHostOnSpecialAndRandomPairs) {
  Vtd_fp32_mul unit;
  for_all_pairs(random_pairs(), 3, [&](uint32_t a, uint32_t b) {
    unit.a_i = a;
    unit.b_i = b;
    unit.eval();
    ASSERT_TRUE(same_result(a, b, bits_of(float_of(a) * float_of(b)), unit.product_o));
  });
}

// The contract's NaN-ignoring min/max are returned operands: bit for bit,
// NaNs included (one NaN operand gives the other operand).
TEST(RtlFp32MinMax, MatchTheReferenceBitForBit) {
  Vtd_fp32_minmax unit;
  for_all_pairs(random_pairs(), 4, [&](uint32_t a, uint32_t b) {
    unit.a_i = a;
    unit.b_i = b;
    unit.eval();
    ASSERT_EQ(unit.min_o, bits_of(td::fmin(float_of(a), float_of(b)))) << "min a=" << hex(a) << " b=" << hex(b);
    ASSERT_EQ(unit.max_o, bits_of(td::fmax(float_of(a), float_of(b)))) << "max a=" << hex(a) << " b=" << hex(b);
  });
}

TEST(RtlFp32UlpUp, MatchesTheReferenceForEveryStepOnSpecialsAndRandomValues) {
  Vtd_fp32_ulp_up unit;
  std::vector<uint32_t> values = special_operands();
  values.insert(values.end(), {0x7f7ffffeu, 0xff7fffffu, 0x80000001u, 0x80000003u});
  Rng rng{5};
  for (int i = 0; i < 20000; ++i) values.push_back(random_operand(rng, rng.below(255)));
  for (const uint32_t x : values) {
    for (uint32_t n = 0; n < 256; ++n) {
      unit.x_i = x;
      unit.n_i = static_cast<uint8_t>(n);
      unit.eval();
      ASSERT_EQ(unit.y_o, bits_of(td::ulp_up(float_of(x), n))) << "x=" << hex(x) << " n=" << n;
    }
  }
}

// Every binary16 value, NaN payloads included.
TEST(RtlFp16ToFp32, WidensEveryHalfExactly) {
  Vtd_fp16_to_fp32 unit;
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    unit.half_i = static_cast<uint16_t>(h);
    unit.eval();
    ASSERT_EQ(unit.single_o, bits_of(td::half_to_float(static_cast<uint16_t>(h)))) << "half=" << hex(h);
  }
}

}  // namespace

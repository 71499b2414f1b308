// fp32x4_test.cpp — the four-lane helpers give, lane by lane, the scalar
// helpers' bits: every pair of special operands, every special operand at
// grows that reach the saturation edge exactly, and random bit patterns.
#include "model/isa/fp32x4.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/isa/fp32.h"
#include "tb/common/rng.h"

#if defined(__SSE2__)

namespace td {
namespace {

const std::vector<uint32_t> kSpecial = {
    0x00000000u, 0x80000000u,                            // +-0
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,  // smallest and largest subnormals
    0x00800000u, 0x80800000u, 0x3f800000u, 0xbf800000u,  // smallest normal, 1
    0x7f7ffffeu, 0x7f7fffffu, 0xff7fffffu, 0xff7ffffeu,  // around the largest finite
    0x7f800000u, 0xff800000u,                            // +-Inf
    0x7fc00000u, 0xffc00001u, 0x7f800001u, 0xff812345u}; // quiet and signalling NaNs

// Lane i of the four-lane result, for lanes holding (x, others...).
template <typename Four, typename One>
void expect_lanes_match(const uint32_t (&a)[4], const uint32_t (&b)[4], Four four, One one) {
  alignas(16) float av[4], bv[4], out[4];
  for (int i = 0; i < 4; ++i) {
    av[i] = float_of(a[i]);
    bv[i] = float_of(b[i]);
  }
  _mm_store_ps(out, four(_mm_load_ps(av), _mm_load_ps(bv)));
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(bits_of(out[i]), bits_of(one(av[i], bv[i]))) << std::hex << "a " << a[i] << " b " << b[i];
}

TEST(Fp32x4, MinAndMaxOfEverySpecialPair) {
  for (uint32_t a : kSpecial)
    for (size_t k = 0; k < kSpecial.size(); k += 4) {
      const uint32_t as[4] = {a, a, a, a};
      const uint32_t bs[4] = {kSpecial[k], kSpecial[(k + 1) % kSpecial.size()], kSpecial[(k + 2) % kSpecial.size()],
                              kSpecial[(k + 3) % kSpecial.size()]};
      expect_lanes_match(as, bs, fmin4, [](float x, float y) { return fmin(x, y); });
      expect_lanes_match(as, bs, fmax4, [](float x, float y) { return fmax(x, y); });
    }
}

void expect_ulp_up_matches(const uint32_t (&x)[4], uint32_t n) {
  alignas(16) float in[4], out[4];
  for (int i = 0; i < 4; ++i) in[i] = float_of(x[i]);
  _mm_store_ps(out, ulp_up4(_mm_load_ps(in), n));
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(bits_of(out[i]), bits_of(ulp_up(in[i], n))) << std::hex << "x " << x[i] << " n " << n;
}

TEST(Fp32x4, UlpUpOfSpecialOperandsAtEveryEdge) {
  const uint32_t grows[] = {0, 1, 2, 255, (1u << 23) - 1, 1u << 23, 0x7fffffffu, 0xffffffffu};
  for (uint32_t x : kSpecial) {
    const uint32_t lanes[4] = {x, x, 0x80000000u, 0xff7fffffu};
    for (uint32_t n : grows) expect_ulp_up_matches(lanes, n);
    // Grows that land on the largest finite, one short and one past it.
    const int64_t ordered = (x >> 31) ? -static_cast<int64_t>(x & 0x7fffffffu) : static_cast<int64_t>(x);
    const int64_t to_largest = int64_t{0x7f7fffff} - ordered;
    for (int64_t d = -1; d <= 1; ++d)
      if (to_largest + d > 0 && to_largest + d <= 0xffffffffLL)
        expect_ulp_up_matches(lanes, static_cast<uint32_t>(to_largest + d));
    // Grows that carry a negative value exactly to -0 / +0 and past.
    if ((x >> 31) && (x & 0x7fffffffu) <= 0x7f800000u)
      for (int64_t d = -1; d <= 1; ++d)
        if (int64_t{x & 0x7fffffffu} + d > 0) expect_ulp_up_matches(lanes, static_cast<uint32_t>((x & 0x7fffffffu) + d));
  }
}

TEST(Fp32x4, RandomOperands) {
  tb::Rng rng(4);
  for (int k = 0; k < 1000000; ++k) {
    uint32_t a[4], b[4];
    for (int i = 0; i < 4; ++i) {
      a[i] = rng.next32();
      b[i] = rng.chance(10) ? a[i] ^ 0x80000000u : rng.next32();  // some +-x pairs: equal magnitudes
    }
    expect_lanes_match(a, b, fmin4, [](float x, float y) { return fmin(x, y); });
    expect_lanes_match(a, b, fmax4, [](float x, float y) { return fmax(x, y); });
    const uint32_t n = rng.chance(80) ? rng.below(1u << 12) : rng.next32();
    expect_ulp_up_matches(a, n);
  }
}

}  // namespace
}  // namespace td

#endif  // __SSE2__

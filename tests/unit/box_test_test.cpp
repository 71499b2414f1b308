// box_test_test.cpp — contract §6: the ray/box slab test and the box result
// (unsorted and sorted). Rays and boxes use small dyadic numbers so every
// distance below is exact and worked out by hand in the comments.
#include "model/ref/box_test.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "model/isa/fp32.h"
#include "tb/common/rng.h"

namespace td::ref {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kMiss = kInvalidChild;

// dir is not used by the box test (dir and inv_dir are independent inputs).
Ray make_ray(const Vec3& origin, const Vec3& inv_dir, float extent = 100.0f) {
  Ray ray;
  ray.extent = extent;
  ray.origin = origin;
  ray.dir = {1.0f, 1.0f, 1.0f};
  ray.inv_dir = inv_dir;
  return ray;
}

Aabb cube(float lo, float hi) { return Aabb{{lo, lo, lo}, {hi, hi, hi}}; }

BoxNode node_of(const Aabb& box0, const Aabb& box1, const Aabb& box2, const Aabb& box3) {
  BoxNode node;
  node.child = {0x100u, 0x200u, 0x300u, 0x400u};
  node.box = {box0, box1, box2, box3};
  return node;
}

BoxTestResult hits_with_keys(std::array<bool, 4> hit, std::array<float, 4> key) {
  BoxTestResult result;
  result.hit = hit;
  result.key = key;
  return result;
}

// --- slab test --------------------------------------------------------------

// Origin (-2,-3,-4), inv 1, box [0,10]^3: near = 2,3,4, far = 12,13,14.
TEST(BoxTest, KeyIsTheLargestSlabEntry) {
  const Vec3 origins[3] = {{-4, -2, -3}, {-3, -4, -2}, {-2, -3, -4}};  // x, y, z enter last
  for (int axis = 0; axis < 3; ++axis) {
    const SlabResult r = slab_test(make_ray(origins[axis], {1, 1, 1}), cube(0, 10), 0);
    EXPECT_TRUE(r.hit) << "axis " << axis;
    EXPECT_EQ(bits_of(r.key), bits_of(4.0f)) << "axis " << axis;
  }
}

// Origin (-2,-2,-2), inv 1, box [0,10]^3 but [-5,-1] on one axis: that axis
// exits at 1 before the others enter at 2.
TEST(BoxTest, MissWhenAnySlabExitsBeforeEntry) {
  for (int axis = 0; axis < 3; ++axis) {
    Aabb box = cube(0, 10);
    box.min[axis] = -5;
    box.max[axis] = -1;
    EXPECT_FALSE(slab_test(make_ray({-2, -2, -2}, {1, 1, 1}), box, 0).hit) << "axis " << axis;
  }
}

// tnear < 0 is clamped by fmax(tnear, +0): the key is +0.
TEST(BoxTest, OriginInsideBoxHasKeyZero) {
  const SlabResult r = slab_test(make_ray({5, 5, 5}, {1, 2, 0.5f}), cube(0, 10), 0);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.key), 0x00000000u);
}

// min.x = -0, origin.x = +0: near_x = (-0 - 0) * 1 = -0 is the largest entry;
// n = fmax(-0, +0) returns its first operand, so the key is -0.
TEST(BoxTest, EntryAtMinusZeroKeepsMinusZeroKey) {
  Aabb box = cube(-5, 5);
  box.min[0] = -0.0f;
  const SlabResult r = slab_test(make_ray({0, 0, 0}, {1, 1, 1}), box, 0);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.key), 0x80000000u);
}

TEST(BoxTest, BoxBehindOriginMisses) {
  // near = -3, far = -2 on every axis: n = 0 > f = -2.
  EXPECT_FALSE(slab_test(make_ray({0, 0, 0}, {1, 1, 1}), cube(-3, -2), 0).hit);
}

TEST(BoxTest, EmptySlotMissesEvenWhenBoxWouldHit) {
  const Aabb hit_box = cube(0, 10);
  BoxNode node = node_of(hit_box, hit_box, hit_box, hit_box);
  node.child[1] = kInvalidChild;
  const BoxTestResult r = box_test(make_ray({-2, -2, -2}, {1, 1, 1}), node, 0);
  EXPECT_EQ(r.hit, (std::array<bool, 4>{true, false, true, true}));
  EXPECT_EQ(box_result(node.child, r, false), (std::array<uint32_t, 4>{0x100u, kMiss, 0x300u, 0x400u}));
  EXPECT_EQ(box_result(node.child, r, true), (std::array<uint32_t, 4>{0x100u, 0x300u, 0x400u, kMiss}));
}

// A NaN slab alone would be skipped by the NaN-ignoring fmin/fmax and the box
// would hit; rule 2 makes the whole box inactive.
TEST(BoxTest, NanBoxCoordinateMisses) {
  const Ray ray = make_ray({-2, -2, -2}, {1, 1, 1});
  ASSERT_TRUE(slab_test(ray, cube(0, 10), 0).hit);
  for (int a = 0; a < 3; ++a) {
    for (bool is_max : {false, true}) {
      Aabb box = cube(0, 10);
      (is_max ? box.max : box.min)[a] = std::numeric_limits<float>::quiet_NaN();
      EXPECT_FALSE(slab_test(ray, box, 0).hit) << "axis " << a << (is_max ? " max" : " min");
      BoxNode node = node_of(box, cube(0, 10), cube(0, 10), cube(0, 10));
      EXPECT_FALSE(box_test(ray, node, 255).hit[0]) << "axis " << a << (is_max ? " max" : " min");
    }
  }
}

// Origin 12 on the negative-inv axis, -2 elsewhere, box [0,10]^3:
// lo = (0-12)*-1 = 12, hi = (10-12)*-1 = 2, so near = 2, far = 12.
TEST(BoxTest, NegativeInvDirSwapsNearAndFar) {
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 origin{-2, -2, -2};
    Vec3 inv{1, 1, 1};
    origin[axis] = 12;
    inv[axis] = -1;
    const SlabResult r = slab_test(make_ray(origin, inv), cube(0, 10), 0);
    EXPECT_TRUE(r.hit) << "axis " << axis;
    EXPECT_EQ(bits_of(r.key), bits_of(2.0f)) << "axis " << axis;
  }
}

// inv = -0 with the origin inside the slab: lo = (0-5)*-0 = +0,
// hi = (10-5)*-0 = -0. The sign bit swaps, so near = -0, far = +0, and the
// key is fmax(-0, +0) = -0. Without the swap (inv < 0 is false for -0) the
// key would be +0.
TEST(BoxTest, InvDirMinusZeroSwapsNearAndFar) {
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 inv{1, 1, 1};
    inv[axis] = -0.0f;
    const SlabResult r = slab_test(make_ray({5, 5, 5}, inv), cube(0, 10), 0);
    EXPECT_TRUE(r.hit) << "axis " << axis;
    EXPECT_EQ(bits_of(r.key), 0x80000000u) << "axis " << axis;
  }
}

// Origin on the min corner, inv = +Inf: every near is 0*Inf = NaN. Ignoring
// that would give n = fmax(NaN, 0) = 0 and a hit.
TEST(BoxTest, NanEntryDistanceMisses) {
  EXPECT_FALSE(slab_test(make_ray({0, 0, 0}, {kInf, kInf, kInf}), cube(0, 1), 0).hit);
}

// Origin on the max corner, inv = +Inf: every far is 0*Inf = NaN. Ignoring
// that would give f = fmin(NaN, extent) = extent and a hit.
TEST(BoxTest, NanExitDistanceMisses) {
  EXPECT_FALSE(slab_test(make_ray({1, 1, 1}, {kInf, kInf, kInf}), cube(0, 1), 0).hit);
}

// Only the x slab is NaN (0*Inf): fmax/fmin skip it and y, z decide.
TEST(BoxTest, NanSlabOnOneAxisIsIgnored) {
  const SlabResult r = slab_test(make_ray({0, 0.5f, 0.5f}, {kInf, 1, 1}), cube(0, 1), 0);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.key), 0x00000000u);
}

// Origin 0, inv 1: x enters at 1, y exits at max.y. With max.y one ulp below
// 1 the box just misses; box_grow = 1 moves tfar up to exactly 1.
TEST(BoxTest, BoxGrowTurnsJustMissIntoHit) {
  Aabb box{{1, -1, -1}, {2, float_of(0x3f7fffffu), 2}};
  const Ray ray = make_ray({0, 0, 0}, {1, 1, 1});
  EXPECT_FALSE(slab_test(ray, box, 0).hit);
  const SlabResult grown = slab_test(ray, box, 1);
  EXPECT_TRUE(grown.hit);
  EXPECT_EQ(bits_of(grown.key), bits_of(1.0f));  // grow moves the exit only
  EXPECT_TRUE(slab_test(ray, box, 255).hit);

  box.max[1] = float_of(0x3f7ffffeu);  // two ulps short
  EXPECT_FALSE(slab_test(ray, box, 1).hit);
  EXPECT_TRUE(slab_test(ray, box, 2).hit);
}

// box_grow widens the box, not the ray: f = fmin(ulp_up(tfar), extent).
TEST(BoxTest, BoxGrowDoesNotExtendRayExtent) {
  const Aabb box{{1, -1, -1}, {10, 10, 10}};
  const Ray ray = make_ray({0, 0, 0}, {1, 1, 1}, float_of(0x3f7fffffu));  // just short of 1
  EXPECT_FALSE(slab_test(ray, box, 255).hit);
}

TEST(BoxTest, RayExtentClampsFar) {
  const Aabb box{{1, -1, -1}, {2, 2, 2}};  // enter at 1, leave at 2
  EXPECT_FALSE(slab_test(make_ray({0, 0, 0}, {1, 1, 1}, 0.5f), box, 0).hit);
  EXPECT_FALSE(slab_test(make_ray({0, 0, 0}, {1, 1, 1}, float_of(0x3f7fffffu)), box, 0).hit);
  EXPECT_TRUE(slab_test(make_ray({0, 0, 0}, {1, 1, 1}, 1.0f), box, 0).hit);  // n == f
  EXPECT_TRUE(slab_test(make_ray({0, 0, 0}, {1, 1, 1}, kInf), box, 0).hit);
}

// A zero-thickness slab: near_x == far_x == 1, so n == f and that is a hit.
TEST(BoxTest, HitWhenEntryEqualsExitExactly) {
  const Aabb box{{1, -1, -1}, {1, 2, 2}};
  const SlabResult r = slab_test(make_ray({0, 0, 0}, {1, 1, 1}), box, 0);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.key), bits_of(1.0f));
}

// Four boxes along +x entered at 3, 1, 4, 2 in slot order.
TEST(BoxTest, SortedNodeReturnsClosestChildFirst) {
  const auto slab_at = [](float x) { return Aabb{{x, -1, -1}, {x + 0.5f, 1, 1}}; };
  const BoxNode node = node_of(slab_at(3), slab_at(1), slab_at(4), slab_at(2));
  const BoxTestResult r = box_test(make_ray({0, 0, 0}, {1, kInf, kInf}), node, 0);
  EXPECT_EQ(r.hit, (std::array<bool, 4>{true, true, true, true}));
  EXPECT_EQ(bits_of(r.key[0]), bits_of(3.0f));
  EXPECT_EQ(bits_of(r.key[3]), bits_of(2.0f));
  EXPECT_EQ(box_result(node.child, r, true), (std::array<uint32_t, 4>{0x200u, 0x400u, 0x100u, 0x300u}));
  EXPECT_EQ(box_result(node.child, r, false), (std::array<uint32_t, 4>{0x100u, 0x200u, 0x300u, 0x400u}));
}

// §1 keeps subnormals: the x slab is entered at 2^-149, the smallest
// subnormal, which must survive as the key (flush-to-zero would give +0).
TEST(BoxTest, SubnormalDistancesAreKept) {
  const Aabb box{{float_of(0x00000001u), -1, -1}, {1, 1, 1}};
  const SlabResult r = slab_test(make_ray({0, 0, 0}, {1, 1, 1}), box, 0);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.key), 0x00000001u);
}

// --- box result ---------------------------------------------------------------

const BoxNode kNode = node_of(cube(0, 1), cube(0, 1), cube(0, 1), cube(0, 1));

TEST(BoxResult, UnsortedKeepsSlots) {
  const auto tests = hits_with_keys({true, false, true, false}, {5, 0, 1, 0});
  EXPECT_EQ(box_result(kNode.child, tests, false), (std::array<uint32_t, 4>{0x100u, kMiss, 0x300u, kMiss}));
}

TEST(BoxResult, SortedOrdersHitsByKey) {
  const auto tests = hits_with_keys({true, true, true, true}, {3, 1, 2, 0.5f});
  EXPECT_EQ(box_result(kNode.child, tests, true), (std::array<uint32_t, 4>{0x400u, 0x200u, 0x300u, 0x100u}));
}

TEST(BoxResult, SortTiesBrokenBySlotIndex) {
  const auto tests = hits_with_keys({true, true, true, true}, {1, 1, 0, 1});
  EXPECT_EQ(box_result(kNode.child, tests, true), (std::array<uint32_t, 4>{0x300u, 0x100u, 0x200u, 0x400u}));
}

// -0 == +0: equal keys, so slot order decides whichever zero is in which slot.
TEST(BoxResult, SortTreatsMinusZeroEqualToPlusZero) {
  const auto plus_first = hits_with_keys({true, true, true, true}, {1, 0.0f, -0.0f, 2});
  EXPECT_EQ(box_result(kNode.child, plus_first, true), (std::array<uint32_t, 4>{0x200u, 0x300u, 0x100u, 0x400u}));
  const auto minus_first = hits_with_keys({true, true, true, true}, {1, -0.0f, 0.0f, 2});
  EXPECT_EQ(box_result(kNode.child, minus_first, true), (std::array<uint32_t, 4>{0x200u, 0x300u, 0x100u, 0x400u}));
}

TEST(BoxResult, SortedPutsMissesAtTheEnd) {
  // Misses carry small keys that must not pull them forward.
  const auto tests = hits_with_keys({false, true, false, true}, {0, 5, 0, 1});
  EXPECT_EQ(box_result(kNode.child, tests, true), (std::array<uint32_t, 4>{0x400u, 0x200u, kMiss, kMiss}));
  const auto last_only = hits_with_keys({false, false, false, true}, {0, 0, 0, 7});
  EXPECT_EQ(box_result(kNode.child, last_only, true), (std::array<uint32_t, 4>{0x400u, kMiss, kMiss, kMiss}));
}

TEST(BoxResult, NoHitsGiveAllOnes) {
  const auto tests = hits_with_keys({false, false, false, false}, {0, 0, 0, 0});
  const std::array<uint32_t, 4> all_miss{kMiss, kMiss, kMiss, kMiss};
  EXPECT_EQ(box_result(kNode.child, tests, false), all_miss);
  EXPECT_EQ(box_result(kNode.child, tests, true), all_miss);
}

// --- the four-wide box_test against slab_test, box by box -------------------

// An operand that is often special: zeros, subnormals, the largest finite,
// infinities, NaNs, or a random value of any exponent and sign.
float random_operand(tb::Rng& rng) {
  static const uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
                                      0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                      0xffc00001u, 0x7f800001u, 0x3f800000u, 0xbf800000u};
  if (rng.chance(20)) return float_of(kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])]);
  if (rng.chance(50)) return rng.uniform(-8.0f, 8.0f);  // boxes and rays that meet: hits and ties
  return float_of(rng.next32());
}

TEST(BoxTest, FourWideTestIsSlabTestPerChild) {
  tb::Rng rng(20261204);
  const uint32_t grows[] = {0, 1, 2, 255, (1u << 23) - 1, 1u << 23, 0x7fffffffu, 0xffffffffu};
  for (int n = 0; n < 1000000; ++n) {
    Ray ray;
    ray.extent = rng.chance(10) ? random_operand(rng) : rng.uniform(0.0f, 64.0f);
    for (int a = 0; a < 3; ++a) {
      ray.origin[a] = random_operand(rng);
      ray.inv_dir[a] = random_operand(rng);
    }
    BoxNode node;
    for (int i = 0; i < 4; ++i) {
      node.child[i] = rng.chance(10) ? kInvalidChild : rng.next32() & 0x7fffffffu;
      for (int a = 0; a < 3; ++a) {
        node.box[i].min[a] = random_operand(rng);
        node.box[i].max[a] = rng.chance(30) ? node.box[i].min[a] : random_operand(rng);
      }
    }
    const uint32_t grow = rng.chance(50) ? grows[rng.below(8)] : rng.below(16);
    const BoxTestResult four = box_test(ray, node, grow);
    for (int i = 0; i < 4; ++i) {
      const SlabResult one = node.child[i] == kInvalidChild ? SlabResult{} : slab_test(ray, node.box[i], grow);
      ASSERT_EQ(four.hit[i], one.hit) << "case " << n << " child " << i;
      ASSERT_EQ(bits_of(four.key[i]), bits_of(one.key)) << "case " << n << " child " << i;
    }
  }
}

}  // namespace
}  // namespace td::ref

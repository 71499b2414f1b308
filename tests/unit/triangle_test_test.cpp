// triangle_test_test.cpp — contract §7: the watertight ray/triangle test,
// triangle selection within a node and the two return modes. Most cases use
// axis-aligned rays and dyadic vertices so U, V, W, det and T are exact and
// derived by hand in the comments.
#include "model/ref/triangle_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "model/isa/fp32.h"

namespace td::ref {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

Ray make_ray(const Vec3& origin, const Vec3& dir, const Vec3& inv_dir, float extent = 10.0f) {
  Ray ray;
  ray.extent = extent;
  ray.origin = origin;
  ray.dir = dir;
  ray.inv_dir = inv_dir;
  return ray;
}

// Straight up +z from (x, y, z0): kz = 2, no shear, Sz = 1.
Ray ray_up(float x, float y, float z0 = -1.0f, float extent = 10.0f) {
  return make_ray({x, y, z0}, {0, 0, 1}, {kInf, kInf, 1}, extent);
}

void expect_values(const TriangleTestResult& r, float u, float v, float w, float det, float t_num) {
  EXPECT_EQ(bits_of(r.u), bits_of(u));
  EXPECT_EQ(bits_of(r.v), bits_of(v));
  EXPECT_EQ(bits_of(r.w), bits_of(w));
  EXPECT_EQ(bits_of(r.det), bits_of(det));
  EXPECT_EQ(bits_of(r.t_num), bits_of(t_num));
}

// Counter-clockwise seen from +z: (0,0), (1,0), (0,1). Ray up through
// (0.25, 0.25) from z = -1: sheared A = (-.25,-.25,1), B = (.75,-.25,1),
// C = (-.25,.75,1); U = -.5, V = -.25, W = -.25, det = -1, T = -1.
const Vec3 kA{0, 0, 0}, kB{1, 0, 0}, kC{0, 1, 0};

TEST(TriangleTest, BackfaceHitHasNegativeDet) {
  const TriangleTestResult r = triangle_test(ray_up(0.25f, 0.25f), kA, kB, kC);
  EXPECT_TRUE(r.hit);
  expect_values(r, -0.5f, -0.25f, -0.25f, -1.0f, -1.0f);
}

// Swapping B and C flips the winding: U = .5, V = .25, W = .25, det = 1, T = 1.
TEST(TriangleTest, FrontfaceHitHasPositiveDet) {
  const TriangleTestResult r = triangle_test(ray_up(0.25f, 0.25f), kA, kC, kB);
  EXPECT_TRUE(r.hit);
  expect_values(r, 0.5f, 0.25f, 0.25f, 1.0f, 1.0f);
}

TEST(TriangleTest, PointOutsideTriangleMisses) {
  EXPECT_FALSE(triangle_test(ray_up(0.75f, 0.75f), kA, kB, kC).hit);  // beyond the hypotenuse
  EXPECT_FALSE(triangle_test(ray_up(-0.25f, 0.25f), kA, kB, kC).hit);
  EXPECT_FALSE(triangle_test(ray_up(0.75f, 0.75f), kA, kC, kB).hit);
}

// Origin above the plane going up: T has the wrong sign for det.
TEST(TriangleTest, TriangleBehindOriginMisses) {
  EXPECT_FALSE(triangle_test(ray_up(0.25f, 0.25f, 1.0f), kA, kB, kC).hit);
  EXPECT_FALSE(triangle_test(ray_up(0.25f, 0.25f, 1.0f), kA, kC, kB).hit);
}

// Origin in the plane: Az = Bz = Cz = 0, so T = 0 (the T >= 0 / T <= 0 bound).
TEST(TriangleTest, HitAtTEqualsZero) {
  for (bool front : {false, true}) {
    const TriangleTestResult r = front ? triangle_test(ray_up(0.25f, 0.25f, 0.0f), kA, kC, kB)
                                       : triangle_test(ray_up(0.25f, 0.25f, 0.0f), kA, kB, kC);
    EXPECT_TRUE(r.hit) << (front ? "front" : "back");
    EXPECT_EQ(r.t_num, 0.0f);
  }
}

// T = det * 1 and E = extent * det: extent 1 gives T == E exactly.
TEST(TriangleTest, HitAtTEqualsE) {
  EXPECT_TRUE(triangle_test(ray_up(0.25f, 0.25f, -1.0f, 1.0f), kA, kC, kB).hit);  // T = E = 1
  EXPECT_TRUE(triangle_test(ray_up(0.25f, 0.25f, -1.0f, 1.0f), kA, kB, kC).hit);  // T = E = -1
}

// extent one ulp below 1: E = ±0.99999994 and |T| = 1 is just past it.
TEST(TriangleTest, TJustPastEMisses) {
  const float extent = float_of(0x3f7fffffu);
  EXPECT_FALSE(triangle_test(ray_up(0.25f, 0.25f, -1.0f, extent), kA, kC, kB).hit);
  EXPECT_FALSE(triangle_test(ray_up(0.25f, 0.25f, -1.0f, extent), kA, kB, kC).hit);
}

// (0.5, 0.5) lies on the hypotenuse: U = .25 - .25 = 0, V = W = -.5 — an
// edge hit, since zeros do not count as either sign.
TEST(TriangleTest, RayThroughEdgeHits) {
  const TriangleTestResult r = triangle_test(ray_up(0.5f, 0.5f), kA, kB, kC);
  EXPECT_TRUE(r.hit);
  expect_values(r, 0.0f, -0.5f, -0.5f, -1.0f, -1.0f);
}

// Front-facing the same edge: U = 0, V = W = +.5. A zero must not count as
// negative either.
TEST(TriangleTest, FrontfaceRayThroughEdgeHits) {
  const TriangleTestResult r = triangle_test(ray_up(0.5f, 0.5f), kA, kC, kB);
  EXPECT_TRUE(r.hit);
  expect_values(r, 0.0f, 0.5f, 0.5f, 1.0f, 1.0f);
}

TEST(TriangleTest, RayThroughVertexHits) {
  const TriangleTestResult r = triangle_test(ray_up(0.0f, 0.0f), kA, kB, kC);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.det), bits_of(-1.0f));
}

// Collinear vertices: U = V = W = 0, det = 0: neither det > 0 nor det < 0.
TEST(TriangleTest, DegenerateTriangleMisses) {
  const TriangleTestResult r = triangle_test(ray_up(1.0f, 0.0f), {0, 0, 0}, {1, 0, 0}, {2, 0, 0});
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.det, 0.0f);
  EXPECT_EQ(r.t_num, 0.0f);
}

TEST(TriangleTest, NanVertexMisses) {
  const Ray ray = ray_up(0.25f, 0.25f);
  for (int vertex = 0; vertex < 3; ++vertex)
    for (int axis = 0; axis < 3; ++axis) {
      Vec3 abc[3] = {kA, kB, kC};
      abc[vertex][axis] = kNan;
      EXPECT_FALSE(triangle_test(ray, abc[0], abc[1], abc[2]).hit) << "vertex " << vertex << " axis " << axis;
    }
}

// Going down -z over the same triangle with the winding that hits front-on
// going up: kz = 2 and d.z < 0, so kx/ky swap to (y, x). Sheared A = (-.25,
// -.25, 1), B = (.75, -.25, 1), C = (-.25, .75, 1) (x and y exchanged), so
// U = -.5, V = W = -.25, det = -1. Without the swap det would be +1.
TEST(TriangleTest, NegativeDominantDirSwapsKxKy) {
  const Ray ray = make_ray({0.25f, 0.25f, 1.0f}, {0, 0, -1}, {kInf, kInf, -1});
  const TriangleTestResult r = triangle_test(ray, kA, kC, kB);
  EXPECT_TRUE(r.hit);
  expect_values(r, -0.5f, -0.25f, -0.25f, -1.0f, -1.0f);
}

// --- arithmetic rules of §1 ----------------------------------------------------

// A = (-e, e), B = (1, 0), C = (0, -1) with e = 2^-24, seen from (0, 0, -1):
// U = 1, V = W = e. det = (1 + e) + e = 1 (each add is a tie to even), but
// 1 + (e + e) = 1 + 2^-23. T is the same sum with Az = Bz = Cz = 1.
TEST(TriangleTest, SumsAreEvaluatedLeftToRight) {
  const float e = std::ldexp(1.0f, -24);
  const TriangleTestResult r = triangle_test(ray_up(0, 0), {-e, e, 0}, {1, 0, 0}, {0, -1, 0});
  EXPECT_TRUE(r.hit);
  expect_values(r, 1.0f, e, e, 1.0f, 1.0f);
}

// The same shape with e = 2^-140: V and W are binary32 subnormals and must
// not be flushed to zero.
TEST(TriangleTest, SubnormalResultsAreKept) {
  const float e = std::ldexp(1.0f, -140);
  ASSERT_EQ(bits_of(e), 0x00000200u);
  const TriangleTestResult r = triangle_test(ray_up(0, 0), {-e, e, 0}, {1, 0, 0}, {0, -1, 0});
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(bits_of(r.v), 0x00000200u);
  EXPECT_EQ(bits_of(r.w), 0x00000200u);
}

// Cx*By = (1+2^-23)^2 rounds to 1+2^-22 = Cy*Bx, so U = +0. A fused
// multiply-add would keep the 2^-46 and give U = ±2^-46. Both operand orders
// (the inexact product first, then second).
TEST(TriangleTest, EdgeProductsAreRoundedBeforeSubtracting) {
  const float one_up = float_of(0x3f800001u), two_up = float_of(0x3f800002u);  // 1+2^-23, 1+2^-22
  const Vec3 b{1, one_up, 0}, c{one_up, two_up, 0};
  EXPECT_EQ(bits_of(triangle_test(ray_up(0, 0), {0, 0, 0}, b, c).u), 0x00000000u);
  EXPECT_EQ(bits_of(triangle_test(ray_up(0, 0), {0, 0, 0}, c, b).u), 0x00000000u);
}

// dir.x = 1+2^-23, inv.z = 1: Sx = 1+2^-23. For A = (1+2^-22, 0, 1+2^-23),
// Ax = (1+2^-22) - round((1+2^-23)^2) = +0 (fused: -2^-46). With B = (-1, 1, 0),
// C = (-1, -1, 0): V = 0*-1 - 0*-1 = +0 and W = -1*0 - 1*0 = -0.
TEST(TriangleTest, ShearProductIsRoundedBeforeSubtracting) {
  const Ray ray = make_ray({0, 0, 0}, {float_of(0x3f800001u), 0, 2}, {1, 1, 1});
  const TriangleTestResult r =
      triangle_test(ray, {float_of(0x3f800002u), 0, float_of(0x3f800001u)}, {-1, 1, 0}, {-1, -1, 0});
  EXPECT_EQ(bits_of(r.u), bits_of(-2.0f));
  EXPECT_EQ(bits_of(r.v), 0x00000000u);
  EXPECT_EQ(bits_of(r.w), 0x80000000u);
}

// --- dominant axis selection --------------------------------------------------

struct Sheared {
  float u, v, w, det, t_num;
};

// Steps 2-6 of §7 with the axes given explicitly, so a test can state which
// axes the contract selects for a direction.
Sheared with_axes(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c, int kx, int ky, int kz) {
  const float sx = ray.dir[kx] * ray.inv_dir[kz];
  const float sy = ray.dir[ky] * ray.inv_dir[kz];
  const float sz = ray.inv_dir[kz];
  const auto shear = [&](const Vec3& vertex, float out[3]) {
    const float p[3] = {vertex[0] - ray.origin[0], vertex[1] - ray.origin[1], vertex[2] - ray.origin[2]};
    out[0] = p[kx] - sx * p[kz];
    out[1] = p[ky] - sy * p[kz];
    out[2] = sz * p[kz];
  };
  float pa[3], pb[3], pc[3];
  shear(a, pa);
  shear(b, pb);
  shear(c, pc);
  Sheared s;
  s.u = pc[0] * pb[1] - pc[1] * pb[0];
  s.v = pa[0] * pc[1] - pa[1] * pc[0];
  s.w = pb[0] * pa[1] - pb[1] * pa[0];
  s.det = (s.u + s.v) + s.w;
  s.t_num = (s.u * pa[2] + s.v * pb[2]) + s.w * pc[2];
  return s;
}

bool same_bits(const Sheared& x, const Sheared& y) {
  return bits_of(x.u) == bits_of(y.u) && bits_of(x.v) == bits_of(y.v) && bits_of(x.w) == bits_of(y.w) &&
         bits_of(x.det) == bits_of(y.det) && bits_of(x.t_num) == bits_of(y.t_num);
}

// inv_dir is deliberately not 1/dir and has distinct magnitudes, so each
// choice of axes gives different numbers.
void expect_axes(const Vec3& dir, int kx, int ky, int kz) {
  SCOPED_TRACE(testing::Message() << "dir (" << dir[0] << ", " << dir[1] << ", " << dir[2] << ")");
  const Ray ray = make_ray({0.5f, 0.25f, -0.75f}, dir, {1.5f, -2.5f, 3.25f});
  const Vec3 a{1, 2, 3}, b{-2, 1, 5}, c{3, -1, 4};
  const Sheared expected = with_axes(ray, a, b, c, kx, ky, kz);
  const TriangleTestResult r = triangle_test(ray, a, b, c);
  expect_values(r, expected.u, expected.v, expected.w, expected.det, expected.t_num);
  // The case discriminates: every other (kz, swap) choice differs.
  for (int other_kz = 0; other_kz < 3; ++other_kz)
    for (bool swap : {false, true}) {
      int ox = (other_kz + 1) % 3, oy = (other_kz + 2) % 3;
      if (swap) std::swap(ox, oy);
      if (other_kz == kz && ox == kx) continue;
      EXPECT_FALSE(same_bits(with_axes(ray, a, b, c, ox, oy, other_kz), expected))
          << "kz " << other_kz << " swap " << swap;
    }
}

TEST(TriangleTest, DominantAxisIsLargestAbsDir) {
  expect_axes({4, 1, 2}, 1, 2, 0);
  expect_axes({1, 4, 2}, 2, 0, 1);
  expect_axes({1, 2, 4}, 0, 1, 2);
  expect_axes({-1, 2, 4}, 0, 1, 2);  // |d|, not d, decides
}

// |dx| == |dy|: x wins; |dy| == |dz|: y wins; |dx| == |dz|: x wins.
TEST(TriangleTest, DominantAxisTiesPreferLowerAxis) {
  expect_axes({3, 3, 1}, 1, 2, 0);
  expect_axes({3, -3, 1}, 1, 2, 0);
  expect_axes({1, 3, 3}, 2, 0, 1);
  expect_axes({1, 3, -3}, 2, 0, 1);
  expect_axes({3, 1, 3}, 1, 2, 0);
  expect_axes({2, 2, 2}, 1, 2, 0);
}

TEST(TriangleTest, NegativeDominantComponentSwapsKxKy) {
  expect_axes({-4, 1, 2}, 2, 1, 0);
  expect_axes({1, -4, 2}, 0, 2, 1);
  expect_axes({1, 2, -4}, 1, 0, 2);
  expect_axes({-3, 3, 1}, 2, 1, 0);   // tie picks x, then x is negative
  expect_axes({1, -3, 3}, 0, 2, 1);   // tie picks y, then y is negative
  expect_axes({-2, -2, -2}, 2, 1, 0);
}

// --- triangles of a node ----------------------------------------------------------

// A fan around V2 = origin: t0 fills x>0,y>0; t1 x<0,y>0; t2 x<0,y<0;
// t3 x>0,y<0 (all counter-clockwise, twice the area 4, so det = -4 going up).
TriangleNode fan_node(uint32_t id = 0) {
  TriangleNode node;
  node.vertex = {Vec3{2, 0, 0}, Vec3{0, 2, 0}, Vec3{0, 0, 0}, Vec3{-2, 0, 0}, Vec3{0, -2, 0}};
  node.id = id;
  return node;
}

struct FanCase {
  uint32_t t;
  float x, y;     // a point inside triangle t only
  float u, v, w;  // -4 times the barycentric weights of (A, B, C)
};

// Weights all differ, so any other vertex order shows. E.g. t0 = (V0, V1, V2)
// at (0.5, 0.25) = .25 V0 + .125 V1 + .625 V2, so U, V, W = -1, -.5, -2.5.
const FanCase kFanCases[4] = {
    {0, 0.5f, 0.25f, -1.0f, -0.5f, -2.5f},    // (V0, V1, V2): weights .25 .125 .625
    {1, -0.5f, 0.25f, -0.5f, -1.0f, -2.5f},   // (V1, V3, V2): weights .125 .25 .625
    {2, -0.5f, -0.25f, -2.5f, -1.0f, -0.5f},  // (V2, V3, V4): weights .625 .25 .125
    {3, 0.5f, -0.25f, -2.5f, -0.5f, -1.0f},   // (V2, V4, V0): weights .625 .125 .25
};

TEST(TriangleTest, EachNodeTypeSelectsItsVertices) {
  const TriangleNode node = fan_node();
  for (const FanCase& c : kFanCases) {
    SCOPED_TRACE(testing::Message() << "t " << c.t);
    const TriangleTestResult r = triangle_node_test(ray_up(c.x, c.y), node, c.t);
    EXPECT_TRUE(r.hit);
    expect_values(r, c.u, c.v, c.w, -4.0f, -4.0f);
    for (uint32_t other = 0; other < 4; ++other) {
      if (other == c.t) continue;
      EXPECT_FALSE(triangle_node_test(ray_up(c.x, c.y), node, other).hit) << "other " << other;
    }
  }
}

// A quad V0 (0,0), V1 (1,0), V3 (1,1), V2 (0,1) split along V1-V2 into t0 and
// t1. At (0.5, 0.5) both see the shared edge: t0 has U = 0, t1 has V = 0.
TEST(TriangleTest, RayThroughSharedEdgeHitsBothTriangles) {
  TriangleNode quad;
  quad.vertex = {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{1, 1, 0}, Vec3{9, 9, 9}};
  const TriangleTestResult t0 = triangle_node_test(ray_up(0.5f, 0.5f), quad, 0);
  const TriangleTestResult t1 = triangle_node_test(ray_up(0.5f, 0.5f), quad, 1);
  EXPECT_TRUE(t0.hit);
  EXPECT_TRUE(t1.hit);
  expect_values(t0, 0.0f, -0.5f, -0.5f, -1.0f, -1.0f);
  expect_values(t1, -0.5f, 0.0f, -0.5f, -1.0f, -1.0f);
}

// Watertightness: rays through (rounded) points of the shared edge of two
// triangles in a convex planar quad never slip between them, whatever the
// direction, plane orientation or facing.
TEST(TriangleTest, SharedEdgeIsWatertight) {
  const uint32_t seed = 31337u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(-0.2f, 0.2f);
  std::uniform_real_distribution<float> along(0.05f, 0.95f);
  std::uniform_real_distribution<float> lateral(-1.0f, 1.0f);
  std::uniform_real_distribution<float> normal(0.2f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    const int up = i % 3;  // plane normal axis: exercises kz = 0, 1, 2
    const auto place = [&](float x, float y) {
      Vec3 p{};
      p[(up + 1) % 3] = x;
      p[(up + 2) % 3] = y;
      p[up] = 0;
      return p;
    };
    TriangleNode quad;
    quad.vertex[0] = place(0 + jitter(rng), 0 + jitter(rng));
    quad.vertex[1] = place(1 + jitter(rng), 0 + jitter(rng));
    quad.vertex[2] = place(0 + jitter(rng), 1 + jitter(rng));
    quad.vertex[3] = place(1 + jitter(rng), 1 + jitter(rng));
    const float s = along(rng);
    Vec3 dir{};
    dir[(up + 1) % 3] = lateral(rng);
    dir[(up + 2) % 3] = lateral(rng);
    dir[up] = (rng() & 1 ? 1.0f : -1.0f) * normal(rng);
    Ray ray;
    ray.extent = 100.0f;
    for (int a = 0; a < 3; ++a) {
      const float on_edge = quad.vertex[1][a] + s * (quad.vertex[2][a] - quad.vertex[1][a]);
      ray.origin[a] = on_edge - 3.0f * dir[a];
      ray.dir[a] = dir[a];
      ray.inv_dir[a] = 1.0f / dir[a];
    }
    const bool hit0 = triangle_node_test(ray, quad, 0).hit;
    const bool hit1 = triangle_node_test(ray, quad, 1).hit;
    ASSERT_TRUE(hit0 || hit1) << "case " << i;
  }
}

// --- return modes -----------------------------------------------------------------

TriangleTestResult test_result(bool hit) {
  TriangleTestResult r;
  r.hit = hit;
  r.u = 1.5f;
  r.v = -2.5f;
  r.w = 3.25f;
  r.t_num = 6.0f;
  r.det = 2.0f;
  return r;
}

TEST(TriangleTest, ReturnMode0HitGivesTDetIdPlusTypeAndOne) {
  const TriangleNode node = fan_node(1000);
  for (uint32_t t = 0; t < 4; ++t)
    EXPECT_EQ(triangle_result(node, t, 0, test_result(true)),
              (std::array<uint32_t, 4>{0x40c00000u, 0x40000000u, 1000 + t, 1u}))
        << "t " << t;
}

TEST(TriangleTest, ReturnMode0MissKeepsTriangleId) {
  const TriangleNode node = fan_node(1000);
  for (uint32_t t = 0; t < 4; ++t)
    EXPECT_EQ(triangle_result(node, t, 0, test_result(false)),
              (std::array<uint32_t, 4>{kPlusInfBits, kOneBits, 1000 + t, 0u}))
        << "t " << t;
}

TEST(TriangleTest, ReturnMode0IdPlusTypeWrapsAt2To32) {
  const TriangleNode node = fan_node(0xffffffffu);
  EXPECT_EQ(triangle_result(node, 3, 0, test_result(true))[2], 2u);
  EXPECT_EQ(triangle_result(node, 3, 0, test_result(false))[2], 2u);
  EXPECT_EQ(triangle_result(node, 1, 0, test_result(false))[2], 0u);
}

// id byte t holds I_SRC in bits 1:0 and J_SRC in bits 3:2; every other bit
// of id is set so that a wrong shift or mask shows.
TEST(TriangleTest, ReturnMode1HitRemapsBarycentrics) {
  const uint32_t weights[3] = {0x3fc00000u, 0xc0200000u, 0x40500000u};  // 1.5, -2.5, 3.25
  const auto source = [&](uint32_t s) { return s == 3 ? 0u : weights[s]; };  // 3 reads +0.0
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t i = 0; i < 4; ++i)
      for (uint32_t j = 0; j < 4; ++j) {
        const uint32_t byte = 0xf0u | i | j << 2;
        const TriangleNode node = fan_node(~(0xffu << (8 * t)) | byte << (8 * t));
        EXPECT_EQ(triangle_result(node, t, 1, test_result(true)),
                  (std::array<uint32_t, 4>{0x40c00000u, 0x40000000u, source(i), source(j)}))
            << "t " << t << " i " << i << " j " << j;
      }
}

TEST(TriangleTest, ReturnMode1MissGivesInfOneZeroZero) {
  for (uint32_t id : {0u, 0xffffffffu, 0x12345678u})
    for (uint32_t t = 0; t < 4; ++t)
      EXPECT_EQ(triangle_result(fan_node(id), t, 1, test_result(false)),
                (std::array<uint32_t, 4>{kPlusInfBits, kOneBits, 0u, 0u}))
          << "id " << id << " t " << t;
}

// End to end on the fan: t0 at (0.5, 0.25) with I_SRC = 1 (V), J_SRC = 2 (W).
TEST(TriangleTest, ReturnMode1NodeHitReturnsSelectedWeights) {
  const TriangleNode node = fan_node(0x00000009u);  // byte 0 = 0b1001: I = 1, J = 2
  const TriangleTestResult r = triangle_node_test(ray_up(0.5f, 0.25f), node, 0);
  EXPECT_EQ(triangle_result(node, 0, 1, r),
            (std::array<uint32_t, 4>{bits_of(-4.0f), bits_of(-4.0f), bits_of(-0.5f), bits_of(-2.5f)}));
}

}  // namespace
}  // namespace td::ref

// Shadow, AO and diffuse rays from surface points: directions in the right
// hemisphere, cosine-distributed, origins off the surface, extents.
#include <gtest/gtest.h>

#include <cmath>

#include "tb/scene/random_rays.h"
#include "tb/scene/secondary_rays.h"
#include "tb/scene/vec_math.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

TEST(SecondaryRays, CosineDirectionsStayInTheHemisphereWithMeanCosineTwoThirds) {
  tb::Rng rng(11);
  const Vec3 normal = normalize(Vec3{0.3f, -0.8f, 0.5f});
  double mean_cosine = 0;
  constexpr int kCount = 20000;
  for (int i = 0; i < kCount; ++i) {
    const Vec3 d = random_cosine_direction(rng, normal);
    EXPECT_NEAR(length(d), 1.0f, 1e-5f);
    EXPECT_GE(dot(d, normal), -1e-6f);
    mean_cosine += dot(d, normal) / kCount;
  }
  EXPECT_NEAR(mean_cosine, 2.0 / 3.0, 0.01);  // E[cos] under cos/pi is 2/3
}

TEST(SecondaryRays, SurfacePointInterpolatesAndFacesTheRay) {
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0, 1, 2}});
  SceneRay ray;
  ray.origin = {0.5f, 0.5f, 3};
  ray.dir = {0, 0, -1};
  RayHit hit;
  hit.hit = true;
  hit.t = 3;
  hit.primitive = 0;
  hit.u = 0.25f;  // weight of P1 = (2,0,0)
  hit.v = 0.25f;  // weight of P2 = (0,2,0)
  const SurfacePoint point = surface_point(mesh, ray, hit);
  EXPECT_EQ(point.position, (Vec3{0.5f, 0.5f, 0}));
  EXPECT_EQ(point.normal, (Vec3{0, 0, 1}));
  ray.origin[2] = -3;
  ray.dir[2] = 1;
  EXPECT_EQ(surface_point(mesh, ray, hit).normal, (Vec3{0, 0, -1}));
}

TEST(SecondaryRays, OffsetOriginLeavesTheSurfaceAtEveryScale) {
  for (float scale_m : {1e-3f, 1.0f, 1e4f}) {
    const SurfacePoint point{{scale_m, -scale_m, 0.01f}, {0, 0, 1}};
    const Vec3 origin = offset_origin(point);
    EXPECT_GT(origin[2], point.position[2]);
    EXPECT_LT(origin[2] - point.position[2], 1e-3f);
    EXPECT_EQ(origin[0], point.position[0]);
  }
  // A large triangle's error scale pushes further: 2^-15 of it at least.
  const SurfacePoint far_corner{{1, 1, 1}, {0, 1, 0}, 64.0f};
  EXPECT_GE(offset_origin(far_corner)[1] - 1.0f, 64.0f / 32768.0f);
}

TEST(SecondaryRays, ShadowAoAndDiffuseRaysHaveTheirExtents) {
  const std::vector<SurfacePoint> points = {{{0, 0, 0}, {0, 1, 0}}, {{1, 2, 3}, {1, 0, 0}}};
  const Vec3 light = {0, 10, 0};
  const auto shadow = shadow_rays(points, light);
  ASSERT_EQ(shadow.size(), 2u);
  EXPECT_NEAR(length(shadow[0].dir), 1.0f, 1e-6f);
  EXPECT_LT(shadow[0].tmax, 10.0f);
  EXPECT_GT(shadow[0].tmax, 9.99f);
  const auto ao = ao_rays(points, 8, 0.5f, 1);
  ASSERT_EQ(ao.size(), 16u);
  for (size_t i = 0; i < ao.size(); ++i) {
    EXPECT_EQ(ao[i].tmax, 0.5f);
    EXPECT_GE(dot(ao[i].dir, points[i / 8].normal), 0);
  }
  const auto diffuse = diffuse_rays(points, 1);
  ASSERT_EQ(diffuse.size(), 2u);
  EXPECT_TRUE(std::isinf(diffuse[1].tmax));
  EXPECT_EQ(diffuse_rays(points, 1)[1].dir, diffuse[1].dir);
}

}  // namespace
}  // namespace td::scene

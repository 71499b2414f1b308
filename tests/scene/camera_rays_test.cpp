// Primary and random rays: framing, pixel order, determinism.
#include <gtest/gtest.h>

#include <cmath>

#include "tb/scene/camera_rays.h"
#include "tb/scene/random_rays.h"
#include "tb/scene/vec_math.h"

namespace td::scene {
namespace {

const Aabb kBox{{-3, -1, -2}, {5, 2, 1}};

TEST(CameraRays, FramingSeesEveryCornerOfTheBounds) {
  for (auto [width, height] : {std::pair{1920u, 1080u}, std::pair{300u, 800u}}) {
    const Camera camera = frame_bounds(kBox, width, height);
    const Vec3 forward = normalize(sub(camera.look_at, camera.eye));
    const Vec3 right = normalize(cross(forward, camera.up));
    const Vec3 up = cross(right, forward);
    const float tan_v = std::tan(0.5f * camera.vertical_fov_degrees * 3.14159265f / 180);
    const float tan_h = tan_v * static_cast<float>(width) / static_cast<float>(height);
    float widest = 0;
    for (int k = 0; k < 8; ++k) {
      const Vec3 corner = {k & 1 ? kBox.max[0] : kBox.min[0], k & 2 ? kBox.max[1] : kBox.min[1],
                           k & 4 ? kBox.max[2] : kBox.min[2]};
      const Vec3 c = sub(corner, camera.eye);
      const float depth = dot(c, forward);
      ASSERT_GT(depth, 0);
      const float x = std::fabs(dot(c, right)) / (depth * tan_h), y = std::fabs(dot(c, up)) / (depth * tan_v);
      EXPECT_LE(x, 1.0001f);
      EXPECT_LE(y, 1.0001f);
      widest = std::max({widest, x, y});
    }
    EXPECT_GT(widest, 0.999f);  // tight: some corner touches the frame
  }
}

TEST(CameraRays, PixelsRunRowMajorFromTheTopLeft) {
  const Camera camera = frame_bounds(kBox, 64, 32);
  const PrimaryRays rays(camera, 64, 32);
  EXPECT_EQ(rays.count(), 64u * 32u);
  const SceneRay top_left = rays.ray(0u, 0u), below = rays.ray(0u, 1u), right = rays.ray(1u, 0u);
  const Vec3 up = {0, 1, 0};
  EXPECT_LT(dot(below.dir, up), dot(top_left.dir, up));
  const Vec3 side = cross(sub(camera.look_at, camera.eye), up);
  EXPECT_GT(dot(right.dir, side), dot(top_left.dir, side));
  EXPECT_EQ(rays.ray(uint64_t{64 + 3}).dir, rays.ray(3u, 1u).dir);
  for (uint64_t i = 0; i < rays.count(); ++i) EXPECT_NEAR(length(rays.ray(i).dir), 1.0f, 1e-6f);
  EXPECT_EQ(rays.rays(2040, 100).size(), 8u);  // clipped to the frame
  EXPECT_EQ(top_left.origin, camera.eye);
  EXPECT_TRUE(std::isinf(top_left.tmax));
}

TEST(CameraRays, CentrePixelLooksAtTheTarget) {
  const Camera camera = frame_bounds(kBox, 65, 33);
  const SceneRay centre = PrimaryRays(camera, 65, 33).ray(32u, 16u);
  const Vec3 forward = normalize(sub(camera.look_at, camera.eye));
  EXPECT_NEAR(dot(centre.dir, forward), 1.0f, 1e-6f);
}

TEST(RandomRays, SameSeedSameRaysAndTheyCrossTheBounds) {
  const auto a = random_rays(kBox, 1000, 7);
  const auto b = random_rays(kBox, 1000, 7);
  const auto c = random_rays(kBox, 1000, 8);
  ASSERT_EQ(a.size(), 1000u);
  size_t same_as_other_seed = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].origin, b[i].origin);
    EXPECT_EQ(a[i].dir, b[i].dir);
    same_as_other_seed += a[i].dir == c[i].dir ? 1 : 0;
    EXPECT_NEAR(length(a[i].dir), 1.0f, 1e-6f);
    for (int k = 0; k < 3; ++k) {
      const float half = 0.5f * (kBox.max[k] - kBox.min[k]), mid = 0.5f * (kBox.max[k] + kBox.min[k]);
      EXPECT_LE(std::fabs(a[i].origin[k] - mid), 1.5f * half * 1.0001f);
    }
  }
  EXPECT_EQ(same_as_other_seed, 0u);
}

TEST(RandomRays, UnitVectorsCoverTheSphereEvenly) {
  tb::Rng rng(3);
  Vec3 mean{};
  constexpr int kCount = 20000;
  for (int i = 0; i < kCount; ++i) {
    const Vec3 v = random_unit_vector(rng);
    EXPECT_NEAR(length(v), 1.0f, 1e-6f);
    mean = add(mean, scale(v, 1.0f / kCount));
  }
  EXPECT_LT(length(mean), 0.02f);
}

}  // namespace
}  // namespace td::scene

#include "tb/scene/camera_rays.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tb/scene/vec_math.h"

namespace td::scene {

namespace {
constexpr float kDegrees = 3.14159265358979f / 180.0f;
}

Camera frame_bounds(const Aabb& bounds, uint32_t width, uint32_t height, float vertical_fov_degrees) {
  Vec3 centre;
  for (int a = 0; a < 3; ++a) centre[a] = 0.5f * (bounds.min[a] + bounds.max[a]);
  const Vec3 back = normalize(Vec3{0.45f, 0.35f, 1.0f});  // from the centre towards the eye
  const Vec3 right = normalize(cross(scale(back, -1.0f), Vec3{0, 1, 0}));
  const Vec3 up = cross(right, scale(back, -1.0f));
  const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1u));
  const float tan_vertical = std::tan(0.5f * vertical_fov_degrees * kDegrees);
  const float tan_horizontal = tan_vertical * aspect;
  // The nearest eye distance at which every corner of the box is inside
  // the frustum: corner depth D - c.back must reach |c.right| / tan and
  // |c.up| / tan.
  float distance = 1e-6f;
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner = {k & 1 ? bounds.max[0] : bounds.min[0], k & 2 ? bounds.max[1] : bounds.min[1],
                         k & 4 ? bounds.max[2] : bounds.min[2]};
    const Vec3 c = sub(corner, centre);
    const float depth = dot(c, back);
    distance = std::max(distance, depth + std::fabs(dot(c, right)) / tan_horizontal);
    distance = std::max(distance, depth + std::fabs(dot(c, up)) / tan_vertical);
  }
  Camera camera;
  camera.eye = add(centre, scale(back, distance));
  camera.look_at = centre;
  camera.up = {0, 1, 0};
  camera.vertical_fov_degrees = vertical_fov_degrees;
  return camera;
}

PrimaryRays::PrimaryRays(const Camera& camera, uint32_t width, uint32_t height)
    : width_(width), height_(height), eye_(camera.eye) {
  if (width == 0 || height == 0) throw std::invalid_argument("camera: width and height must be at least 1");
  forward_ = normalize(sub(camera.look_at, camera.eye));
  const Vec3 right = normalize(cross(forward_, camera.up));
  const Vec3 up = cross(right, forward_);
  // Image plane at distance 1: its height is 2 tan(fov/2).
  const float pixel = 2.0f * std::tan(0.5f * camera.vertical_fov_degrees * kDegrees) / static_cast<float>(height);
  right_ = scale(right, pixel);
  down_ = scale(up, -pixel);
}

SceneRay PrimaryRays::ray(uint32_t x, uint32_t y) const {
  const float px = static_cast<float>(x) + 0.5f - 0.5f * static_cast<float>(width_);
  const float py = static_cast<float>(y) + 0.5f - 0.5f * static_cast<float>(height_);
  SceneRay ray;
  ray.origin = eye_;
  ray.dir = normalize(add(forward_, add(scale(right_, px), scale(down_, py))));
  return ray;
}

std::vector<SceneRay> PrimaryRays::rays(uint64_t first, uint64_t n) const {
  std::vector<SceneRay> out;
  const uint64_t end = std::min(count(), first + n);
  if (first >= end) return out;
  out.reserve(end - first);
  for (uint64_t i = first; i < end; ++i) out.push_back(ray(i));
  return out;
}

}  // namespace td::scene

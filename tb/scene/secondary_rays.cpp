#include "tb/scene/secondary_rays.h"

#include <cmath>

#include "model/isa/fp32.h"
#include "tb/common/rng.h"
#include "tb/scene/random_rays.h"
#include "tb/scene/vec_math.h"

namespace td::scene {

namespace {

// The hit's point and normal on the triangle with these world-space corners.
SurfacePoint surface_point_of(const Vec3& p0, const Vec3& p1, const Vec3& p2, const SceneRay& ray,
                              const RayHit& hit) {
  SurfacePoint point;
  if (std::isnan(hit.u) || std::isnan(hit.v)) {
    point.position = add(ray.origin, scale(ray.dir, hit.t));
  } else {
    const float w = 1.0f - hit.u - hit.v;
    point.position = add(add(scale(p0, w), scale(p1, hit.u)), scale(p2, hit.v));
  }
  Vec3 normal = normalize(cross(sub(p1, p0), sub(p2, p0)));
  if (dot(normal, ray.dir) > 0) normal = scale(normal, -1.0f);
  point.normal = normal;
  for (const Vec3* corner : {&p0, &p1, &p2})
    for (int a = 0; a < 3; ++a) point.error_scale = std::fmax(point.error_scale, std::fabs((*corner)[a]));
  return point;
}

}  // namespace

SurfacePoint surface_point(const Mesh& mesh, const SceneRay& ray, const RayHit& hit) {
  return surface_point_of(mesh.vertex(hit.primitive, 0), mesh.vertex(hit.primitive, 1), mesh.vertex(hit.primitive, 2),
                          ray, hit);
}

SurfacePoint surface_point(const Scene& scene, const SceneRay& ray, const RayHit& hit) {
  const Instance& instance = scene.instances[hit.instance];
  const Mesh& mesh = scene.blases[instance.blas];
  if (instance.object_to_world.is_identity()) return surface_point(mesh, ray, hit);
  const Transform3x4& t = instance.object_to_world;
  return surface_point_of(apply_point(t, mesh.vertex(hit.primitive, 0)), apply_point(t, mesh.vertex(hit.primitive, 1)),
                          apply_point(t, mesh.vertex(hit.primitive, 2)), ray, hit);
}

Vec3 offset_origin(const SurfacePoint& point) {
  constexpr float kOrigin = 1.0f / 32.0f;       // below this, offset by a fixed distance
  constexpr float kFloatScale = 1.0f / 65536.0f;
  constexpr float kIntScale = 256.0f;           // ULPs moved per unit of normal
  constexpr float kRelativeOffset = 1.0f / 32768.0f;  // of error_scale
  const Vec3 pushed = add(point.position, scale(point.normal, point.error_scale * kRelativeOffset));
  Vec3 out;
  for (int a = 0; a < 3; ++a) {
    const float p = pushed[a];
    const float n = point.normal[a];
    const auto step = static_cast<int32_t>(kIntScale * n);
    const int32_t signed_step = p < 0 ? -step : step;
    const float moved = float_of(static_cast<uint32_t>(static_cast<int32_t>(bits_of(p)) + signed_step));
    out[a] = std::fabs(p) < kOrigin ? p + kFloatScale * n : moved;
  }
  return out;
}

SceneRay shadow_ray(const SurfacePoint& point, const Vec3& light) {
  SceneRay ray;
  ray.origin = offset_origin(point);
  const Vec3 to_light = sub(light, ray.origin);
  const float distance = length(to_light);
  ray.dir = scale(to_light, 1.0f / distance);
  ray.tmax = distance * (1.0f - 1e-4f);  // the light itself is not an occluder
  return ray;
}

std::vector<SceneRay> shadow_rays(const std::vector<SurfacePoint>& points, const Vec3& light) {
  std::vector<SceneRay> rays;
  rays.reserve(points.size());
  for (const auto& point : points) rays.push_back(shadow_ray(point, light));
  return rays;
}

std::vector<SceneRay> ao_rays(const std::vector<SurfacePoint>& points, uint32_t per_point, float radius,
                              uint64_t seed) {
  tb::Rng rng(seed);
  std::vector<SceneRay> rays;
  rays.reserve(points.size() * per_point);
  for (const auto& point : points) {
    const Vec3 origin = offset_origin(point);
    for (uint32_t k = 0; k < per_point; ++k) {
      SceneRay ray;
      ray.origin = origin;
      ray.dir = random_cosine_direction(rng, point.normal);
      ray.tmax = radius;
      rays.push_back(ray);
    }
  }
  return rays;
}

std::vector<SceneRay> diffuse_rays(const std::vector<SurfacePoint>& points, uint64_t seed) {
  tb::Rng rng(seed);
  std::vector<SceneRay> rays;
  rays.reserve(points.size());
  for (const auto& point : points) {
    SceneRay ray;
    ray.origin = offset_origin(point);
    ray.dir = random_cosine_direction(rng, point.normal);
    rays.push_back(ray);
  }
  return rays;
}

}  // namespace td::scene

// secondary_rays.h — shadow, ambient-occlusion and diffuse-bounce rays from
// the hits of earlier rays.
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/node.h"
#include "tb/scene/mesh.h"
#include "tb/scene/scene.h"
#include "tb/scene/scene_ray.h"

namespace td::scene {

// A point on a surface and the unit normal of the side the ray came from.
struct SurfacePoint {
  Vec3 position{};
  Vec3 normal{};
  // The largest |coordinate| of the triangle's corners: the single-
  // precision triangle test's t error grows with it (a 40-unit sliver is
  // off by ~1e-4 near its middle), so the origin is pushed off in proportion.
  float error_scale = 0;
};

// The hit point of `ray` (which must have hit) on `mesh`: interpolated from
// the barycentrics when the hit has them (return mode 1), else origin +
// t dir; the triangle's geometric normal, turned to face the ray.
SurfacePoint surface_point(const Mesh& mesh, const SceneRay& ray, const RayHit& hit);
// The same on the hit instance's mesh, its corners placed in the world by
// the instance's object-to-world transform (apply_point).
SurfacePoint surface_point(const Scene& scene, const SceneRay& ray, const RayHit& hit);

// The point pushed off the surface along the normal, first by 2^-15 of its
// error_scale, then by a few ULPs of its own coordinates (Wächter and
// Binder, Ray Tracing Gems ch. 6), so a ray leaving it does not hit the
// surface it starts on, at any scale.
Vec3 offset_origin(const SurfacePoint& point);

// Towards a point light; tmax stops just short of the light (an any-hit
// query: occluded or not).
SceneRay shadow_ray(const SurfacePoint& point, const Vec3& light);
std::vector<SceneRay> shadow_rays(const std::vector<SurfacePoint>& points, const Vec3& light);

// `per_point` cosine-distributed rays per point, each with tmax = radius
// (an any-hit query), seeded.
std::vector<SceneRay> ao_rays(const std::vector<SurfacePoint>& points, uint32_t per_point, float radius,
                              uint64_t seed);

// One cosine-distributed bounce per point, tmax +Inf (a closest-hit query).
std::vector<SceneRay> diffuse_rays(const std::vector<SurfacePoint>& points, uint64_t seed);

}  // namespace td::scene

#include "tb/scene/random_rays.h"

#include <cmath>

#include "tb/scene/vec_math.h"

namespace td::scene {

Vec3 random_unit_vector(tb::Rng& rng) {
  for (;;) {
    const Vec3 p = rng.vec(-1.0f, 1.0f);
    const float length_squared = dot(p, p);
    if (length_squared > 1e-6f && length_squared <= 1.0f) return scale(p, 1.0f / std::sqrt(length_squared));
  }
}

Vec3 random_cosine_direction(tb::Rng& rng, const Vec3& normal) {
  const float r = std::sqrt(rng.uniform(0.0f, 1.0f));
  const float phi = rng.uniform(0.0f, 6.28318530718f);
  const float x = r * std::cos(phi), y = r * std::sin(phi);
  const float z = std::sqrt(std::fmax(0.0f, 1.0f - x * x - y * y));
  Vec3 t, b;
  orthonormal_basis(normal, t, b);
  return add(add(scale(t, x), scale(b, y)), scale(normal, z));
}

std::vector<SceneRay> random_rays(const Aabb& bounds, size_t count, uint64_t seed) {
  tb::Rng rng(seed);
  std::vector<SceneRay> rays;
  rays.reserve(count);
  Vec3 centre, half;
  for (int a = 0; a < 3; ++a) {
    centre[a] = 0.5f * (bounds.min[a] + bounds.max[a]);
    half[a] = 0.5f * (bounds.max[a] - bounds.min[a]);
  }
  while (rays.size() < count) {
    SceneRay ray;
    Vec3 target;
    for (int a = 0; a < 3; ++a) ray.origin[a] = centre[a] + 1.5f * half[a] * rng.uniform(-1.0f, 1.0f);
    for (int a = 0; a < 3; ++a) target[a] = centre[a] + half[a] * rng.uniform(-1.0f, 1.0f);
    const Vec3 dir = sub(target, ray.origin);
    if (dot(dir, dir) == 0) continue;  // origin drawn on its target: draw again
    ray.dir = normalize(dir);
    rays.push_back(ray);
  }
  return rays;
}

}  // namespace td::scene

// random_rays.h — seeded random rays and the random draws that secondary
// rays share. tb::Rng (splitmix64) underneath: same seed, same rays on
// every platform that rounds binary32 the IEEE way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/isa/node.h"
#include "tb/common/rng.h"
#include "tb/scene/scene_ray.h"

namespace td::scene {

// A direction uniform on the unit sphere (rejection from the cube).
Vec3 random_unit_vector(tb::Rng& rng);

// A direction about the unit `normal` with density cos(angle)/pi (Malley:
// uniform on the disk, lifted to the hemisphere): diffuse and AO rays.
Vec3 random_cosine_direction(tb::Rng& rng, const Vec3& normal);

// `count` rays through the scene: each starts uniformly in `bounds` grown by
// half its size about its centre (some inside the geometry, some outside)
// and aims at a uniform point of `bounds`; tmax is +Inf.
std::vector<SceneRay> random_rays(const Aabb& bounds, size_t count, uint64_t seed);

}  // namespace td::scene

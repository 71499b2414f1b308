// scene_ray.h — a ray as a workload states it (origin, direction, extent),
// a hit as a traversal reports it, and the instruction's binary32 view.
#pragma once

#include <cstdint>
#include <limits>

#include "model/isa/lane.h"
#include "model/isa/node.h"

namespace td::scene {

struct SceneRay {
  Vec3 origin{};
  Vec3 dir{};  // need not be unit length: t is in units of |dir|
  float tmax = std::numeric_limits<float>::infinity();
};

// The instruction's operands: extent = tmax, inv_dir = 1/dir per component
// (1/±0 = ±Inf, which the contract keeps active).
inline Ray lane_ray(const SceneRay& ray) {
  Ray out;
  out.extent = ray.tmax;
  out.origin = ray.origin;
  out.dir = ray.dir;
  for (int a = 0; a < 3; ++a) out.inv_dir[a] = 1.0f / ray.dir[a];
  return out;
}

// What a traversal found. For a hit, primitive is the mesh's triangle index
// and (u, v) the barycentric weights of its corners P1 and P2 in the mesh's
// own vertex order (the point is (1-u-v) P0 + u P1 + v P2), as Embree
// reports them; they are NaN in return mode 0, which returns no weights.
struct RayHit {
  bool hit = false;
  float t = std::numeric_limits<float>::infinity();
  uint32_t instance = 0;  // the scene's instance index (0 for a one-level BVH); the primitive is its mesh's
  uint32_t primitive = 0xffffffffu;
  float u = 0, v = 0;
  // det > 0: the ray travels against the normal (P1-P0) x (P2-P0) of the
  // mesh triangle (the packer keeps windings, so det's sign is the mesh's).
  bool front_face = false;
};

}  // namespace td::scene

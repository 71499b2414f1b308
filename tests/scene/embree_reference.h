// embree_reference.h — Embree's own closest-hit and occlusion queries
// (rtcIntersect1 / rtcOccluded1, robust mode) on a mesh: the independent
// answer the functional traversal is checked against.
#pragma once

#include <embree3/rtcore.h>

#include "tb/scene/mesh.h"
#include "tb/scene/scene_ray.h"

namespace td::scene::test {

class EmbreeReference {
 public:
  explicit EmbreeReference(const Mesh& mesh);
  ~EmbreeReference();
  EmbreeReference(const EmbreeReference&) = delete;
  EmbreeReference& operator=(const EmbreeReference&) = delete;

  // t, primitive and (u, v) in the mesh's vertex order; front_face unset.
  RayHit intersect(const SceneRay& ray) const;
  bool occluded(const SceneRay& ray) const;

 private:
  RTCDevice device_;
  RTCScene scene_;
};

}  // namespace td::scene::test

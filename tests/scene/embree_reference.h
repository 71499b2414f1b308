// embree_reference.h — Embree's own closest-hit and occlusion queries
// (rtcIntersect1 / rtcOccluded1, robust mode) on a mesh: the independent
// answer the functional traversal is checked against.
#pragma once

#include <embree3/rtcore.h>

#include <vector>

#include "tb/scene/mesh.h"
#include "tb/scene/scene.h"
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

// The same queries on a two-level scene with Embree 3 instancing: one
// robust scene per BLAS, each instance an RTC_GEOMETRY_TYPE_INSTANCE of it
// (geometry ID = instance index, object-to-world as its transform) in a
// robust top scene. Instances whose mask AND `instance_mask` is zero are
// left out (masks without Embree's optional ray-mask feature).
class EmbreeSceneReference {
 public:
  explicit EmbreeSceneReference(const Scene& scene, uint8_t instance_mask = 0xff);
  ~EmbreeSceneReference();
  EmbreeSceneReference(const EmbreeSceneReference&) = delete;
  EmbreeSceneReference& operator=(const EmbreeSceneReference&) = delete;

  // t, instance, primitive and (u, v); front_face unset.
  RayHit intersect(const SceneRay& ray) const;
  bool occluded(const SceneRay& ray) const;

 private:
  RTCDevice device_;
  std::vector<RTCScene> blases_;
  RTCScene top_;
};

}  // namespace td::scene::test

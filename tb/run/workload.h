// workload.h — what `tdsim run` traces, assembled from its options: the
// scene (a mesh file or the built-in default), its BVH in the hardware
// formats, and a ray stream — primary rays of a camera, rays from a CSV
// file, or secondary rays (shadow, ambient occlusion, diffuse bounce) made
// from the hits of a primary pass traced first on the golden reference.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tb/run/ray_source.h"
#include "tb/scene/bvh_options.h"
#include "tb/scene/camera_rays.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/mesh.h"
#include "tb/scene/scene.h"
#include "tb/traversal/ray_traversal.h"

namespace td::run {

enum class RayKind { kPrimary, kShadow, kAmbientOcclusion, kDiffuse, kFile };

const char* ray_kind_name(RayKind kind);
// The words --rays takes, in order: "primary", "shadow", "ao", "diffuse".
const std::vector<std::string>& ray_kind_words();
// One of ray_kind_words(); nullopt otherwise.
std::optional<RayKind> parse_ray_kind(const std::string& word);

// The built-in scenes `--scene` names besides a file: `level` (the
// default: a game-like level of instances over a TLAS, default_level.h) and
// `basic` (one level, 114 k triangles: default_scene.h).
inline constexpr const char* kLevelSceneName = "level";
inline constexpr const char* kBasicSceneName = "basic";

struct WorkloadSpec {
  std::string scene = kLevelSceneName;  // a built-in scene's name or a mesh file
  // Trace a file as one BVH over its triangles with every node's transform
  // applied (no TLAS, no instances); the `level` scene too. The `basic`
  // scene is one level always.
  bool flatten = false;
  RayKind rays = RayKind::kPrimary;
  std::string rays_file;           // RayKind::kFile
  uint32_t width = 0, height = 0;  // the camera frame (primary rays and the hits secondary rays start from): the caller's
  uint32_t ao_rays_per_hit = 4;
  uint64_t seed = 1;
  scene::BvhOptions bvh;
  unsigned threads = 1;  // host threads: the run-time builders', and the primary pass of secondary-ray workloads
};

struct Workload {
  // The geometry: for one level, its one mesh as BLAS 0 placed once by the
  // identity (what hits name: instance 0).
  scene::Scene scene;
  scene::EncodedBvh bvh;
  scene::Camera camera;
  std::unique_ptr<RaySource> rays;
  traversal::HitMode mode = traversal::HitMode::kClosest;
  // The rays are the camera's width x height primary rays (a picture can be drawn).
  bool primary_frame = false;
  std::string description;  // one line for the report
};

// Whether the spec traces two levels (the engines that trace only one
// level can refuse it before anything is loaded).
bool is_two_level(const WorkloadSpec& spec);

// Throws scene::SceneError (a bad mesh or ray file: exit 2) or
// std::invalid_argument (bad options).
Workload make_workload(const WorkloadSpec& spec, const traversal::TraversalOptions& traversal_options);

}  // namespace td::run

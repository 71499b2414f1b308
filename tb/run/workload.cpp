#include "tb/run/workload.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "model/sim/interrupt.h"
#include "tb/run/hit_sink.h"
#include "tb/run/trace_engine.h"
#include "tb/scene/bvh.h"
#include "tb/scene/default_level.h"
#include "tb/scene/default_scene.h"
#include "tb/scene/mesh_import.h"
#include "tb/scene/scene_bvh.h"
#include "tb/scene/secondary_rays.h"

namespace td::run {

const char* ray_kind_name(RayKind kind) {
  switch (kind) {
    case RayKind::kPrimary: return "primary";
    case RayKind::kShadow: return "shadow";
    case RayKind::kAmbientOcclusion: return "ao";
    case RayKind::kDiffuse: return "diffuse";
    case RayKind::kFile: return "file";
  }
  return "?";
}

namespace {

constexpr RayKind kGeneratedKinds[] = {RayKind::kPrimary, RayKind::kShadow, RayKind::kAmbientOcclusion,
                                       RayKind::kDiffuse};

}  // namespace

const std::vector<std::string>& ray_kind_words() {
  static const std::vector<std::string> words = [] {
    std::vector<std::string> out;
    for (RayKind kind : kGeneratedKinds) out.emplace_back(ray_kind_name(kind));
    return out;
  }();
  return words;
}

std::optional<RayKind> parse_ray_kind(const std::string& word) {
  for (RayKind kind : kGeneratedKinds)
    if (word == ray_kind_name(kind)) return kind;
  return std::nullopt;
}

namespace {

double diagonal(const Aabb& box) {
  double sum = 0;
  for (int a = 0; a < 3; ++a) sum += (double{box.max[a]} - box.min[a]) * (double{box.max[a]} - box.min[a]);
  return std::sqrt(sum);
}

// A point light above the scene, towards the camera's side: shadows fall
// behind objects as seen, so the shadow rays' cost is visible.
Vec3 light_position(const Aabb& bounds, const scene::Camera& camera) {
  const double size = diagonal(bounds);
  Vec3 light{};
  for (int a = 0; a < 3; ++a)
    light[a] = static_cast<float>(0.5 * (double{bounds.min[a]} + bounds.max[a]) +
                                  0.3 * (double{camera.eye[a]} - 0.5 * (double{bounds.min[a]} + bounds.max[a])));
  light[1] = static_cast<float>(bounds.max[1] + 0.75 * size);
  return light;
}

// The surface points of the primary hits, traced on the golden reference.
std::vector<scene::SurfacePoint> primary_hit_points(const Workload& workload, const WorkloadSpec& spec,
                                                    const traversal::TraversalOptions& options) {
  std::vector<scene::SurfacePoint> points;
  PrimaryRaySource primary(scene::PrimaryRays(workload.camera, spec.width, spec.height));
  HitSink sink;
  sink.on_ray([&](const TracedRay& traced) {
    if (traced.hit.hit) points.push_back(scene::surface_point(workload.scene, traced.ray, traced.hit));
  });
  traversal::TraversalOptions closest = options;
  closest.mode = traversal::HitMode::kClosest;
  FunctionalEngine(spec.threads).trace(workload.bvh, primary, closest, sink);
  return points;
}

}  // namespace

bool is_two_level(const WorkloadSpec& spec) { return spec.scene != kBasicSceneName && !spec.flatten; }

namespace {

scene::Scene one_level(scene::Mesh mesh) {
  scene::Scene scene;
  scene.name = mesh.name;
  scene.blases.push_back(std::move(mesh));
  scene.instances.push_back(scene::Instance{});
  scene.instances.back().node = "the mesh";
  return scene;
}

// Every instance's triangles placed in the world, as one mesh.
scene::Mesh flattened(const scene::Scene& scene) {
  scene::Mesh mesh;
  mesh.name = scene.name;
  for (const scene::Instance& instance : scene.instances) {
    const scene::Mesh& blas = scene.blases[instance.blas];
    const auto first = static_cast<uint32_t>(mesh.positions.size());
    for (const Vec3& p : blas.positions) mesh.positions.push_back(scene::apply_point(instance.object_to_world, p));
    for (const scene::TriangleIndices& t : blas.triangles)
      mesh.triangles.push_back({first + t[0], first + t[1], first + t[2]});
  }
  return mesh;
}

// The world bounds of the usable triangles of every instance.
Aabb scene_bounds(const scene::Scene& scene) {
  Aabb bounds = scene::empty_box();
  std::vector<Aabb> blas_bounds;
  for (const scene::Mesh& mesh : scene.blases) blas_bounds.push_back(scene::usable_bounds(mesh));
  for (const scene::Instance& instance : scene.instances) {
    const Aabb& box = blas_bounds[instance.blas];
    if (box.min[0] > box.max[0]) continue;
    bounds = scene::merge(bounds, instance.object_to_world.is_identity()
                                      ? box
                                      : scene::world_box(box, instance.object_to_world));
  }
  return bounds;
}

}  // namespace

Workload make_workload(const WorkloadSpec& spec, const traversal::TraversalOptions& traversal_options) {
  if (spec.rays != RayKind::kFile && (spec.width == 0 || spec.height == 0))
    throw std::invalid_argument("workload: the camera frame needs a width and a height");
  Workload workload;
  const bool is_basic = spec.scene == kBasicSceneName;
  const bool is_level = spec.scene == kLevelSceneName;
  if (is_basic) {
    workload.scene = one_level(scene::make_default_scene());
  } else if (is_level) {
    workload.scene = spec.flatten ? one_level(flattened(scene::make_default_level())) : scene::make_default_level();
  } else {
    workload.scene = spec.flatten ? one_level(scene::load_mesh(spec.scene)) : scene::load_scene(spec.scene);
  }
  sim::throw_if_interrupted();
  workload.bvh = is_two_level(spec) ? scene::build_scene_bvh(workload.scene, spec.bvh, spec.threads)
                                    : scene::build_bvh(workload.scene.blases[0], spec.bvh, spec.threads);
  const Aabb bounds = scene_bounds(workload.scene);
  workload.camera = is_basic ? scene::default_scene_camera()
                    : is_level ? scene::default_level_camera()
                               : scene::frame_bounds(bounds, spec.width, spec.height);
  sim::throw_if_interrupted();
  const std::string frame = fmt::format("{}x{}", spec.width, spec.height);
  switch (spec.rays) {
    case RayKind::kPrimary:
      workload.rays = std::make_unique<PrimaryRaySource>(scene::PrimaryRays(workload.camera, spec.width, spec.height));
      workload.primary_frame = true;
      workload.description = fmt::format("primary rays, {} camera frame, closest hit", frame);
      break;
    case RayKind::kFile:
      workload.rays = std::make_unique<CsvRaySource>(spec.rays_file);
      workload.description = fmt::format("rays from {}, closest hit", spec.rays_file);
      break;
    case RayKind::kShadow:
    case RayKind::kAmbientOcclusion:
    case RayKind::kDiffuse: {
      const std::vector<scene::SurfacePoint> points = primary_hit_points(workload, spec, traversal_options);
      std::vector<scene::SceneRay> rays;
      if (spec.rays == RayKind::kShadow) {
        rays = scene::shadow_rays(points, light_position(bounds, workload.camera));
        workload.mode = traversal::HitMode::kAny;
        workload.description = fmt::format("shadow rays to a point light from the {} primary hits of a {} frame, any hit",
                                           points.size(), frame);
      } else if (spec.rays == RayKind::kAmbientOcclusion) {
        const float radius = static_cast<float>(0.05 * diagonal(bounds));
        rays = scene::ao_rays(points, spec.ao_rays_per_hit, radius, spec.seed);
        workload.mode = traversal::HitMode::kAny;
        workload.description =
            fmt::format("ambient-occlusion rays, {} per primary hit of a {} frame ({} hits), radius {:.4g}, any hit",
                        spec.ao_rays_per_hit, frame, points.size(), radius);
      } else {
        rays = scene::diffuse_rays(points, spec.seed);
        workload.description = fmt::format("diffuse-bounce rays from the {} primary hits of a {} frame, closest hit",
                                           points.size(), frame);
      }
      workload.rays = std::make_unique<HeldRaySource>(std::move(rays));
      break;
    }
  }
  return workload;
}

}  // namespace td::run

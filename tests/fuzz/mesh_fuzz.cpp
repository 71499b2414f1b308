// Fuzz target for mesh and scene files through everything a scene run does
// with them, both ways a run reads a file: as a two-level scene (the node
// graph as instances: import, every BLAS and the TLAS built and encoded,
// walks across instance nodes) and flattened (one mesh, one BVH). The
// import is Assimp's, in a child process; the walks are on the golden
// reference. The first byte's low three bits pick the format (OBJ, OFF, PLY,
// STL, glTF), the rest is the file. Any input must give a traceable BVH or
// one SceneError whose one line names the file — never a crash, a hang or
// another exception — and a BVH must hold only the file's own triangles: no
// fault on any walk, every hit a usable triangle of the instance it names.
// Mutation mode prints how the inputs ended.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tb/scene/bvh.h"
#include "tb/scene/mesh_import.h"
#include "tb/scene/random_rays.h"
#include "tb/scene/scene_bvh.h"
#include "tb/scene/scene_error.h"
#include "tb/traversal/functional_trace.h"

namespace {

using namespace td;

const char* const kExtensions[] = {"obj", "off", "ply", "stl", "gltf"};

// Tallies of how inputs ended, printed when the process ends.
struct Tally {
  long traced = 0, refused = 0, importer_stopped = 0;
  ~Tally() {
    std::printf("mesh_fuzz: %ld imports traced, %ld refused (%ld of them the importer stopping)\n", traced,
                refused + importer_stopped, importer_stopped);
  }
} tally;

// A stuck import is given up after this long (the default allows a minute;
// a fuzz input is a few hundred bytes, read in milliseconds).
constexpr double kImportSeconds = 2;

void check_one_line_naming(const std::string& message, const std::string& path) {
  if (message.rfind(path + ": ", 0) != 0 || message.find('\n') != std::string::npos) {
    std::fprintf(stderr, "bad error line: %s\n", message.c_str());
    std::abort();
  }
}

void trace_and_check(const scene::Mesh& mesh) {
  for (const scene::TriangleIndices& triangle : mesh.triangles)
    for (uint32_t corner : triangle)
      if (corner >= mesh.positions.size()) std::abort();
  const scene::EncodedBvh bvh = scene::build_bvh(mesh, scene::BvhOptions{});
  const std::vector<scene::SceneRay> rays = scene::random_rays(scene::usable_bounds(mesh), 64, 7);
  for (const traversal::HitMode mode : {traversal::HitMode::kClosest, traversal::HitMode::kAny}) {
    std::vector<scene::RayHit> hits;
    traversal::TraceTotals totals;
    traversal::trace_rays(bvh, rays, traversal::TraversalOptions{mode, traversal::Overflow::kRestart, 4}, hits, &totals);
    if (totals.faults != 0) std::abort();
    for (const scene::RayHit& hit : hits)
      if (hit.hit && (hit.primitive >= mesh.triangle_count() || scene::is_degenerate(mesh, hit.primitive)))
        std::abort();
  }
}

void trace_and_check(const scene::Scene& scene) {
  const scene::EncodedBvh bvh = scene::build_scene_bvh(scene, scene::BvhOptions{});
  Aabb bounds = scene::empty_box();
  for (const scene::Instance& instance : scene.instances) {
    const Aabb box = scene::usable_bounds(scene.blases.at(instance.blas));
    if (box.min[0] <= box.max[0]) bounds = scene::merge(bounds, scene::world_box(box, instance.object_to_world));
  }
  const std::vector<scene::SceneRay> rays = scene::random_rays(bounds, 64, 7);
  for (const traversal::HitMode mode : {traversal::HitMode::kClosest, traversal::HitMode::kAny}) {
    std::vector<scene::RayHit> hits;
    traversal::TraceTotals totals;
    traversal::trace_rays(bvh, rays, traversal::TraversalOptions{mode, traversal::Overflow::kRestart, 4}, hits, &totals);
    if (totals.faults != 0) std::abort();
    for (const scene::RayHit& hit : hits) {
      if (!hit.hit) continue;
      if (hit.instance >= scene.instances.size()) std::abort();
      const scene::Mesh& mesh = scene.blases[scene.instances[hit.instance].blas];
      if (hit.primitive >= mesh.triangle_count() || scene::is_degenerate(mesh, hit.primitive)) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string path =
      "/tmp/tdsim-mesh-fuzz." + std::to_string(getpid()) + "." + kExtensions[(data[0] & 7u) % 5];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  tb::ForkLimits limits = scene::default_import_limits(path);
  limits.seconds = kImportSeconds;
  for (const bool flatten : {false, true}) {
    try {
      if (flatten)
        trace_and_check(scene::load_mesh(path, limits));
      else
        trace_and_check(scene::load_scene(path, limits));
      ++tally.traced;
    } catch (const scene::SceneError& e) {
      check_one_line_naming(e.what(), path);
      const bool stopped = std::string(e.what()).find("the importer (Assimp) stopped") != std::string::npos;
      ++(stopped ? tally.importer_stopped : tally.refused);
    }
  }
  std::remove(path.c_str());
  return 0;
}

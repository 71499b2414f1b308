// The built-in two-level scene: big enough, valid instances, the same every
// time, and a camera standing on the ground inside some instance's bounds.
#include "tb/scene/default_level.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace td::scene {
namespace {

const Scene& level() {
  static const Scene scene = make_default_level();
  return scene;
}

double determinant(const Transform3x4& t) {
  const auto& m = t.m;
  return static_cast<double>(m[0]) * (static_cast<double>(m[5]) * m[10] - static_cast<double>(m[6]) * m[9]) -
         static_cast<double>(m[1]) * (static_cast<double>(m[4]) * m[10] - static_cast<double>(m[6]) * m[8]) +
         static_cast<double>(m[2]) * (static_cast<double>(m[4]) * m[9] - static_cast<double>(m[5]) * m[8]);
}

// Each BLAS's own bounds, computed once.
const std::vector<Aabb>& blas_bounds() {
  static const std::vector<Aabb> bounds = [] {
    std::vector<Aabb> out;
    for (const Mesh& mesh : level().blases) out.push_back(usable_bounds(mesh));
    return out;
  }();
  return bounds;
}

// World bounds of an instance of level(): its BLAS's bounds' eight corners
// transformed.
Aabb world_bounds(const Instance& instance) {
  const Aabb& local = blas_bounds()[instance.blas];
  Aabb out = empty_box();
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p = apply_point(instance.object_to_world,
                               {corner & 1 ? local.max[0] : local.min[0], corner & 2 ? local.max[1] : local.min[1],
                                corner & 4 ? local.max[2] : local.min[2]});
    out = merge(out, Aabb{p, p});
  }
  return out;
}

bool contains(const Aabb& box, const Vec3& p) {
  for (int a = 0; a < 3; ++a)
    if (!(p[a] >= box.min[a] && p[a] <= box.max[a])) return false;
  return true;
}

bool overlap(const Aabb& a, const Aabb& b) {
  for (int k = 0; k < 3; ++k)
    if (a.max[k] < b.min[k] || b.max[k] < a.min[k]) return false;
  return true;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(DefaultLevel, MeetsTheSizeMinimums) {
  const Scene& scene = level();
  fmt::print("default level: {} BLASes, {} instances, {} unique triangles, {} instanced triangles\n",
             scene.blases.size(), scene.instances.size(), scene.unique_triangles(), scene.instanced_triangles());
  EXPECT_GE(scene.blases.size(), 21u);  // the terrain and at least 20 props
  EXPECT_GE(scene.instances.size(), 2000u);
  EXPECT_GE(scene.unique_triangles(), 100000u);
  EXPECT_GE(scene.instanced_triangles(), 10000000u);
}

TEST(DefaultLevel, EveryInstanceIsValid) {
  const Scene& scene = level();
  size_t mirrored = 0;
  for (size_t i = 0; i < scene.instances.size(); ++i) {
    const Instance& instance = scene.instances[i];
    SCOPED_TRACE(fmt::format("instance {} ({})", i, instance.node));
    ASSERT_LT(instance.blas, scene.blases.size());
    for (const float v : instance.object_to_world.m) EXPECT_TRUE(std::isfinite(v));
    const double det = determinant(instance.object_to_world);
    EXPECT_GT(std::fabs(det), 1e-6);
    if (det < 0) ++mirrored;
    EXPECT_EQ(instance.id, 0u);
    // Grass alone has mask 0x02; everything else is visible to every ray.
    EXPECT_EQ(instance.mask, starts_with(instance.node, "grass") ? 0x02 : 0xff);
    EXPECT_TRUE(starts_with(instance.node, scene.blases[instance.blas].name + "#"));
  }
  EXPECT_GT(mirrored, 0u);
}

TEST(DefaultLevel, EveryBlasIsNonEmptyAndMostlyUsable) {
  const Scene& scene = level();
  for (const Mesh& mesh : scene.blases) {
    SCOPED_TRACE(mesh.name);
    EXPECT_FALSE(mesh.name.empty());
    ASSERT_GT(mesh.triangle_count(), 0u);
    for (const TriangleIndices& t : mesh.triangles)
      for (const uint32_t v : t) ASSERT_LT(v, mesh.positions.size());
    EXPECT_GT(2 * usable_triangle_count(mesh), mesh.triangle_count());
  }
}

TEST(DefaultLevel, InstanceBoundsOverlap) {
  const Scene& scene = level();
  std::vector<Aabb> bounds;
  for (const Instance& instance : scene.instances)
    if (!starts_with(instance.node, "terrain")) bounds.push_back(world_bounds(instance));
  size_t pairs = 0;
  for (size_t i = 0; i < bounds.size(); ++i)
    for (size_t j = i + 1; j < bounds.size(); ++j) pairs += overlap(bounds[i], bounds[j]);
  EXPECT_GT(pairs, 1000u);  // crowns in the forest, props by the buildings, wires over trees
}

// FNV-1a over the level: its name; each BLAS's name, positions and
// triangles; each instance's BLAS, transform, mask, id, TAPU and node.
uint64_t digest(const Scene& scene) {
  uint64_t hash = 0xcbf29ce484222325ull;
  const auto add = [&hash](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  };
  const auto add_text = [&add](const std::string& text) { add(text.c_str(), text.size() + 1); };
  add_text(scene.name);
  for (const Mesh& mesh : scene.blases) {
    add_text(mesh.name);
    add(mesh.positions.data(), mesh.positions.size() * sizeof(mesh.positions[0]));
    add(mesh.triangles.data(), mesh.triangles.size() * sizeof(mesh.triangles[0]));
  }
  for (const Instance& instance : scene.instances) {
    add(&instance.blas, sizeof(instance.blas));
    add(instance.object_to_world.m.data(), sizeof(instance.object_to_world.m));
    add(&instance.mask, sizeof(instance.mask));
    add(&instance.id, sizeof(instance.id));
    add(&instance.tapu, sizeof(instance.tapu));
    add_text(instance.node);
  }
  return hash;
}

TEST(DefaultLevel, IsTheSameEveryTimeAndOnEveryBuild) {
  // Pinned: the default run, the sweeps, the calibration and the Series S
  // regress goldens rest on these bytes. A deliberate change to the level
  // updates the digest.
  EXPECT_EQ(digest(level()), digest(make_default_level()));
  EXPECT_EQ(digest(level()), 0x62963b716c19733bull) << std::hex << digest(level());
}

TEST(DefaultLevel, CameraStandsOnTheTerrainInsideAnInstance) {
  const Scene& scene = level();
  const Camera camera = default_level_camera();
  EXPECT_NEAR(camera.vertical_fov_degrees, 60, 10);

  // The terrain under the eye: the triangle whose (x, z) projection holds it.
  const Instance* terrain = nullptr;
  for (const Instance& instance : scene.instances)
    if (starts_with(instance.node, "terrain")) terrain = &instance;
  ASSERT_NE(terrain, nullptr);
  const Mesh& ground = scene.blases[terrain->blas];
  bool found = false;
  double ground_y = 0;
  for (uint32_t p = 0; p < ground.triangle_count() && !found; ++p) {
    std::array<Vec3, 3> v;
    for (int c = 0; c < 3; ++c) v[c] = apply_point(terrain->object_to_world, ground.vertex(p, c));
    const double x = camera.eye[0], z = camera.eye[2];
    const double d = (static_cast<double>(v[1][0]) - v[0][0]) * (static_cast<double>(v[2][2]) - v[0][2]) -
                     (static_cast<double>(v[2][0]) - v[0][0]) * (static_cast<double>(v[1][2]) - v[0][2]);
    if (d == 0) continue;
    const double b1 = ((x - v[0][0]) * (static_cast<double>(v[2][2]) - v[0][2]) -
                       (static_cast<double>(v[2][0]) - v[0][0]) * (z - v[0][2])) /
                      d;
    const double b2 = ((static_cast<double>(v[1][0]) - v[0][0]) * (z - v[0][2]) -
                       (x - v[0][0]) * (static_cast<double>(v[1][2]) - v[0][2])) /
                      d;
    if (b1 < 0 || b2 < 0 || b1 + b2 > 1) continue;
    found = true;
    ground_y = v[0][1] + b1 * (static_cast<double>(v[1][1]) - v[0][1]) + b2 * (static_cast<double>(v[2][1]) - v[0][1]);
  }
  ASSERT_TRUE(found) << "no terrain under the eye";
  EXPECT_GT(camera.eye[1] - ground_y, 1.2);  // eye height, about 1.7 m
  EXPECT_LT(camera.eye[1] - ground_y, 2.5);

  // Inside the bounds of some prop (the terrain's own box would be trivial).
  std::vector<std::string> around;
  for (const Instance& instance : scene.instances)
    if (!starts_with(instance.node, "terrain") && contains(world_bounds(instance), camera.eye))
      around.push_back(instance.node);
  EXPECT_FALSE(around.empty());
  for (const std::string& node : around) fmt::print("camera eye inside the bounds of {}\n", node);
}

}  // namespace
}  // namespace td::scene

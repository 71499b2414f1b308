// The built-in scene: big enough, open and closed parts, a wide spread of
// triangle sizes, the same every time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <map>

#include "tb/scene/bvh.h"
#include "tb/scene/default_scene.h"
#include "tb/traversal/functional_trace.h"

namespace td::scene {
namespace {

TEST(DefaultScene, HasAtLeast100kUsableTriangles) {
  const Mesh mesh = make_default_scene();
  EXPECT_GE(mesh.triangle_count(), 100000u);
  EXPECT_EQ(usable_triangle_count(mesh), mesh.triangle_count());
}

TEST(DefaultScene, HasOpenAndClosedParts) {
  const Mesh mesh = make_default_scene();
  // Edges counted by vertex index: a boundary edge has one triangle, an
  // interior edge of a closed surface two.
  std::map<std::pair<uint32_t, uint32_t>, int> edge_uses;
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) ++edge_uses[{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])}];
  size_t boundary = 0, interior = 0;
  for (const auto& [edge, uses] : edge_uses) (uses == 1 ? boundary : interior) += 1;
  EXPECT_GT(boundary, 600u);    // terrain rim (640), floor and wall (6), tube ends (32)
  EXPECT_GT(interior, 100000u); // spheres, torus, cubes, terrain inside
}

TEST(DefaultScene, TriangleSizesSpanFourOrdersOfMagnitude) {
  const Mesh mesh = make_default_scene();
  double shortest = INFINITY, longest = 0;
  for (uint32_t i = 0; i < mesh.triangle_count(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const Vec3& a = mesh.vertex(i, k);
      const Vec3& b = mesh.vertex(i, (k + 1) % 3);
      const double length = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      shortest = std::min(shortest, length);
      longest = std::max(longest, length);
    }
  }
  EXPECT_LT(shortest, 0.005);
  EXPECT_GT(longest, 50.0);
}

TEST(DefaultScene, DefaultCameraSeesGeometryInNearlyEveryPixel) {
  const Mesh mesh = make_default_scene();
  const EncodedBvh bvh = build_bvh(mesh, BvhOptions{});
  const PrimaryRays frame(default_scene_camera(), 64, 36);
  std::vector<RayHit> hits;
  traversal::TraceTotals totals;
  traversal::trace_rays(bvh, frame.rays(0, frame.count()), {}, hits, &totals);
  EXPECT_GT(totals.hits, frame.count() * 85 / 100);
}

// FNV-1a over the scene's bytes: its vertex positions, then its triangles.
uint64_t digest(const Mesh& mesh) {
  uint64_t hash = 0xcbf29ce484222325ull;
  const auto add = [&hash](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  };
  add(mesh.positions.data(), mesh.positions.size() * sizeof(mesh.positions[0]));
  add(mesh.triangles.data(), mesh.triangles.size() * sizeof(mesh.triangles[0]));
  return hash;
}

TEST(DefaultScene, IsTheSameEveryTimeAndOnEveryBuild) {
  // Pinned: the regress goldens and every figure of the basic scene rest on
  // these bytes. A deliberate change to the scene updates the digest.
  EXPECT_EQ(digest(make_default_scene()), 0x211221fc34763e81ull) << std::hex << digest(make_default_scene());
}

}  // namespace
}  // namespace td::scene

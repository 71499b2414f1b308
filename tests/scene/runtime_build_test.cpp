// The run-time builders (LBVH, PLOC): every usable triangle in exactly one
// slot, every slot's box containing what lies below it, a 4-wide tree in
// preorder, the same tree whatever else ran before, and a SAH cost that
// orders the builders as their papers say (SAH <= PLOC <= LBVH here).
#include "tb/scene/runtime_build.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tb/scene/bvh.h"
#include "tb/scene/embree_build.h"
#include "tb/scene/mesh_import.h"
#include "tb/scene/scene_error.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

bool contains(const Aabb& outer, const Aabb& inner) {
  for (int a = 0; a < 3; ++a)
    if (inner.min[a] < outer.min[a] || inner.max[a] > outer.max[a]) return false;
  return true;
}

// Checks the tree's shape against the mesh; returns the slots' total area
// over the root's (the SAH cost's sum, exact boxes).
void expect_well_formed(const Mesh& mesh, const BvhTree& tree) {
  ASSERT_FALSE(tree.nodes.empty());
  std::vector<int> seen(mesh.triangle_count(), 0);
  std::vector<int> parents(tree.nodes.size(), 0);
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const BvhBoxNode& node = tree.nodes[n];
    ASSERT_GE(node.slot_count, 1u);
    ASSERT_LE(node.slot_count, 4u);
    if (n > 0) {
      EXPECT_GE(node.slot_count, 2u) << "an inner node below the root with one child";
    }
    for (uint32_t i = 0; i < node.slot_count; ++i) {
      const BvhSlot& slot = node.slots[i];
      if (slot.is_triangle) {
        ASSERT_LT(slot.index, mesh.triangle_count());
        ++seen[slot.index];
        EXPECT_TRUE(contains(slot.bounds, triangle_bounds(mesh, slot.index))) << "triangle " << slot.index;
        continue;
      }
      ASSERT_GT(slot.index, n) << "preorder: a child after its parent";
      ASSERT_LT(slot.index, tree.nodes.size());
      ++parents[slot.index];
      const BvhBoxNode& child = tree.nodes[slot.index];
      for (uint32_t j = 0; j < child.slot_count; ++j) {
        EXPECT_TRUE(contains(slot.bounds, child.slots[j].bounds)) << "node " << n << " slot " << i;
      }
    }
  }
  for (size_t n = 1; n < tree.nodes.size(); ++n) EXPECT_EQ(parents[n], 1) << "node " << n;
  uint64_t references = 0;
  for (uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    EXPECT_EQ(seen[t], is_degenerate(mesh, t) ? 0 : 1) << "triangle " << t;
    references += seen[t];
  }
  EXPECT_EQ(tree.triangle_references, references);
}

void expect_same_tree(const BvhTree& tree, const BvhTree& expected) {
  ASSERT_EQ(tree.nodes.size(), expected.nodes.size());
  EXPECT_EQ(tree.depth, expected.depth);
  EXPECT_EQ(tree.triangle_references, expected.triangle_references);
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    ASSERT_EQ(tree.nodes[n].slot_count, expected.nodes[n].slot_count) << "node " << n;
    for (uint32_t i = 0; i < tree.nodes[n].slot_count; ++i) {
      const BvhSlot &slot = tree.nodes[n].slots[i], &want = expected.nodes[n].slots[i];
      ASSERT_EQ(slot.index, want.index) << "node " << n << " slot " << i;
      ASSERT_EQ(slot.is_triangle, want.is_triangle) << "node " << n << " slot " << i;
      for (int a = 0; a < 3; ++a) {
        ASSERT_EQ(slot.bounds.min[a], want.bounds.min[a]) << "node " << n << " slot " << i;
        ASSERT_EQ(slot.bounds.max[a], want.bounds.max[a]) << "node " << n << " slot " << i;
      }
    }
  }
}

TEST(RuntimeBuild, EveryTriangleOnceEveryBoxHoldsItsChildrenOnRealMeshes) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (const std::string& path : test::real_mesh_paths()) {
    const Mesh mesh = load_mesh(path);
    for (BvhBuilder builder : {BvhBuilder::kLbvh, BvhBuilder::kPloc}) {
      SCOPED_TRACE(path + " " + builder_name(builder));
      const BvhTree tree = build_runtime_tree(mesh, builder, 10);
      expect_well_formed(mesh, tree);
      // The same tree again, on three threads: nothing but the boxes decides it.
      expect_same_tree(build_runtime_tree(mesh, builder, 10, 3), tree);
    }
  }
}

// A height field of 2 x cells^2 triangles, big enough that every loop of
// the builders runs in many chunks.
Mesh height_field(int cells) {
  Mesh mesh;
  mesh.name = "height field";
  for (int j = 0; j <= cells; ++j)
    for (int i = 0; i <= cells; ++i) {
      const double x = double(i) / cells, z = double(j) / cells;
      mesh.positions.push_back({static_cast<float>(x), static_cast<float>(0.1 * std::sin(17 * x) * std::cos(13 * z)),
                                static_cast<float>(z)});
    }
  const auto at = [cells](int i, int j) { return static_cast<uint32_t>(j * (cells + 1) + i); };
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      mesh.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      mesh.triangles.push_back({at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)});
    }
  return mesh;
}

TEST(RuntimeBuild, SameTreeForAnyThreadCount) {
  const Mesh mesh = height_field(300);  // 180 000 triangles
  for (BvhBuilder builder : {BvhBuilder::kLbvh, BvhBuilder::kPloc}) {
    SCOPED_TRACE(builder_name(builder));
    const BvhTree one = build_runtime_tree(mesh, builder, 10, 1);
    expect_well_formed(mesh, one);
    for (unsigned threads : {2u, 3u, 8u}) {
      SCOPED_TRACE(threads);
      expect_same_tree(build_runtime_tree(mesh, builder, 10, threads), one);
    }
  }
}

TEST(RuntimeBuild, SahCostOrdersTheBuildersAndAWiderPlocSearchDoesNoWorse) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = load_mesh(test::largest_mesh_path());
  const auto cost = [&](BvhBuilder builder, uint32_t radius) {
    BvhOptions options;
    options.blas_builder = builder;
    options.ploc_radius = radius;
    return build_bvh(mesh, options).report.sah_cost;
  };
  const double sah = cost(BvhBuilder::kSah, 10), ploc = cost(BvhBuilder::kPloc, 10), lbvh = cost(BvhBuilder::kLbvh, 10);
  std::printf("SAH cost: sah %.2f, ploc %.2f, lbvh %.2f\n", sah, ploc, lbvh);
  EXPECT_LE(sah, ploc * 1.02);
  EXPECT_LT(ploc, lbvh);
  EXPECT_LE(cost(BvhBuilder::kPloc, 32), cost(BvhBuilder::kPloc, 1) * 1.02);
}

TEST(RuntimeBuild, OneBoxTwoBoxesAndEmptyInput) {
  Mesh mesh;
  mesh.name = "tiny";
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 0, 0}, {6, 0, 0}, {5, 1, 0}};
  mesh.triangles = {{0, 1, 2}};
  for (BvhBuilder builder : {BvhBuilder::kLbvh, BvhBuilder::kPloc}) {
    const BvhTree one = build_runtime_tree(mesh, builder, 10);
    ASSERT_EQ(one.nodes.size(), 1u);
    EXPECT_EQ(one.nodes[0].slot_count, 1u);
    EXPECT_TRUE(one.nodes[0].slots[0].is_triangle);
    Mesh two = mesh;
    two.triangles.push_back({3, 4, 5});
    expect_well_formed(two, build_runtime_tree(two, builder, 10));
    EXPECT_THROW(build_runtime_tree_of_boxes({empty_box()}, builder, 10, "nothing"), SceneError);
    const Aabb huge{{0, 0, 0}, {INFINITY, 1, 1}}, unit{{0, 0, 0}, {1, 1, 1}};
    EXPECT_THROW(build_runtime_tree_of_boxes({unit, huge}, builder, 10, "huge"), SceneError);
  }
}

}  // namespace
}  // namespace td::scene

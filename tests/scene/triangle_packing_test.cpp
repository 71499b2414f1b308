// Triangle packing: the seed document's four-triangle example, pairs and
// singles, windings kept, partners only across shared edges.
#include <gtest/gtest.h>

#include "tb/scene/triangle_packing.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

// The seed's example: five vertices, index buffer {0,1,2} {3,2,1} {4,2,3}
// {2,4,0}, a closed fan about vertex 2.
Mesh seed_example() {
  return test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0.5f, 0.5f, 0}, {1, 1, 0}, {0, 1, 0}},
                       {{0, 1, 2}, {3, 2, 1}, {4, 2, 3}, {2, 4, 0}});
}

const std::vector<uint32_t> kAllFour = {0, 1, 2, 3};

TEST(TrianglePacking, StripsPutTheSeedExampleInOneNodeAsTheDocumentLaysItOut) {
  const Mesh mesh = seed_example();
  const TrianglePack pack = pack_triangles(mesh, kAllFour, TrianglePacking::kStrips);
  ASSERT_EQ(pack.nodes.size(), 1u);
  const PackedTriangleNode& node = pack.nodes[0];
  EXPECT_EQ(node.triangle_count, 4u);
  for (int v = 0; v < 5; ++v) EXPECT_EQ(node.vertex[v], mesh.positions[v]) << "V" << v;
  EXPECT_EQ(node.primitive, (std::array<uint32_t, 4>{0, 1, 2, 3}));
  // Triangle 1 {3,2,1} is stored (V1,V3,V2) = (1,3,2): P1 = vertex 2 is the
  // hardware's third vertex (I_SRC 2), P2 = vertex 1 its first (J_SRC 0);
  // triangle 2 {4,2,3} as (2,3,4): I_SRC 0, J_SRC 1; 0 and 3 as given.
  EXPECT_EQ(node.remap_bits, 0x09040209u);
  for (uint32_t t = 0; t < 4; ++t) {
    EXPECT_EQ(pack.location[t].node, 0u);
    EXPECT_EQ(pack.location[t].slot, t);
  }
}

TEST(TrianglePacking, PairsShareAnEdgeAndSinglesShareNothing) {
  const Mesh mesh = seed_example();
  const TrianglePack pairs = pack_triangles(mesh, kAllFour, TrianglePacking::kPairs);
  ASSERT_EQ(pairs.nodes.size(), 2u);
  for (const auto& node : pairs.nodes) {
    EXPECT_EQ(node.triangle_count, 2u);
    EXPECT_NE(node.primitive[0], kNoPrimitive);
    EXPECT_NE(node.primitive[1], kNoPrimitive);
  }
  const TrianglePack single = pack_triangles(mesh, kAllFour, TrianglePacking::kSingle);
  ASSERT_EQ(single.nodes.size(), 4u);
  for (uint32_t t = 0; t < 4; ++t) {
    EXPECT_EQ(single.nodes[t].primitive[0], t);
    EXPECT_EQ(single.nodes[t].corner_at_a[0], 0);
    EXPECT_EQ(single.nodes[t].remap_bits, 0x9u);  // I = V1, J = V2: the identity
  }
}

TEST(TrianglePacking, OppositeWindingsAreNotPaired) {
  // Two triangles on the edge (1,2), both running 1 -> 2: pairing would need
  // a mirror, which would flip det's sign.
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {{0, 1, 2}, {3, 1, 2}});
  EXPECT_EQ(pack_triangles(mesh, {0, 1}, TrianglePacking::kStrips).nodes.size(), 2u);
}

TEST(TrianglePacking, VerticesAreSharedByBitPatternNotIndex) {
  // The same corner positions under different indices still pair.
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}},
                                  {{0, 1, 2}, {3, 5, 4}});
  const TrianglePack pack = pack_triangles(mesh, {0, 1}, TrianglePacking::kPairs);
  ASSERT_EQ(pack.nodes.size(), 1u);
  EXPECT_EQ(pack.nodes[0].triangle_count, 2u);
}

TEST(TrianglePacking, PartnersComeFromTheWindowOnly) {
  // 40 disjoint triangles, then a partner of triangle 0: past the window.
  std::vector<Vec3> positions;
  std::vector<TriangleIndices> triangles;
  for (uint32_t k = 0; k < 40; ++k) {
    const float x = 10.0f * static_cast<float>(k);
    positions.insert(positions.end(), {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}});
    triangles.push_back({3 * k, 3 * k + 1, 3 * k + 2});
  }
  positions.push_back({1, 1, 0});
  triangles.push_back({120, 2, 1});
  const Mesh mesh = test::mesh_of(positions, triangles);
  std::vector<uint32_t> order(41);
  for (uint32_t k = 0; k < 41; ++k) order[k] = k;
  ASSERT_GT(order.size(), kPackingWindow + 1);
  EXPECT_EQ(pack_triangles(mesh, order, TrianglePacking::kPairs).nodes.size(), 41u);
  std::swap(order[1], order[40]);  // now next to it in leaf order
  EXPECT_EQ(pack_triangles(mesh, order, TrianglePacking::kPairs).nodes.size(), 40u);
}

}  // namespace
}  // namespace td::scene

// The encoded BVH: boxes contain what they bound (FP16 rounded outward),
// every usable triangle stored once and reachable, triangle nodes that are
// the mesh's own triangles with the right remap bits, a valid descriptor,
// the FP16 threshold's extremes, and identical bytes build after build.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <set>
#include <stdexcept>

#include "model/config/config.h"
#include "model/isa/node.h"
#include "tb/scene/bvh.h"
#include "tb/scene/bvh_encoder.h"
#include "tb/scene/default_scene.h"
#include "tb/scene/embree_build.h"
#include "tb/scene/mesh_import.h"
#include "tb/traversal/ray_traversal.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

std::vector<uint8_t> image_bytes(const EncodedBvh& bvh) {
  std::vector<uint8_t> bytes(bvh.unit_count * kNodeUnitBytes);
  bvh.memory.read(bvh.descriptor.base_address(), bytes.data(), bytes.size());
  return bytes;
}

BoxNode read_box(const EncodedBvh& bvh, uint32_t pointer) {
  const NodePtr p{pointer};
  NodeBytes bytes{};
  bvh.memory.read(bvh.descriptor.base_address() + p.unit() * kNodeUnitBytes, bytes.data(), node_bytes(p.type()));
  return p.type() == NodeType::kBox16 ? decode_box16(bytes.data()) : decode_box32(bytes.data());
}

TriangleNode read_triangle(const EncodedBvh& bvh, uint64_t unit) {
  NodeBytes bytes{};
  bvh.memory.read(bvh.descriptor.base_address() + unit * kNodeUnitBytes, bytes.data(), kNodeUnitBytes);
  return decode_triangle(bytes.data());
}

bool contains(const Aabb& outer, const Vec3& p) {
  for (int a = 0; a < 3; ++a)
    if (!(outer.min[a] <= p[a] && p[a] <= outer.max[a])) return false;
  return true;
}

bool contains(const Aabb& outer, const Aabb& inner) { return contains(outer, inner.min) && contains(outer, inner.max); }

// Everything a walk from the root reaches.
struct Reach {
  std::vector<uint32_t> box_pointers;
  std::multiset<uint32_t> triangle_pointers;  // one entry per slot addressing it
  std::vector<std::pair<Aabb, uint32_t>> triangle_slots;  // (stored box, pointer)
};

// Walks the whole tree, checking on the way that each slot's stored box
// contains the child box node's boxes.
Reach walk(const EncodedBvh& bvh) {
  Reach reach;
  std::vector<uint32_t> pending = {bvh.root};
  while (!pending.empty()) {
    const uint32_t pointer = pending.back();
    pending.pop_back();
    const NodePtr p{pointer};
    EXPECT_TRUE(is_box(p.type()));
    EXPECT_LE(p.unit() + node_units(p.type()) - 1, bvh.descriptor.size_units);
    reach.box_pointers.push_back(pointer);
    const BoxNode node = read_box(bvh, pointer);
    for (int i = 0; i < 4; ++i) {
      const uint32_t child = node.child[i];
      if (child == kInvalidChild) continue;
      if (is_triangle(NodePtr{child}.type())) {
        reach.triangle_pointers.insert(child);
        reach.triangle_slots.emplace_back(node.box[i], child);
        continue;
      }
      const BoxNode grandchild = read_box(bvh, child);
      for (int j = 0; j < 4; ++j) {
        if (grandchild.child[j] == kInvalidChild) continue;
        EXPECT_TRUE(contains(node.box[i], grandchild.box[j])) << "box node " << pointer << " slot " << i;
      }
      pending.push_back(child);
    }
  }
  return reach;
}

BvhOptions options_with(BvhQuality quality, TrianglePacking pack = TrianglePacking::kStrips) {
  BvhOptions options;
  options.quality = quality;
  options.pack = pack;
  return options;
}

TEST(BvhEncoder, BoxesContainTheirChildrenAndTrianglesFp16RoundedOutward) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (const std::string& path : test::real_mesh_paths()) {
    SCOPED_TRACE(path);
    const Mesh mesh = load_mesh(path);
    const EncodedBvh bvh = build_bvh(mesh, options_with(BvhQuality::kNormal));
    EXPECT_GT(bvh.report.box16_nodes, 0u);
    const Reach reach = walk(bvh);
    for (const auto& [box, pointer] : reach.triangle_slots) {
      const uint32_t primitive = bvh.primitive_of(pointer);
      for (int corner = 0; corner < 3; ++corner)
        EXPECT_TRUE(contains(box, mesh.vertex(primitive, corner))) << "primitive " << primitive;
    }
  }
}

TEST(BvhEncoder, SpatialSplitPiecesTogetherCoverTheirTriangle) {
  const Mesh mesh = make_default_scene();
  const EncodedBvh bvh = build_bvh(mesh, options_with(BvhQuality::kHigh));
  EXPECT_GT(bvh.report.triangle_references, usable_triangle_count(mesh));  // some triangles were split
  const Reach reach = walk(bvh);
  std::vector<std::vector<Aabb>> pieces(mesh.triangle_count());
  for (const auto& [box, pointer] : reach.triangle_slots) pieces[bvh.primitive_of(pointer)].push_back(box);
  size_t split = 0;
  for (uint32_t primitive = 0; primitive < mesh.triangle_count(); ++primitive) {
    if (pieces[primitive].size() < 2) continue;
    ++split;
    // Points of the triangle on a barycentric grid, each inside some piece.
    constexpr int kSteps = 16;
    for (int i = 0; i <= kSteps; ++i) {
      for (int j = 0; i + j <= kSteps; ++j) {
        Vec3 p{};
        for (int a = 0; a < 3; ++a) {
          const double w1 = double(i) / kSteps, w2 = double(j) / kSteps;
          p[a] = static_cast<float>((1 - w1 - w2) * mesh.vertex(primitive, 0)[a] + w1 * mesh.vertex(primitive, 1)[a] +
                                    w2 * mesh.vertex(primitive, 2)[a]);
        }
        bool inside = false;
        for (const Aabb& box : pieces[primitive]) inside = inside || contains(box, p);
        EXPECT_TRUE(inside) << "primitive " << primitive << " point " << i << "," << j;
      }
    }
  }
  EXPECT_GT(split, 100u);
}

TEST(BvhEncoder, EveryUsableTriangleIsStoredOnceAndReachable) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (BvhQuality quality : {BvhQuality::kNormal, BvhQuality::kHigh}) {
    for (uint32_t leaf_size : {1u, 4u}) {
      for (const std::string& path : {test::largest_mesh_path(), test::small_mesh_path()}) {
        SCOPED_TRACE(path + " " + quality_name(quality) + " leaf " + std::to_string(leaf_size));
        const Mesh mesh = load_mesh(path);
        BvhOptions options = options_with(quality);
        options.max_leaf_size = leaf_size;
        const EncodedBvh bvh = build_bvh(mesh, options);
        std::vector<int> stored(mesh.triangle_count(), 0);
        for (uint32_t primitive : bvh.slot_primitive)
          if (primitive != kNoPrimitive) ++stored[primitive];
        for (uint32_t primitive = 0; primitive < mesh.triangle_count(); ++primitive)
          ASSERT_EQ(stored[primitive], is_degenerate(mesh, primitive) ? 0 : 1) << "primitive " << primitive;
        const Reach reach = walk(bvh);
        std::set<uint32_t> reached(reach.triangle_pointers.begin(), reach.triangle_pointers.end());
        for (uint32_t pointer : reached) EXPECT_NE(bvh.primitive_of(pointer), kNoPrimitive) << pointer;
        size_t stored_slots = 0;
        for (uint32_t primitive : bvh.slot_primitive) stored_slots += primitive != kNoPrimitive ? 1 : 0;
        EXPECT_EQ(reached.size(), stored_slots);
        EXPECT_EQ(reach.triangle_pointers.size(), bvh.report.triangle_references);
        if (quality == BvhQuality::kNormal) {
          EXPECT_EQ(reach.triangle_pointers.size(), reached.size());
        }
        EXPECT_EQ(reach.box_pointers.size(), bvh.report.box16_nodes + bvh.report.box32_nodes);
      }
    }
  }
}

TEST(BvhEncoder, TriangleNodesHoldTheMeshTrianglesRotatedWithRemapBits) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (TrianglePacking pack : {TrianglePacking::kSingle, TrianglePacking::kPairs, TrianglePacking::kStrips}) {
    SCOPED_TRACE(packing_name(pack));
    const Mesh mesh = load_mesh(test::largest_mesh_path());
    const EncodedBvh bvh = build_bvh(mesh, options_with(BvhQuality::kNormal, pack));
    for (uint64_t k = 0; k < bvh.report.triangle_nodes; ++k) {
      const TriangleNode node = read_triangle(bvh, bvh.first_triangle_unit + k);
      for (uint32_t t = 0; t < 4; ++t) {
        const uint32_t primitive = bvh.slot_primitive[4 * k + t];
        if (primitive == kNoPrimitive) continue;
        const auto hw = triangle_vertices(t);
        // Which rotation of (P0, P1, P2) sits at (A, B, C)?
        int rotation = -1;
        for (int r = 0; r < 3; ++r) {
          bool same = true;
          for (int i = 0; i < 3; ++i) same = same && node.vertex[hw[i]] == mesh.vertex(primitive, (r + i) % 3);
          if (same) rotation = r;
        }
        ASSERT_GE(rotation, 0) << "node " << k << " slot " << t << " is not a rotation of primitive " << primitive;
        const uint32_t i_src = (node.id >> (8 * t)) & 3, j_src = (node.id >> (8 * t + 2)) & 3;
        EXPECT_EQ((rotation + static_cast<int>(i_src)) % 3, 1) << "I must weight P1";
        EXPECT_EQ((rotation + static_cast<int>(j_src)) % 3, 2) << "J must weight P2";
      }
    }
  }
}

TEST(BvhEncoder, ReturnMode0NodeIdsIndexTheSlotMap) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  BvhOptions options;
  options.return_mode = 0;
  const EncodedBvh bvh = build_bvh(mesh, options);
  EXPECT_EQ(bvh.descriptor.return_mode, 0u);
  for (uint64_t k = 0; k < bvh.report.triangle_nodes; ++k)
    EXPECT_EQ(read_triangle(bvh, bvh.first_triangle_unit + k).id, 4 * k);
}

TEST(BvhEncoder, DescriptorIsValidAndSpansExactlyTheNodes) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  BvhOptions options;
  options.base_address = 0x1234500;
  options.box_grow_ulps = 7;
  const EncodedBvh bvh = build_bvh(mesh, options);
  EXPECT_TRUE(bvh.descriptor.valid());
  EXPECT_EQ(bvh.descriptor.base_address(), 0x1234500u);
  EXPECT_EQ(bvh.descriptor.size_units + 1, bvh.unit_count);
  EXPECT_TRUE(bvh.descriptor.box_sort);
  EXPECT_EQ(bvh.descriptor.box_grow_ulps, 7u);
  EXPECT_EQ(bvh.descriptor.return_mode, 1u);
  EXPECT_EQ(NodePtr{bvh.root}.unit(), 0u);
  EXPECT_EQ(bvh.unit_count, bvh.first_triangle_unit + bvh.report.triangle_nodes);
  EXPECT_EQ(bvh.report.bytes, bvh.unit_count * 64);
  EXPECT_EQ(bvh.report.bytes, 64 * (bvh.report.box16_nodes + 2 * bvh.report.box32_nodes +
                                    bvh.report.triangle_nodes + bvh.report.padding_units));
}

TEST(BvhEncoder, Fp32NodesSitOn128ByteBoundaries) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const EncodedBvh bvh = build_bvh(load_mesh(test::largest_mesh_path()), BvhOptions{});
  EXPECT_GT(bvh.report.box32_nodes, 0u);
  for (uint32_t pointer : walk(bvh).box_pointers) {
    if (NodePtr{pointer}.type() == NodeType::kBox32) {
      EXPECT_EQ(NodePtr{pointer}.unit() % 2, 0u) << pointer;
    }
  }
}

TEST(BvhEncoder, Fp16ThresholdExtremesGiveAllFp32OrAllFp16) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = load_mesh(test::largest_mesh_path());
  BvhOptions options;
  options.fp16_threshold = -1;
  const EncodedBvh fp32 = build_bvh(mesh, options);
  EXPECT_EQ(fp32.report.box16_nodes, 0u);
  options.fp16_threshold = INFINITY;
  const EncodedBvh fp16 = build_bvh(mesh, options);
  EXPECT_EQ(fp16.report.box32_nodes, 0u);
  EXPECT_LT(fp16.report.bytes, fp32.report.bytes);
  // Looser boxes: the SAH cost can only grow.
  EXPECT_GE(fp16.report.sah_cost, fp32.report.sah_cost);
  options.fp16_threshold = 0.1;
  const EncodedBvh mixed = build_bvh(mesh, options);
  EXPECT_GT(mixed.report.box16_nodes, 0u);
  EXPECT_GT(mixed.report.box32_nodes, 0u);
}

TEST(BvhEncoder, Fp16PoliciesChooseTheirNodesAndABlasRootStaysFp32) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = load_mesh(test::largest_mesh_path());
  const BvhTree tree = build_bvh_tree(mesh, BvhOptions{});
  ASSERT_GT(tree.nodes.size(), 10u);
  const auto has_triangle = [&](size_t n) {
    for (uint32_t i = 0; i < tree.nodes[n].slot_count; ++i)
      if (tree.nodes[n].slots[i].is_triangle) return true;
    return false;
  };
  const BoxNodes mixed = plan_box_nodes(tree, {Fp16Policy::kMixed, 0.1}, false);
  size_t mixed_fp16 = 0, leaf_nodes = 0;
  for (const bool root_fp32 : {false, true}) {
    SCOPED_TRACE(root_fp32 ? "BLAS" : "one level");
    const BoxNodes none = plan_box_nodes(tree, {Fp16Policy::kNone, 0.1}, root_fp32);
    const BoxNodes leaf = plan_box_nodes(tree, {Fp16Policy::kLeaf, 0.1}, root_fp32);
    const BoxNodes all = plan_box_nodes(tree, {Fp16Policy::kAll, 0.1}, root_fp32);
    const BoxNodes mixed_here = plan_box_nodes(tree, {Fp16Policy::kMixed, 0.1}, root_fp32);
    for (size_t n = 0; n < tree.nodes.size(); ++n) {
      const bool root = root_fp32 && n == 0;
      EXPECT_FALSE(none.fp16[n]) << n;
      EXPECT_EQ(all.fp16[n], !root) << n;
      EXPECT_EQ(leaf.fp16[n], !root && has_triangle(n)) << n;
      // Mixed is the threshold's test on the node's boxes (the boxes do
      // not depend on the policy of the node itself).
      EXPECT_EQ(mixed_here.fp16[n], !root && use_fp16(mixed_here.boxes[n], tree.nodes[n].slot_count, 0.1)) << n;
    }
  }
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    mixed_fp16 += mixed.fp16[n] ? 1 : 0;
    leaf_nodes += has_triangle(n) ? 1 : 0;
  }
  EXPECT_GT(mixed_fp16, 0u);
  EXPECT_LT(mixed_fp16, tree.nodes.size());
  EXPECT_GT(leaf_nodes, 0u);
  EXPECT_LT(leaf_nodes, tree.nodes.size());
  // Through the options: the encoded BVH's counts.
  BvhOptions options;
  options.fp16 = Fp16Policy::kNone;
  EXPECT_EQ(build_bvh(mesh, options).report.box16_nodes, 0u);
  options.fp16 = Fp16Policy::kAll;
  EXPECT_EQ(build_bvh(mesh, options).report.box32_nodes, 0u);
  options.fp16 = Fp16Policy::kLeaf;
  EXPECT_EQ(build_bvh(mesh, options).report.box16_nodes, leaf_nodes);
}

// Each enum lists its values in the config's word order: the i-th value is
// the i-th word, both ways, and a word the key does not take has no value.
template <typename Enum, typename Name, typename Parse>
void expect_words_in_order(const std::vector<std::string>& words, std::initializer_list<Enum> values, Name name,
                           Parse parse) {
  ASSERT_EQ(words.size(), values.size());
  size_t i = 0;
  for (const Enum value : values) {
    EXPECT_EQ(name(value), words[i]);
    EXPECT_EQ(parse(words[i]), value);
    ++i;
  }
  EXPECT_EQ(parse("half"), std::nullopt);
}

TEST(BvhOptions, EveryEnumFollowsItsKeysWordList) {
  expect_words_in_order(cfg::quality_words(), {BvhQuality::kNormal, BvhQuality::kHigh}, quality_name, parse_quality);
  expect_words_in_order(cfg::pack_words(), {TrianglePacking::kSingle, TrianglePacking::kPairs, TrianglePacking::kStrips},
                        packing_name, parse_packing);
  expect_words_in_order(cfg::fp16_words(),
                        {Fp16Policy::kNone, Fp16Policy::kLeaf, Fp16Policy::kMixed, Fp16Policy::kAll},
                        fp16_policy_name, parse_fp16_policy);
  expect_words_in_order(cfg::builder_words(), {BvhBuilder::kSah, BvhBuilder::kLbvh, BvhBuilder::kPloc}, builder_name,
                        parse_builder);
  expect_words_in_order(cfg::tapu_words(),
                        {TapuPolicy::kOff, TapuPolicy::kScene, TapuPolicy::kTapu4, TapuPolicy::kTapu16},
                        tapu_policy_name, parse_tapu_policy);
  expect_words_in_order(
      cfg::overflow_words(), {traversal::Overflow::kParentPointers, traversal::Overflow::kRestart},
      [](traversal::Overflow o) { return cfg::word_of(cfg::overflow_words(), o); },
      [](const std::string& w) { return cfg::value_of<traversal::Overflow>(cfg::overflow_words(), w); });
}

TEST(BvhEncoder, Fp16DecisionFollowsSurfaceAreaGrowth) {
  BoxNode node;
  node.box[0] = Aabb{{0, 0, 0}, {1, 1, 1}};  // exact in binary16: no growth
  EXPECT_TRUE(use_fp16(node, 1, 0.0));
  node.box[0] = Aabb{{1000.1f, 0, 0}, {1000.2f, 0.1f, 0.1f}};  // binary16's step at 1000 is 0.5
  EXPECT_FALSE(use_fp16(node, 1, 0.1));
  EXPECT_TRUE(use_fp16(node, 1, 100.0));
}

TEST(BvhEncoder, PackingTradesNodesForTrianglesPerNode) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = load_mesh(test::largest_mesh_path());
  const EncodedBvh single = build_bvh(mesh, options_with(BvhQuality::kNormal, TrianglePacking::kSingle));
  const EncodedBvh pairs = build_bvh(mesh, options_with(BvhQuality::kNormal, TrianglePacking::kPairs));
  const EncodedBvh strips = build_bvh(mesh, options_with(BvhQuality::kNormal, TrianglePacking::kStrips));
  EXPECT_EQ(single.report.triangles_per_triangle_node, 1.0);
  EXPECT_GT(pairs.report.triangles_per_triangle_node, 1.5);
  EXPECT_LE(pairs.report.triangles_per_triangle_node, 2.0);
  EXPECT_GT(strips.report.triangles_per_triangle_node, pairs.report.triangles_per_triangle_node);
  EXPECT_GT(strips.report.triangle_nodes_holding[3], 0u);
  EXPECT_GT(single.report.bytes, pairs.report.bytes);
  EXPECT_GT(pairs.report.bytes, strips.report.bytes);
  // Packing moves triangles between nodes; the tree, and so its cost, stays.
  EXPECT_EQ(single.report.sah_cost, strips.report.sah_cost);
}

TEST(BvhEncoder, SpatialSplitsLowerTheSahCostOfTheDefaultScene) {
  const Mesh mesh = make_default_scene();
  const EncodedBvh normal = build_bvh(mesh, options_with(BvhQuality::kNormal));
  const EncodedBvh high = build_bvh(mesh, options_with(BvhQuality::kHigh));
  EXPECT_LT(high.report.sah_cost, normal.report.sah_cost);
  EXPECT_GT(high.report.triangle_references, normal.report.triangle_references);
}

TEST(BvhEncoder, SameMeshAndOptionsGiveIdenticalBytes) {
  for (BvhQuality quality : {BvhQuality::kNormal, BvhQuality::kHigh}) {
    SCOPED_TRACE(quality_name(quality));
    const Mesh mesh = make_default_scene();
    const EncodedBvh a = build_bvh(mesh, options_with(quality));
    const EncodedBvh b = build_bvh(mesh, options_with(quality));
    EXPECT_EQ(a.unit_count, b.unit_count);
    EXPECT_TRUE(image_bytes(a) == image_bytes(b));
    EXPECT_EQ(a.descriptor, b.descriptor);
    EXPECT_EQ(a.root, b.root);
    EXPECT_EQ(a.slot_primitive, b.slot_primitive);
  }
}

TEST(BvhEncoder, BadOptionsAreRejectedNamingTheKey) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  BvhOptions options;
  options.max_leaf_size = 5;
  try {
    build_bvh(mesh, options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "bvh.max_leaf_size: must be 1..4 (got 5)");
  }
  options = BvhOptions{};
  options.base_address = 100;
  EXPECT_THROW(build_bvh(mesh, options), std::invalid_argument);
  EXPECT_EQ(parse_packing("pairs"), TrianglePacking::kPairs);
  EXPECT_EQ(parse_quality("high"), BvhQuality::kHigh);
  EXPECT_FALSE(parse_packing("quads").has_value());
}

TEST(BvhEncoder, ReportCountsAddUpAndPrintEveryFigure) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  const EncodedBvh bvh = build_bvh(mesh, BvhOptions{});
  const BvhReport& r = bvh.report;
  EXPECT_EQ(r.triangles, 384u);
  EXPECT_EQ(r.degenerate_triangles, 0u);
  uint64_t stored = 0;
  for (uint32_t k = 0; k < 4; ++k) stored += (k + 1) * r.triangle_nodes_holding[k];
  EXPECT_EQ(stored, 384u);
  EXPECT_DOUBLE_EQ(r.bytes_per_triangle, static_cast<double>(r.bytes) / 384);
  EXPECT_GT(r.sah_cost, 1.0);
  EXPECT_GT(r.build_seconds, 0.0);
  const std::string text = format_report(r);
  for (const char* figure : {"triangles", "box nodes fp16 / fp32", "triangle nodes", "bytes", "SAH cost", "depth"})
    EXPECT_NE(text.find(figure), std::string::npos) << figure;
}

TEST(BvhEncoder, OneTriangleMeshGetsARootBoxNode) {
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
  const EncodedBvh bvh = build_bvh(mesh, BvhOptions{});
  EXPECT_TRUE(is_box(NodePtr{bvh.root}.type()));
  EXPECT_EQ(walk(bvh).triangle_pointers.size(), 1u);
}

// Coordinates doubling up to binary32's largest power of two: the builder
// had aborted (an assertion in Embree's binning) once sums of them
// overflowed; those past kMaxCoordinate are left out, the rest built.
TEST(BvhEncoder, TrianglesOutToTheLargestFloatsBuildWithThosePastTheRangeLeftOut) {
  Mesh mesh;
  for (int e = 0; e <= 127; ++e) {
    const float x = std::ldexp(1.0f, e);
    const auto base = static_cast<uint32_t>(mesh.positions.size());
    mesh.positions.insert(mesh.positions.end(), {{x, -1, -1}, {x, 1, -1}, {x, 0, 1}});
    mesh.triangles.push_back({base, base + 1, base + 2});
  }
  const EncodedBvh bvh = build_bvh(mesh, BvhOptions{});
  const auto past_range = static_cast<uint64_t>(std::count_if(mesh.positions.begin(), mesh.positions.end(),
                                                               [](const Vec3& p) { return p[0] >= kMaxCoordinate; }));
  EXPECT_EQ(bvh.report.degenerate_triangles, past_range / 3);
  EXPECT_EQ(bvh.report.degenerate_triangles, 127u - 60u);  // 2^61 and up
  EXPECT_EQ(walk(bvh).triangle_pointers.size(), 61u);
}

}  // namespace
}  // namespace td::scene

// Two-level scenes: a glTF node graph read as instances, the TLAS over
// instance nodes, and the walk across levels, checked against Embree 3
// instancing on scenes made from real meshes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "model/isa/fp32.h"
#include "tb/common/rng.h"
#include "tb/scene/bvh.h"
#include "tb/scene/mesh_import.h"
#include "tb/scene/random_rays.h"
#include "tb/scene/scene_bvh.h"
#include "tb/scene/scene_error.h"
#include "tb/traversal/functional_trace.h"
#include "tests/scene/embree_reference.h"
#include "tests/scene/gltf_writer.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

using test::GltfNode;
using test::make_transform;

// A mesh scaled and moved into [-1, 1]^3 (real meshes come in any units).
Mesh unit_sized(Mesh mesh) {
  const Aabb box = usable_bounds(mesh);
  double size = 0;
  for (int a = 0; a < 3; ++a) size = std::max(size, double{box.max[a]} - box.min[a]);
  for (Vec3& p : mesh.positions)
    for (int a = 0; a < 3; ++a)
      p[a] = static_cast<float>((p[a] - 0.5 * (double{box.min[a]} + box.max[a])) * 2 / size);
  return mesh;
}

// Two meshes at unit size: the first real one (libcgal-demo's bunny when
// installed) and the last (assimp-testmodels' Wuson when installed), the
// committed mesh where a package is missing.
std::vector<Mesh> test_meshes() {
  const std::vector<std::string> paths = test::real_mesh_paths();  // ends with the committed mesh
  const std::string second = paths.size() > 2 ? paths[paths.size() - 2] : test::small_mesh_path();
  return {unit_sized(load_mesh(paths.front())), unit_sized(load_mesh(second))};
}

const Vec3 kX{1, 0, 0}, kY{0, 1, 0}, kZ{0, 0, 1};
const Vec3 kDiagonal{0.57735027f, 0.57735027f, 0.57735027f};

// Nested nodes, a mesh placed five times, rotations, non-uniform and
// mirrored scales, a mask.
std::vector<GltfNode> nested_nodes() {
  std::vector<GltfNode> nodes(9);
  nodes[0] = {"world", Transform3x4::identity(), std::nullopt, {1, 4, 6}, std::nullopt};
  nodes[1] = {"group", make_transform(kY, 0.7, {1, 1, 1}, {3, 0, 0}), std::nullopt, {2, 3}, std::nullopt};
  nodes[2] = {"a", Transform3x4::identity(), 0u, {}, std::nullopt};
  nodes[3] = {"b", make_transform(kX, 0.4, {1.5f, 0.5f, 1}, {0, 2, 0}), 0u, {}, 2};
  nodes[4] = {"mirror", make_transform(kY, 0, {-1, 1, 1}, {-3, 0, 0}), 1u, {5}, std::nullopt};
  nodes[5] = {"nested", make_transform(kZ, 1.1, {0.5f, 0.5f, 0.5f}, {0, 0, 2}), 0u, {}, std::nullopt};
  nodes[6] = {"deep1", make_transform(kX, 0.2, {1, 1, 1}, {0, -2.5f, 0}), std::nullopt, {7}, std::nullopt};
  nodes[7] = {"deep2", make_transform(kZ, -0.3, {1.2f, 1.2f, 1.2f}, {0.5f, 0, 0}), std::nullopt, {8}, std::nullopt};
  nodes[8] = {"deep3", make_transform(kDiagonal, 0.9, {2, -0.7f, 1.3f}, {0, 0, -1}), 1u, {}, std::nullopt};
  nodes[3].tapu = 4;  // bvh.tapu: scene pulls these up
  nodes[8].tapu = 16;
  return nodes;
}

// A crowd: 3 groups of 9, each instance rotated, scaled (some mirrored or
// stretched) and overlapping its neighbours.
std::vector<GltfNode> crowd_nodes() {
  tb::Rng rng(7);
  std::vector<GltfNode> nodes;
  nodes.push_back({"crowd", Transform3x4::identity(), std::nullopt, {}, std::nullopt});
  for (uint32_t g = 0; g < 3; ++g) {
    const auto group = static_cast<uint32_t>(nodes.size());
    nodes[0].children.push_back(group);
    nodes.push_back({fmt::format("row{}", g), make_transform(kY, 0.3 * g, {1, 1, 1}, {0, 0, 2.0f * g}),
                     std::nullopt, {}, std::nullopt});
    for (uint32_t k = 0; k < 9; ++k) {
      const auto index = static_cast<uint32_t>(nodes.size());
      nodes[group].children.push_back(index);
      const float sx = (k % 4 == 0 ? -1.0f : 1.0f) * static_cast<float>(0.5 + rng.uniform(0, 1));
      const float sy = static_cast<float>(0.5 + rng.uniform(0, 1));
      const Vec3 translation{1.4f * k - 6, static_cast<float>(rng.uniform(0, 1) - 0.5), static_cast<float>(rng.uniform(0, 1))};
      nodes.push_back({fmt::format("item{}_{}", g, k),
                       make_transform(random_unit_vector(rng), 6.28 * rng.uniform(0, 1), {sx, sy, sx}, translation),
                       (g + k) % 2, {}, std::nullopt});
    }
  }
  return nodes;
}

Scene written_and_read(const std::string& name, const std::vector<Mesh>& meshes, const std::vector<GltfNode>& nodes) {
  const std::string path = test::temp_dir(name) + "/scene.gltf";
  test::write_gltf(path, meshes, nodes);
  return load_scene(path);
}

Aabb world_bounds(const Scene& scene) {
  Aabb box = empty_box();
  for (const Instance& instance : scene.instances)
    box = merge(box, world_box(usable_bounds(scene.blases[instance.blas]), instance.object_to_world));
  return box;
}

TEST(TwoLevelImport, NodeGraphBecomesInstancesInDepthFirstPreOrder) {
  const std::vector<GltfNode> nodes = nested_nodes();
  const Scene scene = written_and_read("preorder", test_meshes(), nodes);
  const std::vector<Instance> expected = test::expected_instances(nodes);
  ASSERT_EQ(scene.blases.size(), 2u);  // a mesh placed by several nodes is one BLAS
  ASSERT_EQ(scene.instances.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(scene.instances[i].blas, expected[i].blas) << i;
    EXPECT_EQ(scene.instances[i].mask, expected[i].mask) << i;
    EXPECT_EQ(scene.instances[i].tapu, expected[i].tapu) << i;
    EXPECT_NE(scene.instances[i].node.find(expected[i].node), std::string::npos) << scene.instances[i].node;
    for (int k = 0; k < 12; ++k)
      EXPECT_NEAR(scene.instances[i].object_to_world.m[k], expected[i].object_to_world.m[k], 1e-5) << i << " " << k;
  }
}

TEST(TwoLevelImport, AFileWithoutANodeGraphIsOneIdentityInstance) {
  const Scene scene = load_scene(test::small_mesh_path());
  ASSERT_EQ(scene.blases.size(), 1u);
  ASSERT_EQ(scene.instances.size(), 1u);
  EXPECT_TRUE(scene.instances[0].object_to_world.is_identity());
  EXPECT_EQ(scene.blases[0].triangle_count(), load_mesh(test::small_mesh_path()).triangle_count());
}

TEST(TwoLevelImport, BadMasksAndSingularTransformsNameTheNode) {
  std::vector<GltfNode> nodes = nested_nodes();
  nodes[5].mask = 300;
  try {
    written_and_read("badmask", test_meshes(), nodes);
    FAIL() << "a mask of 300 was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("nested"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0..255"), std::string::npos) << e.what();
  }
  for (const int tapu : {5, -4, 256}) {
    nodes = nested_nodes();
    nodes[5].tapu = tapu;
    try {
      written_and_read("badtapu", test_meshes(), nodes);
      FAIL() << "a tapu of " << tapu << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("'world/mirror/nested': extras tdsim.tapu: must be 0, 4 or 16"),
                std::string::npos)
          << e.what();
    }
  }
  nodes = nested_nodes();
  nodes[3].local = make_transform(kX, 0.4, {1, 0, 1}, {0, 0, 0});
  const Scene flat = written_and_read("singular", test_meshes(), nodes);
  try {
    build_scene_bvh(flat, BvhOptions{});
    FAIL() << "a singular transform was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("'world/group/b'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
  }
  Scene infinite = flat;
  infinite.instances[0].object_to_world = Transform3x4::identity();
  infinite.instances[0].object_to_world.m[3] = INFINITY;
  infinite.instances[2] = infinite.instances[0];
  EXPECT_THROW(build_scene_bvh(infinite, BvhOptions{}), SceneError);
}

TEST(SceneBvh, InstanceNodesHoldTheirInstanceAndEveryBlasIsBuiltOnceWithAnFp32Root) {
  const Scene scene = written_and_read("layout", test_meshes(), nested_nodes());
  BvhOptions options;
  options.tapu = TapuPolicy::kOff;
  options.fp16_threshold = INFINITY;  // FP16 wherever allowed: the BLAS roots still are not
  options.fp16 = Fp16Policy::kAll;
  const EncodedBvh bvh = build_scene_bvh(scene, options);
  ASSERT_TRUE(bvh.two_level());
  // The TLAS is FP32 throughout, as gpurt builds one; every BLAS box node
  // but the root is FP16.
  EXPECT_EQ(bvh.report.box16_nodes, 0u);
  EXPECT_GT(bvh.report.box32_nodes, 0u);
  for (const BvhLayout& blas : bvh.blases)
    if (blas.unit_count > 0) {
      EXPECT_EQ(blas.report.box32_nodes, 1u);
    }
  EXPECT_EQ(bvh.blases.size(), scene.blases.size());
  EXPECT_EQ(bvh.instance_index.size(), scene.instances.size());
  EXPECT_EQ(bvh.scene_report.instanced_triangles, scene.instanced_triangles());
  std::vector<bool> seen(scene.instances.size(), false);
  for (size_t k = 0; k < bvh.instance_index.size(); ++k) {
    uint8_t bytes[kInstanceNodeBytes];
    bvh.memory.read((bvh.first_instance_unit + 2 * k) * kNodeUnitBytes, bytes, sizeof bytes);
    const InstanceNode node = decode_instance(bytes);
    const Instance& instance = scene.instances[bvh.instance_index[k]];
    EXPECT_FALSE(seen[node.index]);
    seen[node.index] = true;
    EXPECT_EQ(node.index, bvh.instance_index[k]);
    EXPECT_EQ(node.mask, instance.mask);
    EXPECT_EQ(node.object_to_world.m, instance.object_to_world.m);
    const BvhLayout& blas = bvh.blases[instance.blas];
    EXPECT_EQ(node.blas_root, (blas.base_unit << 3) + blas.root);
    EXPECT_EQ(node.start, blas.root);  // (no TAPU here)
    EXPECT_EQ((NodePtr{node.blas_root, true}.type()), NodeType::kBox32);
    EXPECT_EQ(blas.base_unit % 4, 0u);  // 256-byte aligned
    // world_to_object undoes object_to_world.
    const Vec3 p{0.3f, -0.2f, 0.7f};
    const Vec3 back = apply_point(node.world_to_object, apply_point(node.object_to_world, p));
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(back[a], p[a], 1e-5);
  }
  const EncodedBvh again = build_scene_bvh(scene, options);
  EXPECT_EQ(again.instance_index, bvh.instance_index);
  std::vector<uint8_t> a(bvh.scene_report.bytes), b(again.scene_report.bytes);
  bvh.memory.read(0, a.data(), a.size());
  again.memory.read(0, b.data(), b.size());
  EXPECT_TRUE(a == b) << "the same scene built twice gave different bytes";
}

// The TLAS pull-up: one instance node per BLAS node pulled up, each
// starting at that node (that the boxes hold what they should, the hits
// agreeing with Embree's say).
TEST(SceneBvh, TapuPullsUpTheFirstOrSecondBlasLevelAsInstanceNodesStartingThere) {
  const Scene scene = written_and_read("tapu", test_meshes(), nested_nodes());
  for (const TapuPolicy policy : {TapuPolicy::kTapu4, TapuPolicy::kTapu16, TapuPolicy::kScene}) {
    SCOPED_TRACE(tapu_policy_name(policy));
    BvhOptions options;
    options.tapu = policy;
    const EncodedBvh bvh = build_scene_bvh(scene, options);
    const SceneReport& report = bvh.scene_report;
    ASSERT_TRUE(bvh.tapu);
    EXPECT_EQ(report.pulled_up_instances, policy == TapuPolicy::kScene ? 2u : scene.instances.size());
    EXPECT_EQ(report.instance_nodes, bvh.instance_index.size());
    EXPECT_GT(report.instance_nodes, report.placed_instances);
    // Per instance: its nodes' start pointers, each a different node of its BLAS.
    std::vector<std::vector<uint32_t>> starts(scene.instances.size());
    for (size_t k = 0; k < bvh.instance_index.size(); ++k) {
      uint8_t bytes[kInstanceNodeBytes];
      bvh.memory.read((bvh.first_instance_unit + 2 * k) * kNodeUnitBytes, bytes, sizeof bytes);
      const InstanceNode node = decode_instance(bytes);
      EXPECT_EQ(node.index, bvh.instance_index[k]);
      starts[node.index].push_back(node.start);
    }
    for (size_t i = 0; i < scene.instances.size(); ++i) {
      const uint32_t tapu = policy == TapuPolicy::kTapu4    ? 4
                            : policy == TapuPolicy::kTapu16 ? 16
                                                            : scene.instances[i].tapu;
      const BvhLayout& blas = bvh.blases[scene.instances[i].blas];
      // The BLAS root's children, read from memory, and theirs.
      uint8_t bytes[kMaxNodeBytes];
      bvh.memory.read(blas.base_unit * kNodeUnitBytes, bytes, 128);
      std::vector<uint32_t> want;
      for (const uint32_t child : decode_box32(bytes).child) {
        if (child == kInvalidChild) continue;
        const NodePtr ptr{child};
        if (tapu == 4 || !is_box(ptr.type())) {
          want.push_back(child);
          continue;
        }
        const bool fp16 = ptr.type() == NodeType::kBox16;
        bvh.memory.read((blas.base_unit + ptr.unit()) * kNodeUnitBytes, bytes, fp16 ? 64 : 128);
        for (const uint32_t grandchild : (fp16 ? decode_box16(bytes) : decode_box32(bytes)).child)
          if (grandchild != kInvalidChild) want.push_back(grandchild);
      }
      if (tapu == 0) want = {blas.root};
      std::sort(want.begin(), want.end());
      std::sort(starts[i].begin(), starts[i].end());
      EXPECT_EQ(starts[i], want) << "instance " << i << " (tapu " << tapu << ")";
    }
  }
}

struct Agreement {
  size_t rays = 0, hit_mismatches = 0, hits = 0, same_instance_and_primitive = 0, t_off = 0;
  double worst_t = 0;
};

Agreement compare_with_embree(const Scene& scene, const EncodedBvh& bvh, const std::vector<SceneRay>& rays,
                              const traversal::TraversalOptions& options) {
  const test::EmbreeSceneReference embree(scene, options.instance_mask);
  Agreement agreement;
  for (const SceneRay& ray : rays) {
    ++agreement.rays;
    const RayHit ours = traversal::trace_ray(bvh, ray, options);
    if (options.mode == traversal::HitMode::kAny) {
      agreement.hit_mismatches += ours.hit != embree.occluded(ray) ? 1 : 0;
      continue;
    }
    const RayHit theirs = embree.intersect(ray);
    if (ours.hit != theirs.hit) {
      ++agreement.hit_mismatches;
      continue;
    }
    if (!ours.hit) continue;
    ++agreement.hits;
    agreement.same_instance_and_primitive +=
        ours.instance == theirs.instance && ours.primitive == theirs.primitive ? 1 : 0;
    const double relative = std::fabs(double{ours.t} - theirs.t) / std::max(1e-30, std::fabs(double{theirs.t}));
    agreement.worst_t = std::max(agreement.worst_t, relative);
    agreement.t_off += relative > 1e-4 ? 1 : 0;
  }
  return agreement;
}

void expect_agreement(const Agreement& a, const std::string& what) {
  SCOPED_TRACE(what);
  std::printf("%s: %zu rays, %zu hit/miss differ, %zu hits, %zu same instance and primitive, %zu t past 1e-4 "
              "(worst %.3g)\n",
              what.c_str(), a.rays, a.hit_mismatches, a.hits, a.same_instance_and_primitive, a.t_off, a.worst_t);
  ASSERT_GT(a.rays, 0u);
  EXPECT_LE(a.hit_mismatches, a.rays / 1000) << a.hit_mismatches << " of " << a.rays << " rays differ in hit/miss";
  EXPECT_LE(a.t_off, a.rays / 1000) << a.t_off << " hits' t differ by more than 1e-4 (worst " << a.worst_t << ")";
  EXPECT_GE(a.same_instance_and_primitive, a.hits * 99 / 100) << a.same_instance_and_primitive << " of " << a.hits;
}

TEST(TwoLevelTraversal, HitsAgreeWithEmbreeInstancingOnTwoSceneGraphsOfRealMeshes) {
  const std::vector<Mesh> meshes = test_meshes();
  for (const auto& [name, nodes] : {std::pair{std::string("nested"), nested_nodes()}, std::pair{std::string("crowd"), crowd_nodes()}}) {
    const Scene scene = written_and_read(name, meshes, nodes);
    const EncodedBvh bvh = build_scene_bvh(scene, BvhOptions{});
    const std::vector<SceneRay> rays = random_rays(world_bounds(scene), 20000, 11);
    traversal::TraversalOptions options;
    const Agreement closest = compare_with_embree(scene, bvh, rays, options);
    expect_agreement(closest, name + " closest hit");
    EXPECT_GT(closest.hits, rays.size() / 10) << "too few hits to say anything";
    options.mode = traversal::HitMode::kAny;
    expect_agreement(compare_with_embree(scene, bvh, rays, options), name + " any hit");
    // The drivers' way: parent links, a 16-entry stack that falls back to them.
    // And with each run-time builder at both levels.
    traversal::TraversalOptions parents;
    parents.overflow = traversal::Overflow::kParentPointers;
    for (const BvhBuilder builder : {BvhBuilder::kSah, BvhBuilder::kPloc, BvhBuilder::kLbvh}) {
      BvhOptions with_links;
      with_links.parent_links = true;
      with_links.tlas_builder = with_links.blas_builder = builder;
      const EncodedBvh linked = build_scene_bvh(scene, with_links);
      expect_agreement(compare_with_embree(scene, linked, rays, parents),
                       name + " closest hit, parent pointers, " + builder_name(builder));
    }
    // And with every instance pulled up (TAPU 4, 16), both ways back.
    for (const TapuPolicy tapu : {TapuPolicy::kTapu4, TapuPolicy::kTapu16}) {
      BvhOptions pulled;
      pulled.parent_links = true;
      pulled.tlas_builder = pulled.blas_builder = BvhBuilder::kPloc;
      pulled.tapu = tapu;
      const EncodedBvh linked = build_scene_bvh(scene, pulled);
      ASSERT_TRUE(linked.tapu);
      const std::string what = name + " TAPU " + tapu_policy_name(tapu);
      expect_agreement(compare_with_embree(scene, linked, rays, parents), what + " closest hit, parent pointers");
      traversal::TraversalOptions any;
      any.mode = traversal::HitMode::kAny;
      expect_agreement(compare_with_embree(scene, linked, rays, any), what + " any hit, restart");
    }
  }
}

TEST(TwoLevelTraversal, InstanceMasksLeaveOutTheInstancesTheRayDoesNotSelect) {
  std::vector<GltfNode> nodes = nested_nodes();  // "b" has mask 2
  nodes[5].mask = 4;
  const Scene scene = written_and_read("masks", test_meshes(), nodes);
  const EncodedBvh bvh = build_scene_bvh(scene, BvhOptions{});
  const std::vector<SceneRay> rays = random_rays(world_bounds(scene), 10000, 5);
  for (const uint8_t mask : {uint8_t{0xff}, uint8_t{0x02}, uint8_t{0xfd}, uint8_t{0x04}, uint8_t{0}}) {
    traversal::TraversalOptions options;
    options.instance_mask = mask;
    const Agreement a = compare_with_embree(scene, bvh, rays, options);
    expect_agreement(a, fmt::format("mask {:#x}", mask));
    if (mask == 0) {
      EXPECT_EQ(a.hits, 0u);
    }
  }
}

TEST(TwoLevelTraversal, ShortStacksFindWhatADeepOneFindsAcrossLevels) {
  const Scene scene = written_and_read("stacks", test_meshes(), crowd_nodes());
  const EncodedBvh bvh = build_scene_bvh(scene, BvhOptions{});
  const std::vector<SceneRay> rays = random_rays(world_bounds(scene), 4000, 3);
  traversal::TraversalOptions deep;
  deep.stack_entries = 64;
  std::vector<RayHit> reference;
  traversal::trace_rays(bvh, rays, deep, reference);
  for (const uint32_t entries : {1u, 2u, 3u, 16u}) {
    traversal::TraversalOptions options;
    options.stack_entries = entries;
    std::vector<RayHit> hits;
    traversal::TraceTotals totals;
    traversal::trace_rays(bvh, rays, options, hits, &totals);
    if (entries <= 2) {
      EXPECT_GT(totals.restarts, 0u) << entries;
    }
    EXPECT_GT(totals.transforms, 0u);
    for (size_t i = 0; i < rays.size(); ++i) {
      ASSERT_EQ(hits[i].hit, reference[i].hit) << entries << " entries, ray " << i;
      if (!hits[i].hit) continue;
      EXPECT_EQ(bits_of(hits[i].t), bits_of(reference[i].t)) << entries << " entries, ray " << i;
      EXPECT_EQ(hits[i].instance, reference[i].instance) << entries << " entries, ray " << i;
      EXPECT_EQ(hits[i].primitive, reference[i].primitive) << entries << " entries, ray " << i;
    }
  }
}

TEST(TwoLevelTraversal, ParentPointersFindWhatADeepStackFindsAcrossLevelsWithEveryStackSize) {
  const Scene scene = written_and_read("parents", test_meshes(), crowd_nodes());
  const std::vector<SceneRay> rays = random_rays(world_bounds(scene), 1000, 13);
  // Without TAPU the way back leaves a BLAS at its root; with it, at the
  // node the instance node starts at.
  for (const TapuPolicy tapu : {TapuPolicy::kOff, TapuPolicy::kTapu16})
  for (const traversal::HitMode mode : {traversal::HitMode::kClosest, traversal::HitMode::kAny}) {
    SCOPED_TRACE(tapu_policy_name(tapu));
    BvhOptions with_links;
    with_links.parent_links = true;
    with_links.tapu = tapu;
    const EncodedBvh bvh = build_scene_bvh(scene, with_links);
    ASSERT_TRUE(bvh.parent_links);
    traversal::TraversalOptions deep;
    deep.mode = mode;
    deep.overflow = traversal::Overflow::kParentPointers;
    deep.stack_entries = 64;
    std::vector<RayHit> reference, restarted;
    traversal::trace_rays(bvh, rays, deep, reference);
    traversal::TraversalOptions restart = deep;
    restart.overflow = traversal::Overflow::kRestart;
    traversal::trace_rays(bvh, rays, restart, restarted);
    for (uint32_t entries = 1; entries <= 64; ++entries) {
      traversal::TraversalOptions options = deep;
      options.stack_entries = entries;
      std::vector<RayHit> hits;
      traversal::TraceTotals totals;
      traversal::trace_rays(bvh, rays, options, hits, &totals);
      EXPECT_EQ(totals.restarts, 0u);
      EXPECT_EQ(totals.faults, 0u);
      if (entries <= 2) {
        EXPECT_GT(totals.parent_loads, 0u) << entries;
        EXPECT_GT(totals.reissues, 0u) << entries;
      }
      for (size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(hits[i].hit, reference[i].hit) << entries << " entries, ray " << i;
        ASSERT_EQ(hits[i].hit, restarted[i].hit) << entries << " entries, ray " << i;
        if (!hits[i].hit || mode == traversal::HitMode::kAny) continue;
        EXPECT_EQ(bits_of(hits[i].t), bits_of(reference[i].t)) << entries << " entries, ray " << i;
        EXPECT_EQ(hits[i].instance, reference[i].instance) << entries << " entries, ray " << i;
        EXPECT_EQ(hits[i].primitive, reference[i].primitive) << entries << " entries, ray " << i;
        EXPECT_EQ(bits_of(hits[i].t), bits_of(restarted[i].t)) << entries << " entries, ray " << i;
      }
    }
  }
}

TEST(SceneBvh, EveryParentLinkNamesTheBoxNodeThatPointsAtItAndTheRootsAreAllOnes) {
  const Scene scene = written_and_read("links", test_meshes(), nested_nodes());
  BvhOptions with_links;
  with_links.parent_links = true;
  const EncodedBvh bvh = build_scene_bvh(scene, with_links);
  const EncodedBvh plain = build_scene_bvh(scene, BvhOptions{});
  EXPECT_GT(bvh.scene_report.bytes, plain.scene_report.bytes);
  EXPECT_EQ(bvh.report.link_bytes, 4 * bvh.unit_count);
  // The TLAS's bytes (links and alignment included) and the BLASes' make the whole.
  for (const EncodedBvh* b : {&bvh, &plain}) {
    EXPECT_EQ(b->scene_report.tlas_bytes + b->scene_report.blas_bytes, b->scene_report.bytes);
    EXPECT_GE(b->scene_report.tlas_bytes, b->report.bytes);
  }
  // Triangles per triangle node, as one BLAS's report counts them (stored ones).
  double stored = 0;
  uint64_t nodes = 0;
  for (const BvhLayout& blas : bvh.blases) {
    stored += blas.report.triangles_per_triangle_node * blas.report.triangle_nodes;
    nodes += blas.report.triangle_nodes;
  }
  EXPECT_NEAR(bvh.scene_report.blas_totals.triangles_per_triangle_node, stored / nodes, 1e-9);
  const auto link = [&](uint64_t base_address, uint64_t unit) {
    uint8_t b[4];
    bvh.memory.read(base_address - 4 * unit - 4, b, 4);
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  };
  // Walks one BVH's box nodes from its root: each child's link is the box
  // node that holds it. Returns the number of children checked.
  const auto check = [&](uint64_t base_address, uint32_t root) {
    size_t checked = 0;
    EXPECT_EQ(link(base_address, NodePtr{root}.unit()), kNoParent);
    std::vector<uint32_t> boxes{root};
    while (!boxes.empty()) {
      const NodePtr box{boxes.back()};
      boxes.pop_back();
      NodeBytes bytes{};
      bvh.memory.read(base_address + box.unit() * kNodeUnitBytes, bytes.data(), node_bytes(box.type()));
      const BoxNode node = box.type() == NodeType::kBox16 ? decode_box16(bytes.data()) : decode_box32(bytes.data());
      for (uint32_t child : node.child) {
        if (child == kInvalidChild) continue;
        EXPECT_EQ(link(base_address, NodePtr{child}.unit()), box.raw) << "child " << child;
        ++checked;
        if (is_box(NodePtr{child}.type())) boxes.push_back(child);
      }
    }
    return checked;
  };
  const uint64_t base = bvh.descriptor.base_address();
  EXPECT_EQ(base % 256, 0u);
  EXPECT_GT(check(base, bvh.root), bvh.instance_index.size() - 1);  // the TLAS down to its instance nodes
  for (const BvhLayout& blas : bvh.blases)
    if (blas.unit_count > 0) {
      EXPECT_GT(check(base + blas.base_unit * kNodeUnitBytes, blas.root), 0u);
    }
}

TEST(TwoLevelTraversal, TheWalkCountsEveryInstanceNodeAndItsTransform) {
  const Scene scene = written_and_read("counts", test_meshes(), nested_nodes());
  const EncodedBvh bvh = build_scene_bvh(scene, BvhOptions{});
  // From far along -z through instance "a": every instance node on the
  // way is an instruction (answered all ones) and, mask passed, a transform.
  SceneRay ray;
  ray.origin = {3.02f, 0.05f, -40};  // through instance "a" (the group's translation)
  ray.dir = {0, 0, 1};
  traversal::TraversalCounters counters;
  traversal::trace_ray(bvh, ray, traversal::TraversalOptions{}, &counters);
  EXPECT_GT(counters.instance_steps, 0u);
  EXPECT_LE(counters.transforms, counters.instance_steps);
  EXPECT_GT(counters.blas_box_steps, 0u);
  EXPECT_GT(counters.box_steps, counters.blas_box_steps);  // the TLAS's
  EXPECT_EQ(counters.faults, 0u);
  EXPECT_EQ(counters.steps(), counters.box_steps + counters.triangle_steps + counters.instance_steps);
}

}  // namespace
}  // namespace td::scene

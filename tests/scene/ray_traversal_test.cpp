// The functional traversal on the golden reference against Embree's own
// rtcIntersect1 (robust mode) on the same mesh and rays; any-hit stopping
// early; short stacks with restarts finding exactly what a deep stack finds.
#include <gtest/gtest.h>

#include <cmath>

#include "model/isa/fp32.h"
#include "tb/scene/bvh.h"
#include "tb/scene/camera_rays.h"
#include "tb/scene/default_scene.h"
#include "tb/scene/mesh_import.h"
#include "tb/scene/random_rays.h"
#include "tb/scene/secondary_rays.h"
#include "tb/traversal/functional_trace.h"
#include "tests/scene/embree_reference.h"
#include "tests/scene/test_meshes.h"

namespace td::traversal {
namespace {

using scene::BvhOptions;
using scene::EncodedBvh;
using scene::Mesh;
using scene::RayHit;
using scene::SceneRay;

// Random rays through the mesh plus a small camera frame of it.
std::vector<SceneRay> test_rays(const EncodedBvh& bvh, size_t random_count, uint64_t seed) {
  std::vector<SceneRay> rays = scene::random_rays(bvh.bounds, random_count, seed);
  const scene::PrimaryRays frame(scene::frame_bounds(bvh.bounds, 96, 64), 96, 64);
  const auto primary = frame.rays(0, frame.count());
  rays.insert(rays.end(), primary.begin(), primary.end());
  return rays;
}

struct Agreement {
  size_t rays = 0, hits = 0;
  size_t agree = 0;           // same hit/miss and, for hits, t within 1e-4 relative
  size_t same_primitive = 0;  // both hit the same triangle
  size_t uv_close = 0;        // ... with barycentrics within 1e-3
};

Agreement compare_with_embree(const Mesh& mesh, const EncodedBvh& bvh, const std::vector<SceneRay>& rays,
                              const TraversalOptions& options) {
  const scene::test::EmbreeReference embree(mesh);
  std::vector<RayHit> ours;
  TraceTotals totals;
  trace_rays(bvh, rays, options, ours, &totals);
  EXPECT_EQ(totals.faults, 0u);
  Agreement a;
  for (size_t i = 0; i < rays.size(); ++i) {
    const RayHit theirs = embree.intersect(rays[i]);
    ++a.rays;
    a.hits += ours[i].hit ? 1 : 0;
    if (ours[i].hit != theirs.hit) continue;
    if (!ours[i].hit) {
      ++a.agree;
      continue;
    }
    // Single-precision t differs between the two triangle tests where it
    // cancels: slivers, origins a hair off a large triangle. Hence a share.
    if (std::fabs(ours[i].t - theirs.t) <= 1e-4f * std::fabs(theirs.t)) ++a.agree;
    if (ours[i].primitive != theirs.primitive) continue;
    ++a.same_primitive;
    if (std::isnan(ours[i].u) || (std::fabs(ours[i].u - theirs.u) < 1e-3f && std::fabs(ours[i].v - theirs.v) < 1e-3f))
      ++a.uv_close;
  }
  return a;
}

void expect_agreement(const Agreement& a) {
  EXPECT_GT(a.hits, a.rays / 4) << "too few hits to mean anything";
  EXPECT_GE(a.agree, a.rays * 999 / 1000) << a.agree << " of " << a.rays;
  EXPECT_GE(a.same_primitive, a.hits * 99 / 100);
  EXPECT_GE(a.uv_close, a.same_primitive * 999 / 1000) << "barycentrics in the mesh's vertex order";
}

TEST(RayTraversal, ClosestHitsAgreeWithEmbreeOnRealMeshes) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (const std::string& path : scene::test::real_mesh_paths()) {
    for (scene::BvhQuality quality : {scene::BvhQuality::kNormal, scene::BvhQuality::kHigh}) {
      SCOPED_TRACE(path + " " + scene::quality_name(quality));
      const Mesh mesh = scene::load_mesh(path);
      BvhOptions options;
      options.quality = quality;
      const EncodedBvh bvh = scene::build_bvh(mesh, options);
      expect_agreement(compare_with_embree(mesh, bvh, test_rays(bvh, 20000, 1), TraversalOptions{}));
    }
  }
}

TEST(RayTraversal, EveryBuilderWithParentPointersAgreesWithEmbreeOnRealMeshes) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  for (const std::string& path : scene::test::real_mesh_paths()) {
    const Mesh mesh = scene::load_mesh(path);
    for (scene::BvhBuilder builder : {scene::BvhBuilder::kLbvh, scene::BvhBuilder::kPloc, scene::BvhBuilder::kSah}) {
      SCOPED_TRACE(path + " " + scene::builder_name(builder));
      BvhOptions options;
      options.blas_builder = builder;
      options.parent_links = true;
      const EncodedBvh bvh = scene::build_bvh(mesh, options);
      EXPECT_EQ(bvh.report.builder, scene::builder_name(builder));
      TraversalOptions walk;
      walk.overflow = Overflow::kParentPointers;
      expect_agreement(compare_with_embree(mesh, bvh, test_rays(bvh, 5000, 3), walk));
    }
  }
}

TEST(RayTraversal, ClosestHitsAgreeWithEmbreeOnTheDefaultScene) {
  const Mesh mesh = scene::make_default_scene();
  for (scene::BvhQuality quality : {scene::BvhQuality::kNormal, scene::BvhQuality::kHigh}) {
    SCOPED_TRACE(scene::quality_name(quality));
    BvhOptions options;
    options.quality = quality;
    const EncodedBvh bvh = scene::build_bvh(mesh, options);
    expect_agreement(compare_with_embree(mesh, bvh, test_rays(bvh, 20000, 2), TraversalOptions{}));
  }
}

TEST(RayTraversal, EveryPackingFp16SettingAndReturnModeFindsTheSameHits) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = scene::load_mesh(scene::test::largest_mesh_path());
  const EncodedBvh reference_bvh = scene::build_bvh(mesh, BvhOptions{});
  const std::vector<SceneRay> rays = test_rays(reference_bvh, 5000, 3);
  std::vector<RayHit> expected;
  trace_rays(reference_bvh, rays, {}, expected);
  for (scene::TrianglePacking pack : {scene::TrianglePacking::kSingle, scene::TrianglePacking::kPairs}) {
    for (double threshold : {-1.0, double(INFINITY)}) {
      for (uint32_t mode : {0u, 1u}) {
        SCOPED_TRACE(std::string(scene::packing_name(pack)) + " fp16 " + std::to_string(threshold) + " mode " +
                     std::to_string(mode));
        BvhOptions options;
        options.pack = pack;
        options.fp16_threshold = threshold;
        options.return_mode = mode;
        const EncodedBvh bvh = scene::build_bvh(mesh, options);
        std::vector<RayHit> hits;
        trace_rays(bvh, rays, {}, hits);
        size_t same = 0;
        for (size_t i = 0; i < rays.size(); ++i) {
          // The edge tests are the same whatever the layout, but a triangle
          // stored in another rotation sums det and T in another order, and
          // looser FP16 boxes only add box tests: t may move by rounding.
          same += hits[i].hit == expected[i].hit &&
                          (!hits[i].hit || std::fabs(hits[i].t - expected[i].t) <= 1e-5f * expected[i].t)
                      ? 1
                      : 0;
          if (mode == 0) {
            EXPECT_TRUE(!hits[i].hit || std::isnan(hits[i].u));
          }
        }
        EXPECT_GE(same, rays.size() * 9995 / 10000);
      }
    }
  }
}

TEST(RayTraversal, ShortStacksRestartAndFindExactlyWhatADeepStackFinds) {
  const Mesh mesh = scene::make_default_scene();
  const EncodedBvh bvh = scene::build_bvh(mesh, BvhOptions{});
  const std::vector<SceneRay> rays = test_rays(bvh, 3000, 4);
  for (HitMode mode : {HitMode::kClosest, HitMode::kAny}) {
    TraversalOptions deep;
    deep.mode = mode;
    deep.stack_entries = RayTraversal::kMaxStackEntries;
    std::vector<RayHit> expected;
    TraceTotals deep_totals;
    trace_rays(bvh, rays, deep, expected, &deep_totals);
    EXPECT_EQ(deep_totals.restarts, 0u);
    for (uint32_t entries : {1u, 2u, 4u, 8u}) {
      SCOPED_TRACE("stack " + std::to_string(entries));
      TraversalOptions shallow = deep;
      shallow.stack_entries = entries;
      std::vector<RayHit> hits;
      TraceTotals totals;
      trace_rays(bvh, rays, shallow, hits, &totals);
      if (entries <= 2) {
        EXPECT_GT(totals.restarts, 0u);
      }
      EXPECT_LE(totals.max_stack, entries);
      for (size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(hits[i].hit, expected[i].hit) << "ray " << i;
        if (mode == HitMode::kAny) continue;
        ASSERT_EQ(hits[i].t, expected[i].t) << "ray " << i;
        ASSERT_EQ(hits[i].primitive, expected[i].primitive) << "ray " << i;
      }
    }
  }
}

TEST(RayTraversal, AnyHitAgreesOnOcclusionAndStopsEarly) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
  const Mesh mesh = scene::load_mesh(scene::test::largest_mesh_path());
  const EncodedBvh bvh = scene::build_bvh(mesh, BvhOptions{});
  const scene::test::EmbreeReference embree(mesh);
  const std::vector<SceneRay> rays = test_rays(bvh, 5000, 5);
  TraversalOptions closest, any;
  any.mode = HitMode::kAny;
  size_t fewer = 0, agree = 0;
  for (const SceneRay& ray : rays) {
    TraversalCounters closest_steps, any_steps;
    const RayHit c = trace_ray(bvh, ray, closest, &closest_steps);
    const RayHit a = trace_ray(bvh, ray, any, &any_steps);
    ASSERT_EQ(a.hit, c.hit);
    EXPECT_LE(any_steps.steps(), closest_steps.steps());
    fewer += any_steps.steps() < closest_steps.steps() ? 1 : 0;
    agree += a.hit == embree.occluded(ray) ? 1 : 0;
    if (a.hit) {
      EXPECT_GE(a.t, c.t);
    }
  }
  EXPECT_GT(fewer, rays.size() / 10);
  EXPECT_GE(agree, rays.size() * 999 / 1000);
}

TEST(RayTraversal, TmaxLimitsTheSearchAndFrontFaceFollowsTheWinding) {
  // A triangle in the z = 0 plane, normal (P1-P0) x (P2-P0) = +z.
  const Mesh mesh = scene::test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
  const EncodedBvh bvh = scene::build_bvh(mesh, BvhOptions{});
  SceneRay down;
  down.origin = {0.25f, 0.25f, 2};
  down.dir = {0, 0, -1};
  RayHit hit = trace_ray(bvh, down, {});
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.t, 2.0f);
  EXPECT_EQ(hit.primitive, 0u);
  EXPECT_TRUE(hit.front_face);  // travelling against the normal
  EXPECT_FLOAT_EQ(hit.u, 0.25f);
  EXPECT_FLOAT_EQ(hit.v, 0.25f);
  down.tmax = 1.5f;
  EXPECT_FALSE(trace_ray(bvh, down, {}).hit);
  SceneRay up;
  up.origin = {0.25f, 0.5f, -1};
  up.dir = {0, 0, 1};
  hit = trace_ray(bvh, up, {});
  ASSERT_TRUE(hit.hit);
  EXPECT_FALSE(hit.front_face);
  EXPECT_FLOAT_EQ(hit.u, 0.25f);
  EXPECT_FLOAT_EQ(hit.v, 0.5f);
}

TEST(RayTraversal, InvalidRaysAreMissesWithoutAStep) {
  const Mesh mesh = scene::load_mesh(scene::test::small_mesh_path());
  const EncodedBvh bvh = scene::build_bvh(mesh, BvhOptions{});
  SceneRay ray;
  ray.origin = {NAN, 0, 0};
  ray.dir = {1, 0, 0};
  TraversalCounters counters;
  EXPECT_FALSE(trace_ray(bvh, ray, {}, &counters).hit);
  EXPECT_EQ(counters.steps(), 0u);
  TraversalOptions bad;
  bad.stack_entries = 0;
  RayTraversal traversal;
  EXPECT_THROW(traversal.start(bvh, ray, bad), std::invalid_argument);
}

TEST(RayTraversal, DiffuseRaysFromHitsNeverHitTheirOwnTriangle) {
  const Mesh mesh = scene::make_default_scene();
  const EncodedBvh bvh = scene::build_bvh(mesh, BvhOptions{});
  const scene::PrimaryRays frame(scene::frame_bounds(bvh.bounds, 160, 90), 160, 90);
  const auto primary = frame.rays(0, frame.count());
  std::vector<RayHit> hits;
  trace_rays(bvh, primary, {}, hits);
  std::vector<scene::SurfacePoint> points;
  std::vector<uint32_t> primitives;
  for (size_t i = 0; i < primary.size(); ++i) {
    if (!hits[i].hit) continue;
    points.push_back(scene::surface_point(mesh, primary[i], hits[i]));
    primitives.push_back(hits[i].primitive);
  }
  ASSERT_GT(points.size(), primary.size() / 8);
  const auto bounces = scene::diffuse_rays(points, 9);
  std::vector<RayHit> second;
  trace_rays(bvh, bounces, {}, second);
  for (size_t i = 0; i < bounces.size(); ++i) {
    if (second[i].hit) {
      EXPECT_NE(second[i].primitive, primitives[i]) << "self-hit at t " << second[i].t;
    }
  }
  // Shadow rays towards a light above the scene: an any-hit query each.
  TraversalOptions any;
  any.mode = HitMode::kAny;
  std::vector<RayHit> shadowed;
  TraceTotals totals;
  trace_rays(bvh, scene::shadow_rays(points, {0, 40, 10}), any, shadowed, &totals);
  EXPECT_GT(totals.hits, 0u);
  EXPECT_LT(totals.hits, points.size());
}

// Triangles across the x axis at x = 2^(i - 59), each a quarter as tall as
// its distance from the origin (the scene looks the same at every scale): a
// SAH build splits off the far ones level by level, a chain deeper than the
// trail a walk holds in itself (32 levels), every coordinate within range.
constexpr uint32_t kChainTriangles = 119;
float chain_x(uint32_t i) { return std::ldexp(1.0f, static_cast<int>(i) - 59); }

Mesh chain_mesh() {
  Mesh mesh;
  mesh.name = "chain";
  for (uint32_t i = 0; i < kChainTriangles; ++i) {
    const float x = chain_x(i), s = x / 4;
    const auto base = static_cast<uint32_t>(mesh.positions.size());
    mesh.positions.push_back({x, -s, -s});
    mesh.positions.push_back({x, s, -s});
    mesh.positions.push_back({x, 0, s});
    mesh.triangles.push_back({base, base + 1, base + 2});
  }
  return mesh;
}

TEST(RayTraversal, ADeepBvhsTrailSpillsAndShortStacksStillFindWhatADeepStackFinds) {
  const EncodedBvh bvh = scene::build_bvh(chain_mesh(), BvhOptions{});
  ASSERT_EQ(bvh.report.degenerate_triangles, 0u);
  ASSERT_GT(bvh.report.depth, 32u) << "the chain no longer outgrows the inline trail";
  ASSERT_LE(bvh.report.depth, RayTraversal::kMaxDepth);
  // Along the axis from three quarters of the way to triangle k: it is the
  // nearest. (Past 2^40 the triangle test's products overflow binary32 and
  // it may miss; below 2^-40 they leave the normal range and t loses bits:
  // both engines and every stack size agree on that, as the contract says.)
  std::vector<SceneRay> rays;
  for (uint32_t k = 0; k < kChainTriangles; ++k) rays.push_back(SceneRay{{0.75f * chain_x(k), 0, 0}, {1, 0, 0}});
  for (HitMode mode : {HitMode::kClosest, HitMode::kAny}) {
    // (Even 64 entries overflow here: three siblings pushed a level.)
    TraversalOptions deep;
    deep.mode = mode;
    deep.stack_entries = RayTraversal::kMaxStackEntries;
    std::vector<RayHit> expected;
    trace_rays(bvh, rays, deep, expected);
    for (uint32_t entries : {1u, 2u, 16u, RayTraversal::kMaxStackEntries}) {
      SCOPED_TRACE(std::string(mode == HitMode::kAny ? "any" : "closest") + " hit, stack " + std::to_string(entries));
      TraversalOptions shallow = deep;
      shallow.stack_entries = entries;
      std::vector<RayHit> hits;
      TraceTotals totals;
      trace_rays(bvh, rays, shallow, hits, &totals);
      EXPECT_EQ(totals.faults, 0u);
      if (entries == 1) {
        EXPECT_GT(totals.restarts, 0u);
      }
      for (uint32_t k = 0; k < kChainTriangles; ++k) {
        ASSERT_EQ(hits[k].hit, expected[k].hit) << "ray " << k;
        if (k < 100) {
          ASSERT_TRUE(hits[k].hit) << "ray " << k;
        }
        if (mode == HitMode::kAny) continue;
        if (k < 100) {
          ASSERT_EQ(hits[k].primitive, k);  // ray 0's is the chain's deepest leaf
        }
        ASSERT_EQ(hits[k].primitive, expected[k].primitive) << "ray " << k;
        ASSERT_EQ(hits[k].t, expected[k].t) << "ray " << k;
      }
    }
  }
}

// Parent pointers: the way back by parent links gives, for every stack size
// from 1 to 64, the hits of a 64-entry stack and of restarts on the same
// BVH, bit for bit; a short stack loads links and re-issues parents, and
// never restarts.
void expect_parent_pointers_find_what_a_deep_stack_finds(const EncodedBvh& bvh, const std::vector<SceneRay>& rays,
                                                        const std::vector<uint32_t>& stack_sizes) {
  ASSERT_TRUE(bvh.parent_links);
  for (HitMode mode : {HitMode::kClosest, HitMode::kAny}) {
    TraversalOptions deep;
    deep.mode = mode;
    deep.overflow = Overflow::kParentPointers;
    deep.stack_entries = RayTraversal::kMaxStackEntries;
    std::vector<RayHit> expected, restarted;
    trace_rays(bvh, rays, deep, expected);
    TraversalOptions restart = deep;
    restart.overflow = Overflow::kRestart;
    restart.stack_entries = 1;
    trace_rays(bvh, rays, restart, restarted);
    for (uint32_t entries : stack_sizes) {
      SCOPED_TRACE(std::string(mode == HitMode::kAny ? "any" : "closest") + " hit, stack " + std::to_string(entries));
      TraversalOptions shallow = deep;
      shallow.stack_entries = entries;
      std::vector<RayHit> hits;
      TraceTotals totals;
      trace_rays(bvh, rays, shallow, hits, &totals);
      EXPECT_EQ(totals.restarts, 0u);
      EXPECT_EQ(totals.faults, 0u);
      EXPECT_LE(totals.max_stack, entries);
      if (entries <= 2) {
        EXPECT_GT(totals.dropped_entries, 0u);
        EXPECT_GT(totals.parent_loads, 0u);
        EXPECT_GT(totals.reissues, 0u);
        EXPECT_LE(totals.reissues, totals.parent_loads);
      }
      for (size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(hits[i].hit, expected[i].hit) << "ray " << i;
        ASSERT_EQ(hits[i].hit, restarted[i].hit) << "ray " << i;
        if (mode == HitMode::kAny || !hits[i].hit) continue;
        ASSERT_EQ(bits_of(hits[i].t), bits_of(expected[i].t)) << "ray " << i;
        ASSERT_EQ(hits[i].primitive, expected[i].primitive) << "ray " << i;
        ASSERT_EQ(bits_of(hits[i].t), bits_of(restarted[i].t)) << "ray " << i;
        ASSERT_EQ(hits[i].primitive, restarted[i].primitive) << "ray " << i;
      }
    }
  }
}

TEST(RayTraversal, ParentPointersFindWhatADeepStackFindsWithEveryStackSize) {
  BvhOptions options;
  options.parent_links = true;
  const EncodedBvh bvh = scene::build_bvh(scene::make_default_scene(), options);
  std::vector<uint32_t> every(RayTraversal::kMaxStackEntries);
  for (uint32_t k = 0; k < every.size(); ++k) every[k] = k + 1;
  expect_parent_pointers_find_what_a_deep_stack_finds(bvh, test_rays(bvh, 600, 9), every);
}

TEST(RayTraversal, ParentPointersWalkTheDeepChainWithEveryStackSize) {
  BvhOptions options;
  options.parent_links = true;
  const EncodedBvh bvh = scene::build_bvh(chain_mesh(), options);
  ASSERT_GT(bvh.report.depth, 32u);
  std::vector<SceneRay> rays;
  for (uint32_t k = 0; k < kChainTriangles; ++k) rays.push_back(SceneRay{{0.75f * chain_x(k), 0, 0}, {1, 0, 0}});
  std::vector<uint32_t> every(RayTraversal::kMaxStackEntries);
  for (uint32_t k = 0; k < every.size(); ++k) every[k] = k + 1;
  expect_parent_pointers_find_what_a_deep_stack_finds(bvh, rays, every);
}

TEST(RayTraversal, ParentPointersNeedABvhWithParentLinks) {
  const EncodedBvh bvh = scene::build_bvh(scene::make_default_scene(), BvhOptions{});
  TraversalOptions options;
  options.overflow = Overflow::kParentPointers;
  RayTraversal walk;
  EXPECT_THROW(walk.start(bvh, SceneRay{{0, 0, -5}, {0, 0, 1}}, options), std::invalid_argument);
}

}  // namespace
}  // namespace td::traversal

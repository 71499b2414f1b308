// Scene workloads on the functional path: BVH build time (Embree build plus
// encoding, default scene: 114 k triangles) and closest-hit traversal
// throughput on the golden reference, single-threaded, over primary rays of
// the default view at 1920x1080 (every 16th pixel: 129 600 rays spread over
// the whole frame, ~92% of them hit). Target: >= 0.3 M rays/s functional.
// Two levels: the game-like level's build and primary rays the same way,
// and the build of 10 000 instances of ten distinct 100 k-triangle BLASes
// (1 G placed triangles; target <= 10 s and <= 1 GB peak resident, the
// process's peak reported as peak_rss_bytes).
// Each benchmark repeats 5 times and reports min / median / max.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tb/scene/bvh.h"
#include "tb/scene/camera_rays.h"
#include "tb/scene/default_level.h"
#include "tb/scene/default_scene.h"
#include "tb/scene/scene_bvh.h"
#include "tb/scene/runtime_build.h"
#include "tb/scene/embree_build.h"
#include "tb/traversal/functional_trace.h"

namespace {

constexpr int kRepetitions = 5;
constexpr uint32_t kWidth = 1920, kHeight = 1080, kPixelStride = 16;

const td::scene::Mesh& scene_mesh() {
  static const td::scene::Mesh mesh = td::scene::make_default_scene();
  return mesh;
}

// Default options, quality normal (0) or high (1).
const td::scene::EncodedBvh& scene_bvh(int64_t quality) {
  static const td::scene::EncodedBvh normal = td::scene::build_bvh(scene_mesh(), td::scene::BvhOptions{});
  static const td::scene::EncodedBvh high = [] {
    td::scene::BvhOptions options;
    options.quality = td::scene::BvhQuality::kHigh;
    return td::scene::build_bvh(scene_mesh(), options);
  }();
  return quality == 0 ? normal : high;
}

// Every kPixelStride-th primary ray of a kWidth x kHeight frame.
std::vector<td::scene::SceneRay> spread_rays(const td::scene::Camera& camera) {
  const td::scene::PrimaryRays frame(camera, kWidth, kHeight);
  std::vector<td::scene::SceneRay> out;
  for (uint64_t i = 0; i < frame.count(); i += kPixelStride) out.push_back(frame.ray(i));
  return out;
}

const std::vector<td::scene::SceneRay>& frame_rays() {
  static const std::vector<td::scene::SceneRay> rays = spread_rays(td::scene::default_scene_camera());
  return rays;
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

void BM_BvhBuild(benchmark::State& state) {
  td::scene::BvhOptions options;
  options.quality = state.range(0) == 0 ? td::scene::BvhQuality::kNormal : td::scene::BvhQuality::kHigh;
  uint64_t bytes = 0;
  for (auto _ : state) {
    const td::scene::EncodedBvh bvh = td::scene::build_bvh(scene_mesh(), options);
    bytes = bvh.report.bytes;
    benchmark::DoNotOptimize(bvh.root);
  }
  state.SetLabel(options.quality == td::scene::BvhQuality::kHigh ? "quality high" : "quality normal");
  state.counters["triangles"] = static_cast<double>(scene_mesh().triangle_count());
  state.counters["bytes"] = static_cast<double>(bytes);
}

// Traces `rays` through `bvh` once per iteration, closest hit, one thread.
void trace_frame(benchmark::State& state, const td::scene::EncodedBvh& bvh,
                 const std::vector<td::scene::SceneRay>& rays) {
  td::traversal::TraceTotals totals;
  std::vector<td::scene::RayHit> hits;
  for (auto _ : state) {
    hits.clear();
    totals = td::traversal::TraceTotals{};
    td::traversal::trace_rays(bvh, rays, td::traversal::TraversalOptions{}, hits, &totals);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["rays_per_s"] =
      benchmark::Counter(static_cast<double>(rays.size() * state.iterations()), benchmark::Counter::kIsRate);
  state.counters["hit_fraction"] = static_cast<double>(totals.hits) / static_cast<double>(totals.rays);
  state.counters["steps_per_ray"] =
      static_cast<double>(totals.box_steps + totals.triangle_steps + totals.instance_steps) /
      static_cast<double>(totals.rays);
}

void BM_TracePrimaryClosestHit(benchmark::State& state) {
  trace_frame(state, scene_bvh(state.range(0)), frame_rays());
  state.SetLabel(state.range(0) == 0 ? "quality normal" : "quality high");
}

double peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return 1024.0 * static_cast<double>(usage.ru_maxrss);
}

const td::scene::Scene& level() {
  static const td::scene::Scene scene = td::scene::make_default_level();
  return scene;
}

const std::vector<td::scene::SceneRay>& level_rays() {
  static const std::vector<td::scene::SceneRay> rays = spread_rays(td::scene::default_level_camera());
  return rays;
}

// The level's whole build, trees and encoding, by each builder at both
// levels (arg 0: sah, 1: lbvh, 2: ploc), with parent links as tdsim run
// builds it, on one host thread.
void BM_LevelBuild(benchmark::State& state) {
  td::scene::BvhOptions options;
  options.blas_builder = options.tlas_builder = static_cast<td::scene::BvhBuilder>(state.range(0));
  options.parent_links = true;
  uint64_t bytes = 0;
  for (auto _ : state) {
    const td::scene::EncodedBvh bvh = td::scene::build_scene_bvh(level(), options);
    bytes = bvh.scene_report.bytes;
    benchmark::DoNotOptimize(bvh.root);
  }
  state.SetLabel(td::scene::builder_name(options.blas_builder));
  state.counters["instances"] = static_cast<double>(level().instances.size());
  state.counters["placed_triangles"] = static_cast<double>(level().instanced_triangles());
  state.counters["bytes"] = static_cast<double>(bytes);
}

void BM_LevelTracePrimaryClosestHit(benchmark::State& state) {
  static const td::scene::EncodedBvh bvh = td::scene::build_scene_bvh(level(), td::scene::BvhOptions{});
  trace_frame(state, bvh, level_rays());
}

// Ten distinct BLASes of 100 k triangles (wavy 224 x 224 height fields,
// each its own frequency) placed 1 000 times each on a 100 x 100 grid,
// rotated and scaled.
const td::scene::Scene& many_instances() {
  static const td::scene::Scene scene = [] {
    td::scene::Scene out;
    out.name = "10 000 instances of ten 100 k-triangle BLASes";
    constexpr int kCells = 224;  // 2 x 224^2 = 100 352 triangles
    for (int b = 0; b < 10; ++b) {
      td::scene::Mesh mesh;
      mesh.name = "patch" + std::to_string(b);
      for (int j = 0; j <= kCells; ++j)
        for (int i = 0; i <= kCells; ++i) {
          const double x = double(i) / kCells, z = double(j) / kCells;
          mesh.positions.push_back({static_cast<float>(x), static_cast<float>(0.1 * std::sin((b + 3) * 6.0 * x) *
                                                                              std::cos((b + 2) * 5.0 * z)),
                                    static_cast<float>(z)});
        }
      const auto at = [](int i, int j) { return static_cast<uint32_t>(j * (kCells + 1) + i); };
      for (int j = 0; j < kCells; ++j)
        for (int i = 0; i < kCells; ++i) {
          mesh.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
          mesh.triangles.push_back({at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)});
        }
      out.blases.push_back(std::move(mesh));
    }
    for (int k = 0; k < 10000; ++k) {
      td::scene::Instance instance;
      instance.blas = static_cast<uint32_t>(k % 10);
      const double angle = 0.37 * k, scale = 0.8 + 0.4 * ((k * 7) % 10) / 10.0;
      const float c = static_cast<float>(scale * std::cos(angle)), s = static_cast<float>(scale * std::sin(angle));
      instance.object_to_world.m = {c, 0, s, static_cast<float>(k % 100), 0, static_cast<float>(scale), 0, 0,
                                    -s, 0, c, static_cast<float>(k / 100)};
      instance.node = "grid#" + std::to_string(k);
      out.instances.push_back(instance);
    }
    return out;
  }();
  return scene;
}

void BM_TenThousandInstancesBuild(benchmark::State& state) {
  const td::scene::Scene& scene = many_instances();
  uint64_t bytes = 0;
  for (auto _ : state) {
    const td::scene::EncodedBvh bvh = td::scene::build_scene_bvh(scene, td::scene::BvhOptions{});
    bytes = bvh.scene_report.bytes;
    benchmark::DoNotOptimize(bvh.root);
  }
  state.counters["placed_triangles"] = static_cast<double>(scene.instanced_triangles());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["peak_rss_bytes"] = peak_rss_bytes();
}

// A wavy height field of 708 x 708 cells: 1 002 528 triangles.
const td::scene::Mesh& million_triangles() {
  static const td::scene::Mesh mesh = [] {
    td::scene::Mesh out;
    out.name = "1 M-triangle height field";
    constexpr int kCells = 708;
    for (int j = 0; j <= kCells; ++j)
      for (int i = 0; i <= kCells; ++i) {
        const double x = double(i) / kCells, z = double(j) / kCells;
        out.positions.push_back(
            {static_cast<float>(x), static_cast<float>(0.1 * std::sin(17.0 * x) * std::cos(13.0 * z)), static_cast<float>(z)});
      }
    const auto at = [](int i, int j) { return static_cast<uint32_t>(j * (kCells + 1) + i); };
    for (int j = 0; j < kCells; ++j)
      for (int i = 0; i < kCells; ++i) {
        out.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
        out.triangles.push_back({at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)});
      }
    return out;
  }();
  return mesh;
}

// The tree of a 1 M-triangle mesh by each builder (first arg 0: sah, 1:
// lbvh, 2: ploc radius 10) on the second arg's host threads (sah: Embree,
// always one): the build alone, as BvhReport::build_seconds times it.
void BM_MillionTriangleTreeBuild(benchmark::State& state) {
  const td::scene::Mesh& mesh = million_triangles();
  const auto builder = static_cast<td::scene::BvhBuilder>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  size_t nodes = 0;
  for (auto _ : state) {
    const td::scene::BvhTree tree = builder == td::scene::BvhBuilder::kSah
                                        ? td::scene::build_bvh_tree(mesh, td::scene::BvhOptions{})
                                        : td::scene::build_runtime_tree(mesh, builder, 10, threads);
    nodes = tree.nodes.size();
    benchmark::DoNotOptimize(tree.nodes.data());
  }
  state.SetLabel(fmt::format("{}, {} thread{}", td::scene::builder_name(builder), threads, threads > 1 ? "s" : ""));
  state.counters["box_nodes"] = static_cast<double>(nodes);
}

// Both qualities (arg 0: normal, 1: high), one build or frame per
// repetition, with min and max beside the mean.
void timed_by_quality(benchmark::internal::Benchmark* b) {
  b->Arg(0)
      ->Arg(1)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(kRepetitions)
      ->ComputeStatistics("min", min_of)
      ->ComputeStatistics("max", max_of);
}
BENCHMARK(BM_BvhBuild)->Apply(timed_by_quality);
BENCHMARK(BM_TracePrimaryClosestHit)->Apply(timed_by_quality);

void timed(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(kRepetitions)
      ->ComputeStatistics("min", min_of)
      ->ComputeStatistics("max", max_of);
}
BENCHMARK(BM_LevelBuild)->Arg(0)->Arg(1)->Arg(2)->Apply(timed);
BENCHMARK(BM_LevelTracePrimaryClosestHit)->Apply(timed);
BENCHMARK(BM_TenThousandInstancesBuild)->Apply(timed);
BENCHMARK(BM_MillionTriangleTreeBuild)->Args({0, 1})->Args({1, 1})->Args({1, 2})->Args({2, 1})->Args({2, 2})->Apply(timed);

}  // namespace

BENCHMARK_MAIN();

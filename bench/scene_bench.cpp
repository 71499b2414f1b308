// Scene workloads on the functional path: BVH build time (Embree build plus
// encoding, default scene: 114 k triangles) and closest-hit traversal
// throughput on the golden reference, single-threaded, over primary rays of
// the default view at 1920x1080 (every 16th pixel: 129 600 rays spread over
// the whole frame, ~92% of them hit). Target: >= 0.3 M rays/s functional.
// Each benchmark repeats 5 times and reports min / median / max.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "tb/scene/bvh.h"
#include "tb/scene/camera_rays.h"
#include "tb/scene/default_scene.h"
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

const std::vector<td::scene::SceneRay>& frame_rays() {
  static const std::vector<td::scene::SceneRay> rays = [] {
    const td::scene::PrimaryRays frame(td::scene::default_scene_camera(), kWidth, kHeight);
    std::vector<td::scene::SceneRay> out;
    for (uint64_t i = 0; i < frame.count(); i += kPixelStride) out.push_back(frame.ray(i));
    return out;
  }();
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

void BM_TracePrimaryClosestHit(benchmark::State& state) {
  const td::scene::EncodedBvh& bvh = scene_bvh(state.range(0));
  const std::vector<td::scene::SceneRay>& rays = frame_rays();
  td::traversal::TraceTotals totals;
  std::vector<td::scene::RayHit> hits;
  for (auto _ : state) {
    hits.clear();
    totals = td::traversal::TraceTotals{};
    td::traversal::trace_rays(bvh, rays, td::traversal::TraversalOptions{}, hits, &totals);
    benchmark::DoNotOptimize(hits.data());
  }
  state.SetLabel(state.range(0) == 0 ? "quality normal" : "quality high");
  state.counters["rays_per_s"] =
      benchmark::Counter(static_cast<double>(rays.size() * state.iterations()), benchmark::Counter::kIsRate);
  state.counters["hit_fraction"] = static_cast<double>(totals.hits) / static_cast<double>(totals.rays);
  state.counters["steps_per_ray"] =
      static_cast<double>(totals.box_steps + totals.triangle_steps) / static_cast<double>(totals.rays);
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

}  // namespace

BENCHMARK_MAIN();

// Throughput of the golden reference, single-threaded, memory lookup
// included: each iteration is one lane through ref::intersect() against a
// node fetched from a MemoryImage holding many nodes (not one hot node).
// Targets (issue 2): >= 10 M box-node tests/s and >= 10 M triangle tests/s.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"
#include "model/ref/intersect.h"

namespace {

constexpr size_t kNodes = 1 << 14;  // 16 Ki nodes: 1-2 MiB, well past L1/L2
constexpr size_t kLanes = 1 << 12;

struct Workload {
  td::Descriptor descriptor;
  td::MemoryImage memory;
  std::vector<td::LaneInput> lanes;
};

float uniform(std::mt19937& rng, float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f);
}

td::Ray random_ray(std::mt19937& rng) {
  td::Ray ray;
  ray.extent = 1e30f;
  for (int a = 0; a < 3; ++a) {
    ray.origin[a] = uniform(rng, -1.0f, 1.0f);
    ray.dir[a] = uniform(rng, -1.0f, 1.0f);
    ray.inv_dir[a] = 1.0f / ray.dir[a];
  }
  return ray;
}

// Nodes of one type spread over memory, lanes pointing at random ones.
Workload make_workload(td::NodeType type) {
  std::mt19937 rng(1);
  Workload w;
  w.descriptor.box_sort = true;
  w.descriptor.return_mode = 1;
  w.descriptor.size_units = 2 * kNodes;
  td::NodeBytes bytes{};
  for (size_t n = 0; n < kNodes; ++n) {
    if (td::is_box(type)) {
      td::BoxNode node;
      for (int i = 0; i < 4; ++i) {
        node.child[i] = static_cast<uint32_t>(rng() & ~7u) | 5u;
        for (int a = 0; a < 3; ++a) {
          const float centre = uniform(rng, -4.0f, 4.0f), half = uniform(rng, 0.1f, 2.0f);
          node.box[i].min[a] = centre - half;
          node.box[i].max[a] = centre + half;
        }
      }
      if (type == td::NodeType::kBox16)
        td::encode_box16(node, bytes.data());
      else
        td::encode_box32(node, bytes.data());
    } else {
      td::TriangleNode node;
      for (auto& vertex : node.vertex)
        for (float& c : vertex) c = uniform(rng, -2.0f, 2.0f);
      node.id = static_cast<uint32_t>(rng());
      td::encode_triangle(node, bytes.data());
    }
    w.memory.write(2 * n * td::kNodeUnitBytes, bytes.data(), td::node_bytes(type));
  }
  for (size_t l = 0; l < kLanes; ++l) {
    const uint64_t unit = 2 * (rng() % kNodes);
    const auto node_type = td::is_triangle(type) ? static_cast<td::NodeType>(rng() % 4) : type;
    w.lanes.push_back(td::LaneInput::from_ray(random_ray(rng), td::NodePtr::make(unit, node_type).raw));
  }
  return w;
}

void run(benchmark::State& state, td::NodeType type) {
  const Workload w = make_workload(type);
  size_t lane = 0, written = 0;
  for (auto _ : state) {
    const td::LaneResult result = td::ref::intersect(w.descriptor, w.lanes[lane], w.memory);
    written += result.written;
    benchmark::DoNotOptimize(result);
    lane = (lane + 1) % kLanes;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["lane_tests_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  if (written != static_cast<size_t>(state.iterations())) state.SkipWithError("a lane wrote nothing");
}

void BM_RefBoxNodeFp32(benchmark::State& state) { run(state, td::NodeType::kBox32); }
void BM_RefBoxNodeFp16(benchmark::State& state) { run(state, td::NodeType::kBox16); }
void BM_RefTriangle(benchmark::State& state) { run(state, td::NodeType::kTriangle0); }

BENCHMARK(BM_RefBoxNodeFp32);
BENCHMARK(BM_RefBoxNodeFp16);
BENCHMARK(BM_RefTriangle);

}  // namespace

BENCHMARK_MAIN();

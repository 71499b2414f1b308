// Verilator's two outputs for a datapath inside the SystemC model, measured
// on the box datapath (why tdsim uses --cc: docs/timing-model.md):
//   --cc  a C++ class the stage clocks itself, calling eval() on each edge
//         (what model/rtl does);
//   --sc  an sc_module with sc_in/sc_out ports and an sc_clock, advanced by
//         the SystemC kernel one period per clock.
// The same unit, the same lanes (seeded random FP32 box nodes and rays), one
// lane a clock in both; lanes per second, 5 repetitions (min/median/max).
// Run: build/bench/rtl_harness_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <systemc>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#include "Vcc_td_box_datapath.h"
#include "Vsc_td_box_datapath.h"
#include "verilated.h"
#pragma GCC diagnostic pop

namespace {

constexpr int kRepetitions = 5;

// One lane's port values: 28 node words, origin, inverse direction, extent.
struct Lane {
  std::array<uint32_t, 28> node{};
  std::array<uint32_t, 3> origin{}, inv_dir{};
  uint32_t extent = 0;
};

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Boxes around the origin's neighbourhood and rays through it: a mix of hits and misses.
const std::vector<Lane>& lanes() {
  static const std::vector<Lane> all = [] {
    std::vector<Lane> out(1024);
    uint64_t state = 12345;
    const auto next = [&state] {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<float>((state >> 40) & 0xffff) / 65536.0f * 4.0f - 2.0f;
    };
    for (Lane& lane : out) {
      for (int i = 0; i < 4; ++i) lane.node[i] = 0x100u * static_cast<uint32_t>(i + 1);
      for (int w = 4; w < 28; ++w) lane.node[w] = bits(next());
      for (int a = 0; a < 3; ++a) {
        lane.origin[a] = bits(next());
        lane.inv_dir[a] = bits(1.0f / (next() + 0.01f));
      }
      lane.extent = bits(100.0f);
    }
    return out;
  }();
  return all;
}

// Both units' context: lives as long as the program (the --sc unit is static).
VerilatedContext& context() {
  static VerilatedContext shared;
  return shared;
}

void BM_VerilatedCcEvalPerEdge(benchmark::State& state) {
  Vcc_td_box_datapath unit(&context(), "cc");
  unit.rst_ni = 0;
  unit.clk_i = 0;
  unit.eval();
  unit.rst_ni = 1;
  size_t k = 0;
  for (auto _ : state) {
    const Lane& lane = lanes()[k++ % lanes().size()];
    unit.in_valid_i = 1;
    unit.in_fp16_i = 0;
    std::memcpy(unit.in_node_i.data(), lane.node.data(), sizeof lane.node);
    std::memcpy(unit.in_origin_i.data(), lane.origin.data(), 12);
    std::memcpy(unit.in_inv_dir_i.data(), lane.inv_dir.data(), 12);
    unit.in_extent_i = lane.extent;
    unit.in_grow_ulps_i = 1;
    unit.clk_i = 0;
    unit.eval();
    unit.clk_i = 1;
    unit.eval();
    benchmark::DoNotOptimize(unit.out_valid_o);
  }
  state.SetItemsProcessed(state.iterations());
}

// A --sc unit takes only a name and the thread's context: make it ours first.
const char* name_in_shared_context(const char* name) {
  Verilated::threadContextp(&context());
  return name;
}

// The --sc unit on signals, elaborated once (SystemC elaborates once per process).
struct ScBench {
  sc_core::sc_clock clock{"clock", 1, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n"}, valid{"valid"}, fp16{"fp16"}, out_valid{"out_valid"};
  sc_core::sc_signal<sc_dt::sc_bv<896>> node{"node"};
  sc_core::sc_signal<sc_dt::sc_bv<96>> origin{"origin"}, inv_dir{"inv_dir"};
  sc_core::sc_signal<uint32_t> extent{"extent"}, grow{"grow"}, hit{"hit"};
  sc_core::sc_signal<sc_dt::sc_bv<128>> key{"key"}, child{"child"};
  Vsc_td_box_datapath unit{name_in_shared_context("sc")};
  ScBench() {
    unit.clk_i(clock);
    unit.rst_ni(rst_n);
    unit.in_valid_i(valid);
    unit.in_fp16_i(fp16);
    unit.in_node_i(node);
    unit.in_origin_i(origin);
    unit.in_inv_dir_i(inv_dir);
    unit.in_extent_i(extent);
    unit.in_grow_ulps_i(grow);
    unit.out_valid_o(out_valid);
    unit.out_hit_o(hit);
    unit.out_key_o(key);
    unit.out_child_o(child);
    rst_n.write(false);
    sc_core::sc_start(1, sc_core::SC_NS);
    rst_n.write(true);
  }
};

void BM_VerilatedScClockedByKernel(benchmark::State& state) {
  static ScBench bench;
  size_t k = 0;
  sc_dt::sc_bv<896> node;
  sc_dt::sc_bv<96> origin, inv_dir;
  for (auto _ : state) {
    const Lane& lane = lanes()[k++ % lanes().size()];
    for (int w = 0; w < 28; ++w) node.set_word(w, lane.node[w]);
    for (int a = 0; a < 3; ++a) {
      origin.set_word(a, lane.origin[a]);
      inv_dir.set_word(a, lane.inv_dir[a]);
    }
    bench.valid.write(true);
    bench.fp16.write(false);
    bench.node.write(node);
    bench.origin.write(origin);
    bench.inv_dir.write(inv_dir);
    bench.extent.write(lane.extent);
    bench.grow.write(1);
    sc_core::sc_start(1, sc_core::SC_NS);
    benchmark::DoNotOptimize(bench.out_valid.read());
  }
  state.SetItemsProcessed(state.iterations());
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

void repeated(benchmark::internal::Benchmark* b) {
  b->Repetitions(kRepetitions)->ComputeStatistics("min", min_of)->ComputeStatistics("max", max_of);
}
BENCHMARK(BM_VerilatedCcEvalPerEdge)->Apply(repeated);
BENCHMARK(BM_VerilatedScClockedByKernel)->Apply(repeated);

}  // namespace

BENCHMARK_MAIN();

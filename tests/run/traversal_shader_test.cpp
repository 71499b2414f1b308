// TraversalShader as a wave client, driven by hand without a chip: the
// oldest ready wave issues (ties: the lowest slot), a TD with no ready wave
// is told the cycle to ask again, a slot whose wave ended asks the
// dispatcher for new rays, which it hands out in the order the slots asked,
// and a walk's hit reaches the hit sink only at the dispatch after its
// instruction returns.
#include "tb/shader/traversal_shader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "model/isa/node.h"
#include "model/sim/stats.h"
#include "tb/run/hit_sink.h"
#include "tb/run/ray_source.h"
#include "tb/scene/encoded_bvh.h"

namespace td::shader {
namespace {

// `count` rays; ray i starts at x = i, so an instruction's first lane names
// the wave that issued it (wave w of 32 lanes traces rays 32w ... 32w + 31).
class NumberedRays final : public run::RaySource {
 public:
  explicit NumberedRays(size_t count) : count_(count) {}
  size_t read(std::vector<scene::SceneRay>& out, size_t max) override {
    const size_t n = std::min(max, count_ - next_);
    for (size_t i = 0; i < n; ++i, ++next_)
      out.push_back(scene::SceneRay{{static_cast<float>(next_), 0, 0}, {1, 0.5f, 0.25f}, 100.0f});
    return n;
  }
  uint64_t count() const override { return count_; }

 private:
  size_t count_, next_ = 0;
};

// Box results for every lane: a single child hit (the walk goes on), or
// none (the walk ends: nothing on its stack).
std::vector<LaneResult> box_results(size_t lanes, bool walks_go_on) {
  LaneResult r = LaneResult::all_ones(LaneOutcome::kBoxNode);
  if (walks_go_on) r.dwords[0] = static_cast<uint32_t>(NodePtr::make(2, NodeType::kBox32).raw);
  return std::vector<LaneResult>(lanes, r);
}

struct ShaderBench {
  explicit ShaderBench(size_t ray_count, uint32_t tds = 1) : rays(ray_count) {
    bvh.root = static_cast<uint32_t>(NodePtr::make(0, NodeType::kBox32).raw);
    ShaderParams params;
    params.lanes_per_wave = 32;
    params.stack_entries = 16;
    params.simds_per_td = 2;
    params.waves_per_simd = 2;  // waves 0, 1 on SIMD 0; waves 2, 3 on SIMD 1
    params.alu_instructions_per_iteration = 10;
    params.wave_launch_cycles = 5;
    params.check_every = 0;
    shader = std::make_unique<TraversalShader>(params, tds, bvh, rays, TraversalOptions{}, sink,
                                               sim::StatGroup(registry, "shader"));
  }
  // The wave (by its first ray) that issues at `cycle`; -1 if none, with
  // the cycle to ask again in `retry`.
  int issue(uint64_t cycle, uint64_t& retry, bool walks_go_on = true, uint32_t td = 0) {
    retry = 0;
    if (!shader->next_wave(td, cycle, instr, retry)) return -1;
    results[instr.id] = box_results(instr.lanes.size(), walks_go_on);
    return static_cast<int>(instr.lanes[0].ray().origin[0]) / 32;
  }
  void complete(uint64_t id, uint64_t cycle) {
    WaveResult result;
    result.id = id;
    result.complete_cycle = cycle;
    result.lanes = results.at(id);
    EXPECT_TRUE(shader->wave_completed(0, result));
  }
  uint64_t rays_finished() const { return registry.value("shader.rays"); }

  scene::EncodedBvh bvh;
  NumberedRays rays;
  run::HitSink sink;
  sim::StatsRegistry registry;
  std::unique_ptr<TraversalShader> shader;
  WaveInstr instr;
  std::map<uint64_t, std::vector<LaneResult>> results;  // by instruction id, until it completes
};

TEST(TraversalShader, TheOldestReadyWaveIssuesAndAnIdleTdIsToldWhenToAskAgain) {
  ShaderBench bench(5 * 32);
  uint64_t retry = 0;
  // The four slots ask the dispatcher at cycle 0; their rays are there at
  // 5 (wave_launch_cycles), handed out in slot order.
  EXPECT_EQ(bench.issue(0, retry), -1);
  EXPECT_EQ(retry, 5u);
  bench.shader->dispatch(1);
  // The waves start at 5; each SIMD runs its waves' 10 ALU clocks in turn:
  // waves 0 and 2 are ready at 15, waves 1 and 3 at 25.
  EXPECT_EQ(bench.issue(5, retry), -1);
  EXPECT_EQ(retry, 15u);
  EXPECT_EQ(bench.issue(15, retry), 0);  // ready together: the lower slot first
  const uint64_t first_id = bench.instr.id;
  EXPECT_EQ(bench.issue(15, retry, /*walks_go_on=*/false), 2);
  const uint64_t ending_id = bench.instr.id;
  EXPECT_EQ(bench.issue(20, retry), -1);
  EXPECT_EQ(retry, 25u);
  EXPECT_EQ(bench.issue(30, retry), 1);
  EXPECT_EQ(bench.issue(30, retry), 3);
  EXPECT_EQ(bench.issue(30, retry), -1);
  EXPECT_EQ(retry, TraversalShader::kNever);  // every wave waits for a result

  // Wave 2's walks all end with its instruction's results: its rays reach
  // the sink at the dispatch after it returns, not before.
  bench.complete(first_id, 100);  // wave 0 goes on: ready at 110
  bench.complete(ending_id, 101);
  EXPECT_EQ(bench.rays_finished(), 0u);
  bench.shader->dispatch(102);
  EXPECT_EQ(bench.rays_finished(), 32u);
  // Slot 2 asks for the last 32 rays when the TD next asks (105); they are
  // there at 110, and it starts when the TD asks after that (112): SIMD 1
  // is free, so that wave is ready at 122, after wave 0.
  EXPECT_EQ(bench.issue(105, retry), -1);
  EXPECT_EQ(retry, 110u);
  bench.shader->dispatch(106);
  EXPECT_EQ(bench.issue(112, retry), 0);
  EXPECT_EQ(bench.issue(112, retry), -1);
  EXPECT_EQ(retry, 122u);
  EXPECT_EQ(bench.issue(122, retry), 4);
  EXPECT_FALSE(bench.shader->done());
}

TEST(TraversalShader, TheDispatcherHandsOutRaysInTheOrderTheSlotsAsked) {
  // Two TDs of four slots each. TD 1 asks at cycle 3, TD 0 at cycle 4: TD
  // 1's slots get rays 0-127, TD 0's 128-255, whichever TD called first
  // (a chip may run TD 0 ahead of TD 1 within a quantum).
  ShaderBench bench(8 * 32, 2);
  uint64_t retry = 0;
  EXPECT_EQ(bench.issue(4, retry, true, 0), -1);
  EXPECT_EQ(retry, 9u);
  EXPECT_EQ(bench.issue(3, retry, true, 1), -1);
  EXPECT_EQ(retry, 8u);
  bench.shader->dispatch(5);
  // Each wave is ready after its ALU work: slot 0 of each TD first.
  EXPECT_EQ(bench.issue(8, retry, true, 1), -1);  // starts at 8, ready at 18
  EXPECT_EQ(bench.issue(18, retry, true, 1), 0);
  EXPECT_EQ(bench.issue(9, retry, true, 0), -1);
  EXPECT_EQ(bench.issue(19, retry, true, 0), 4);
  EXPECT_FALSE(bench.shader->done());
}

}  // namespace
}  // namespace td::shader

// traversal_shader.h — the shader side of ray tracing on the timing model:
// the SIMDs of each TD's compute unit running an inline traversal loop
// (XDXR's short-stack traversal, seeds 001) over wave32 or wave64 waves.
//
// Each TD serves `simds_per_td` SIMDs holding up to `waves_per_simd` waves
// (occupancy). A free slot asks the dispatcher for the next `lanes_per_wave`
// rays of the stream, as a GPU's SPI launches a wave into a free slot: the
// dispatcher hands out rays in the order slots asked (cycle, TD, slot), and
// the wave starts `wave_launch_cycles` after its slot asked (the resource
// allocation and register initialisation of a launch), or when its TD next
// asks for work after that. A wave loops: ALU work (`alu_instructions_per_iteration`, one instruction per
// clock per wave32 on its SIMD, two for wave64, waves on one SIMD taking
// turns), then one image_bvh_intersect_ray for its live lanes (EXEC clear
// for finished ones) to its TD, then wait for the results. Each lane walks
// its ray with a RayTraversal (short stack in LDS, restart trail); a lane
// whose walk ends hands its ray to the hit sink; a wave whose lanes are all
// done ends, and its slot starts a new wave while rays remain. This is a
// WaveClient: the chip calls it, in TD order, from its clocked process.
//
// Two levels (a TLAS over instances): a lane whose walk reaches an instance
// node (the TD answers its instruction all ones) needs the instance's data.
// After that iteration's ALU work the wave issues the instance step's four
// 16-byte vector loads back to back (RayTraversal::kInstanceLoads; EXEC:
// the lanes that need them; one SIMD clock apart, two for wave64), through
// the same TD and its L0 as the walk's nodes, waits for all four, then
// does the instance step's ALU work (`alu_instructions_per_instance`: mask
// test, transform, reciprocals) before its next intersect; the other
// lanes wait, as lanes of one wave do.
//
// Closest-hit shading (ShaderParams::shading, hit_shading.h): a wave whose
// lanes have all finished their walks does, for its lanes that hit, the
// attribute loads, a wait, the texture loads, a wait, and the shading's ALU
// work; then its slot is free. (The slot frees as the ALU work is put on
// its SIMD: the next wave in it starts its own ALU work behind it on the
// same SIMD, so the SIMD's time is the same as if the slot waited.)
//
// Every result (or every Nth instruction's) is checked against the golden
// reference on the same lane and memory, so a timed run's hits are the
// functional engine's hits or a mismatch is reported. The checks run in
// process_returned(), on whichever thread ticks that TD, each TD with a
// scoreboard of its own, merged in the order the results returned.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "model/sim/stats.h"
#include "model/td/wave_client.h"
#include "tb/engines/deferred_checks.h"
#include "tb/engines/scoreboard.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/traversal/hit_shading.h"
#include "tb/traversal/ray_stream.h"
#include "tb/traversal/ray_traversal.h"
#include "tb/traversal/walk_arena.h"

namespace td::shader {

// The walk each lane runs, and what the shader shares with the functional engine.
using traversal::HitShading;
using traversal::Overflow;
using traversal::RaySink;
using traversal::RayTraversal;
using traversal::RaySource;
using traversal::ShadingLayout;
using traversal::TracedRay;
using traversal::TraversalOptions;
using traversal::WalkArena;

// The shader.* keys as the shader takes them (tb/run/config_params.h makes
// them from a configuration; no defaults of their own).
struct ShaderParams {
  uint32_t lanes_per_wave = 0;                 // 32 or 64
  uint32_t simds_per_td = 0;                   // SIMDs of the compute unit a TD serves
  uint32_t waves_per_simd = 0;                 // occupancy
  uint32_t stack_entries = 0;                  // per lane, in LDS
  uint32_t alu_instructions_per_iteration = 0;
  uint32_t alu_instructions_per_instance = 0;  // the instance step's, once its loads land
  // Cycles from a stack pop's LDS read to its data (the next node's
  // pointer): an iteration in which some lane popped waits for it after
  // its ALU work, the SIMD free for other waves meanwhile.
  uint32_t lds_latency_cycles = 0;
  // Cycles from a free slot's request to the dispatcher to its new wave's
  // start (>= 1: WaveClient::dispatch_latency).
  uint32_t wave_launch_cycles = 0;
  HitShading shading;                           // after a wave's traversal (off: none)
  // Scoreboard: check every Nth instruction's lanes against the golden
  // reference (1: all, 0: none). Each check costs a reference evaluation.
  uint64_t check_every = 0;
};

class TraversalShader final : public timing::WaveClient {
 public:
  // `walk` gives the rays' hit mode and instance mask; the stack's size is
  // params.stack_entries.
  TraversalShader(const ShaderParams& params, uint32_t td_count, const scene::EncodedBvh& bvh,
                  RaySource& rays, const TraversalOptions& walk, RaySink& sink, const sim::StatGroup& stats);

  bool next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) override;
  bool wave_completed(uint32_t td_index, WaveResult& result) override;
  void process_returned(uint32_t td_index) override;
  // Two levels: the instance step's loads.
  bool issues_loads() const override {
    return bvh_.two_level() || options_.overflow == Overflow::kParentPointers || params_.shading.on();
  }
  // A wave belongs to one TD, and next_wave fills every empty slot while
  // rays remain: only the TD a result returns to can have new work.
  WorkSource work_source() const override { return WorkSource::kPerTd; }  // each TD its own waves
  // The dispatcher: the rays for the slots that asked, the rays finished
  // since to the sink, and the TDs' counts to the stats.
  uint64_t dispatch_latency() const override { return params_.wave_launch_cycles; }
  void dispatch(uint64_t cycle) override;

  // Every ray traced and delivered; no wave alive or asking.
  bool done() const;
  // Every check so far (any still waiting run first), merged over the TDs.
  const tb::Scoreboard& scoreboard();

 private:
  // kEmpty: asks the dispatcher when its TD next asks for work; kLaunching:
  // asked, its rays there from Wave::launch_cycle; kDone: the dispatcher had
  // none left for it.
  enum class WaveState : uint8_t { kEmpty, kLaunching, kAlu, kIssued, kDone };
  enum class ShadingPhase : uint8_t { kNone, kAttributes, kTextures };
  // What next_wave() reads of each of a TD's waves, every time it is
  // asked, kept apart from the rest (16 bytes a wave: a TD's 32 in 8 cache
  // lines, not 48).
  struct WaveSchedule {
    uint64_t ready_cycle = 0;  // kAlu: its instruction is ready from this cycle; kIssued: issued then
    WaveState state = WaveState::kEmpty;
  };
  // A TD's waves in their ALU work, as a min-heap on (ready cycle, wave):
  // its top is the wave that issues next (the oldest ready; ties: the
  // lowest slot) or, not ready yet, names the cycle to ask again. A TD asks
  // for work after each result it returns, usually before any wave is
  // ready: the answer is one compare, not a scan of its 32 waves.
  struct ReadyWave {
    uint64_t ready_cycle;
    uint32_t wave;
    // std::push_heap keeps the greatest on top: "less" is "issues later".
    bool operator<(const ReadyWave& other) const {
      return ready_cycle != other.ready_cycle ? ready_cycle > other.ready_cycle : wave > other.wave;
    }
  };
  // What one TD's calls count; dispatch() adds them to the stats. (A
  // chip may run its TDs on several threads: each TD touches only its own
  // share of the shader, the dispatcher all of it, between.)
  struct TdCounts {
    uint64_t waves = 0, rays = 0, instructions = 0, lanes_issued = 0, active_lanes_issued = 0,
             alu_busy_cycles = 0, ready_wait_cycles = 0, td_wait_cycles = 0, waits = 0, lds_wait_cycles = 0,
             load_instructions = 0, load_lanes_issued = 0, instance_alu_cycles = 0,
             shading_load_instructions = 0, shading_load_lanes = 0, shading_alu_cycles = 0;
  };
  // A slot's request to the dispatcher.
  struct LaunchRequest {
    uint64_t cycle;
    uint32_t wave;
  };
  struct alignas(64) TdWaves {
    std::vector<ReadyWave> in_alu;  // heap
    uint32_t empty = 0;             // waves in kEmpty
    uint32_t launching = 0;         // waves in kLaunching
    uint64_t first_launch = kNever;  // the earliest launch_cycle of those
    uint32_t busy = 0;              // waves in kLaunching, kAlu or kIssued
    uint64_t instructions = 0;      // issued so far (ids: instruction_id())
    uint64_t returned = 0;          // results taken so far
    std::vector<LaunchRequest> requests;  // since the last dispatch()
    std::vector<TracedRay> finished;      // delivered since the last dispatch()
    TdCounts counts;
  };
  struct Wave {
    RayTraversal* lanes = nullptr;  // lanes_per_wave walks in walks_ (a walk is never moved)
    // The dispatcher's answer: `granted` rays (0: none left), there from
    // `launch_cycle`.
    std::vector<scene::SceneRay> rays;
    std::vector<uint64_t> ray_index;
    uint32_t granted = 0;
    uint64_t launch_cycle = 0;
    uint64_t live = 0;         // bit l: lane l holds a ray still being walked
    uint32_t live_lanes = 0;
    // Loads (two levels, parent pointers). `wants_loads`: the lanes whose
    // walk wants loads (RayTraversal::load_request: an instance node's four,
    // five with TAPU, a parent link's one) after the instruction in flight. In the load
    // phase, `load_lanes` are the lanes loading, `load_count` the most loads
    // one of them wants (load k's EXEC: the lanes wanting more than k),
    // `loads_to_issue` and `loads_in_flight` count them, and `load_data`
    // (one entry a lane, allocated only for a shader that issues loads)
    // gathers their dwords.
    uint64_t wants_loads = 0;
    uint64_t load_lanes = 0;
    uint32_t load_count = 0;
    uint32_t loads_to_issue = 0;
    uint32_t loads_in_flight = 0;
    std::vector<RayTraversal::LoadedDwords> load_data;
    // Per lane, the walk's request, taken when the walk (hot then) made it:
    // the loads read it, not the walk's cold line.
    std::vector<RayTraversal::LoadRequest> load_request;
    // Closest-hit shading: the lanes whose ray hit, and the phase (its
    // loads in flight are the load phase's above).
    uint64_t hit_lanes = 0;
    ShadingPhase shading = ShadingPhase::kNone;
    bool lds_read = false;  // some lane's last step popped its stack: the next issue waits for LDS
  };
  // An instruction in flight on a TD: its wave, and which of the instance
  // step's loads it is (kIntersectStep for an intersect).
  static constexpr uint32_t kIntersectStep = UINT32_MAX;
  struct InFlight {
    size_t wave = 0;
    uint64_t instr_id = 0;
    uint32_t load = kIntersectStep;
  };

  uint32_t simd_of(size_t wave) const { return static_cast<uint32_t>(wave / params_.waves_per_simd); }
  uint32_t td_of(size_t wave) const { return static_cast<uint32_t>(wave / waves_per_td()); }
  size_t first_wave(uint32_t td) const { return size_t{td} * params_.simds_per_td * params_.waves_per_simd; }
  size_t waves_per_td() const { return size_t{params_.simds_per_td} * params_.waves_per_simd; }
  // The TD's next instruction id, unique over the chip; and an id's number
  // among its TD's instructions.
  uint64_t instruction_id(uint32_t td, TdWaves& waves) const { return 1 + td + td_count_ * waves.instructions++; }
  uint64_t number_in_td(uint64_t id) const { return (id - 1) / td_count_; }
  // Its slot asks the dispatcher for rays (kEmpty -> kLaunching).
  void request_rays(size_t wave, uint64_t cycle);
  // The dispatcher's answer is there: the wave's first iteration's ALU
  // work from `cycle`, or its slot kEmpty again (every ray dead) or kDone.
  void start_wave(size_t wave, uint64_t cycle);
  // The dispatcher gives the wave the stream's next rays.
  void grant_rays(size_t wave);
  // Lane `lane` of wave `wave`, whose walk is done, to the hit sink.
  void deliver(Wave& wave, uint32_t lane);
  // The wave's lanes in `ended` are done: off the live mask.
  void end_lanes(Wave& wave, uint64_t ended);
  // Its instruction's results reached wave `wave` at `complete_cycle`: its
  // next iteration's ALU work, or its end. Returns true (results taken).
  bool wave_stepped(size_t wave, uint64_t complete_cycle);
  // The wave's ALU work of `cycles` from `from_cycle` (its SIMD's turn
  // permitting), and an LDS read's latency after it if the wave's lanes
  // popped (wave.lds_read, cleared); then it is ready to issue.
  void run_alu(size_t wave, uint64_t from_cycle, uint64_t cycles);
  // The instance step's loads: filling one, taking one's data, the last one back.
  // Fills load `load` of the wave's load phase; returns its active lanes.
  uint32_t fill_load(Wave& wave, uint32_t load, WaveInstr& out) const;
  void start_loads(Wave& wave);  // the lanes in wants_loads start their load phase
  void take_load_data(Wave& wave, uint32_t load, const LaneResult* results);
  bool loads_returned(size_t wave, uint64_t complete_cycle);
  // Closest-hit shading: the phase after `phase` (its loads, from
  // `cycle`), or the shading's ALU work and the wave's end.
  void next_shading_phase(size_t wave, uint64_t cycle);
  void end_wave(size_t wave);

  // A lane returned this clock, waiting for its check (checks_).
  struct PendingLane {
    uint64_t order = 0;  // its instruction's order (wave_completed)
    uint64_t instr_id = 0;
    InstrKind kind = InstrKind::kIntersect;
    uint32_t lane = 0;
    LaneInput input;
    LaneResult result;
  };
  void check(tb::Scoreboard& board, const PendingLane& lane) const;

  const ShaderParams params_;
  const uint64_t td_count_;
  const scene::EncodedBvh& bvh_;
  RaySource& rays_;
  const TraversalOptions options_;
  RaySink& sink_;
  uint64_t alu_cycles_per_iteration_;
  uint64_t alu_cycles_per_instance_;
  uint64_t issue_cycles_;  // SIMD clocks between two instructions of one wave (1 for wave32, 2 for wave64)
  uint64_t alu_cycles_per_shading_;
  ShadingLayout shading_layout_;  // where the shading's loads go (shading on)
  WalkArena walks_;  // every wave's lanes, wave by wave
  std::vector<Wave> waves_;
  std::vector<WaveSchedule> schedule_;  // per wave, as waves_
  std::vector<TdWaves> td_waves_;       // per TD
  std::vector<uint64_t> simd_free_cycle_;  // per (TD, SIMD): its ALU is busy until then
  // Per TD, its waves with an instruction in flight, in issue order: a TD
  // returns instructions in the order it accepted them.
  std::vector<std::deque<InFlight>> in_flight_;
  // The dispatcher's: the stream, read a batch at a time, and the requests
  // of a dispatch() in the order it serves them.
  uint64_t next_ray_ = 0;
  std::vector<scene::SceneRay> ray_buffer_;
  size_t ray_buffer_next_ = 0;
  bool rays_exhausted_ = false;
  std::vector<LaunchRequest> requests_;
  tb::DeferredChecks<PendingLane> checks_;  // per TD, run in process_returned()
  tb::Scoreboard merged_;   // scoreboard()'s answer

  sim::Counter& waves_launched_;
  sim::Counter& rays_finished_;
  sim::Counter& instructions_;
  sim::Counter& lanes_issued_;
  sim::Counter& active_lanes_issued_;
  sim::Counter& alu_busy_cycles_;
  sim::Counter& ready_wait_cycles_;
  sim::Counter& td_wait_cycles_;
  sim::Counter& waits_;
  sim::Counter& lds_wait_cycles_;
  sim::Counter* load_instructions_ = nullptr;  // two levels only: registered for them
  sim::Counter* load_lanes_issued_ = nullptr;
  sim::Counter* instance_alu_cycles_ = nullptr;
  sim::Counter* shading_load_instructions_ = nullptr;  // shading on only
  sim::Counter* shading_load_lanes_ = nullptr;
  sim::Counter* shading_alu_cycles_ = nullptr;
};

}  // namespace td::shader

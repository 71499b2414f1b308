// wave_feeder.h — the testbench's wave client: hands each TD the
// instructions meant for it (queued up front or made on demand by a
// generator), keeps their inputs until they return, and passes every
// returned instruction through the scoreboard. Each TD has its own
// instructions and its own share of the feeder (WorkSource::kPerTd): the
// chip may run TDs ahead of each other, on several threads, so the
// generator and the completion callback are called for a TD on the thread
// running it, and must touch only that TD's share of their own state.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "model/isa/memory_image.h"
#include "model/isa/wave.h"
#include "model/td/td_types.h"
#include "tb/engines/deferred_checks.h"
#include "tb/engines/scoreboard.h"

namespace td::tb {

class WaveFeeder : public timing::WaveClient {
 public:
  // Makes the next instruction for a TD; false when that TD has no more.
  using Generator = std::function<bool(uint32_t td_index, WaveInstr& out)>;
  using Completion = std::function<void(uint32_t td_index, const WaveInstr&, const WaveResult&)>;

  // `issues_loads`: load instructions may be queued or generated besides
  // intersects (WaveClient::issues_loads; the chip asks when it is built).
  WaveFeeder(size_t td_count, const MemoryImage& memory, bool issues_loads = false);

  // Queues an instruction for a TD; returns the id assigned to it.
  uint64_t push(uint32_t td_index, WaveInstr instr);
  // Replaces the generator (consulted when a TD's queue is empty).
  void set_generator(Generator generator) { generator_ = std::move(generator); }
  void set_completion(Completion completion) { completion_ = std::move(completion); }
  // The memory the scoreboard checks against (the chip's backing store).
  void set_memory(const MemoryImage& memory) { memory_ = &memory; }

  // Nothing queued, nothing generated, nothing in flight.
  bool done() const;
  void end_generation() { generator_ = nullptr; }

  bool issues_loads() const override { return issues_loads_; }
  WorkSource work_source() const override { return WorkSource::kPerTd; }  // each TD its own instructions
  bool next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) override;
  bool wave_completed(uint32_t td_index, WaveResult& result) override;
  // The scoreboard's checks of what the TD returned this clock (kept by
  // wave_completed), on whichever thread the chip calls it.
  void process_returned(uint32_t td_index) override;
  // Back-pressure for stall-injecting tests (MatchLib's Pacer): refuse a
  // result offered on a clock whose seeded draw (each TD's own sequence)
  // falls under `percent`.
  void refuse_results(uint32_t percent, uint64_t seed);
  uint64_t results_refused() const;

  // Every check so far (any still waiting run first), merged over the TDs.
  const Scoreboard& scoreboard();
  // The scoreboard checks every `every`-th instruction of each TD (1: all,
  // the default; 0: none, to measure the timing model's own speed or where
  // the caller compares the results itself).
  void set_scoreboard_every(uint64_t every) { check_every_ = every; }
  void set_scoreboard_enabled(bool enabled) { check_every_ = enabled ? 1 : 0; }
  uint64_t scoreboard_every() const { return check_every_; }
  uint64_t waves_completed() const;
  // Accept cycle of the first and completion cycle of the last instruction.
  uint64_t first_accept_cycle() const;
  uint64_t last_complete_cycle() const;
  // Every instruction returned since reset_window(): when, and how many of
  // its lanes were active (for throughput over a steady-state window); in
  // (cycle, TD) order.
  struct Returned {
    uint32_t td_index = 0;
    uint64_t cycle = 0;
    uint32_t active_lanes = 0;
  };
  std::vector<Returned> completions() const;
  void reset_window();

 private:
  void check_instruction(const WaveInstr& instr) const;
  // A TD's next id, unique over the feeder: 1 + td + tds * (its count so far).
  uint64_t next_id(uint32_t td) { return 1 + td + tds_ * tds_state_[td].ids++; }
  uint64_t number_in_td(uint64_t id) const { return (id - 1) / tds_; }

  // Returned instructions waiting for process_returned(), per TD.
  struct PendingCheck {
    uint64_t order = 0;  // the TD's returned count, interleaved over the TDs
    WaveInstr instr;
    WaveResult result;
  };
  // One TD's share (touched only by that TD's calls while the chip runs).
  struct alignas(64) TdState {
    std::deque<WaveInstr> queue;
    std::unordered_map<uint64_t, WaveInstr> in_flight;
    uint64_t ids = 0;
    uint64_t returned = 0;
    uint64_t waves_completed = 0;
    uint64_t first_accept = UINT64_MAX, last_complete = 0;
    std::vector<Returned> completions;
    uint64_t refuse_state = 0;
    uint64_t results_refused = 0;
    Scoreboard unknown;  // results nobody issued
  };
  const uint64_t tds_;
  std::vector<TdState> tds_state_;
  bool issues_loads_;
  Generator generator_;
  Completion completion_;
  const MemoryImage* memory_;
  DeferredChecks<PendingCheck> checks_;
  void check(Scoreboard& board, const PendingCheck& pending) const {
    board.check(pending.instr, pending.result, *memory_, pending.order);
  }
  Scoreboard merged_;         // scoreboard()'s answer
  uint64_t check_every_ = 1;
  uint32_t refuse_percent_ = 0;
};

}  // namespace td::tb

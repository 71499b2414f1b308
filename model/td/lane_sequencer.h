// lane_sequencer.h — the TD's issue stage: walks the lanes of the accepted
// instructions in order and sends at most one active lane a clock onward.
// Inactive lanes are skipped at no cost (contract §3/§8). Lanes that need no
// fetch (descriptor fault, reserved type, out of bounds) go straight to
// write-back with their all-ones result; the others (a load's active lanes
// too) go to node fetch.
#pragma once

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_stats.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

class LaneSequencer {
 public:
  LaneSequencer(const char* name, WaveBuffer& waves, sim::Channel<FetchJob>& fetch_out,
                sim::Channel<LaneDone>& no_fetch_out, TdStats& stats);

  void tick(uint64_t cycle);
  // A lane is waiting and its output has room: progress next clock.
  bool can_progress() const;
  // The next lane needs a fetch and the fetch queue is full.
  bool blocked_on_fetch_queue() const;
  void reset() { issued_ = stalled_ = false; }

  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;
  const char* name() const { return view_.name(); }
  // The last tick.
  bool issued() const { return issued_; }
  bool stalled() const { return stalled_; }
  uint32_t last_lane() const { return last_lane_; }
  uint64_t last_wave() const { return last_wave_; }

 private:
  // Skips inactive lanes (free) and fully sequenced instructions; returns
  // the slot holding the next lane to issue, or nullptr.
  WaveSlot* next_lane_slot(uint64_t cycle);
  void count_outcome(LaneOutcome outcome);

  WaveBuffer& waves_;
  sim::Channel<FetchJob>& fetch_out_;
  sim::Channel<LaneDone>& no_fetch_out_;
  TdStats& stats_;
  bool issued_ = false, stalled_ = false;
  uint32_t last_lane_ = 0;
  uint64_t last_wave_ = 0;
  struct TraceSignals {
    sim::VcdWriter::SignalId lane_valid, lane_stall, lane_index, wave_id;
  } trace_{};
  StageView view_;
};

}  // namespace td::timing

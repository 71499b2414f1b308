// sort_stage.h — the sorting network's stage: takes each box result as the
// box datapath hands it over and orders the hit children closest first
// (when the descriptor asks), `sort_latency_cycles` deep. The datapath is a
// Datapath (datapath.h); its C++ implementation is ref::box_result.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"

namespace td::timing {

// The C++ sorting network: (key, slot) order, hit children first.
LaneDone sort_datapath_cpp(const SortLane& lane);

class SortStage final : public LaneSink<BoxTested> {
 public:
  using MakeDatapath =
      std::function<std::unique_ptr<Datapath<SortLane, LaneDone>>(LaneSink<LaneDone>&, uint32_t, const std::string&)>;
  // Sorted results go to `out` (write-back's sort port).
  SortStage(const char* name, uint32_t latency_cycles, LaneSink<LaneDone>& out, const MakeDatapath& make);

  // A box result reaches the network at `cycle` (one a clock): a network
  // that needs no clock takes it then, at once, even for a cycle still to
  // come; a clocked one takes it in tick() of that cycle.
  void deliver(const BoxTested& tested, uint64_t cycle) override;
  // The network keeps time (an RTL pipeline): clock() and next_output_cycle() matter.
  bool clocked() const { return clocked_; }
  // A clocked network's edges up to this cycle; first in the TD's tick.
  void clock(uint64_t cycle) {
    if (clocked_) datapath_->clock_until(cycle);
  }
  uint64_t next_output_cycle() const;
  // A clocked network takes the box result that reached it by this cycle.
  void tick(uint64_t cycle);

  size_t in_flight() const { return datapath_->lanes_inside() + waiting_.size(); }
  void reset() {
    waiting_.clear();
    trace_accepts_.clear();
    datapath_->reset();
  }
  const char* name() const { return view_.name(); }
  // A lane went into the network since the last tick() (for the TD's progress).
  bool accepted() const { return accepted_; }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle);

 private:
  void accept(const BoxTested& tested, uint64_t cycle);

  StageView view_;
  std::unique_ptr<Datapath<SortLane, LaneDone>> datapath_;  // hands its results to write-back
  bool clocked_;
  bool accepted_ = false;
  // Box results waiting for their cycle (a clocked network only).
  std::deque<std::pair<BoxTested, uint64_t>> waiting_;
  // Traced: the cycles lanes go in, oldest first (a cycle may be ahead).
  bool traced_ = false;
  std::deque<uint64_t> trace_accepts_;
  sim::VcdWriter::SignalId trace_in_valid_ = 0;
};

}  // namespace td::timing

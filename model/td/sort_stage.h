// sort_stage.h — the sorting network's stage: takes each box result as it
// comes out of the box datapath and orders the hit children closest first
// (when the descriptor asks), `sort_latency_cycles` deep. The datapath is a
// Datapath (datapath.h); its C++ implementation is ref::box_result.
#pragma once

#include <functional>
#include <memory>

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

// The C++ sorting network: (key, slot) order, hit children first.
LaneDone sort_datapath_cpp(const SortLane& lane);

class SortStage {
 public:
  using MakeDatapath =
      std::function<std::unique_ptr<Datapath<SortLane, LaneDone>>(sim::Channel<LaneDone>&, uint32_t, const std::string&)>;
  // `out` is the network's output, made by output_channel(latency_cycles);
  // its owner (the TD) keeps it beside its other channels.
  SortStage(const char* name, uint32_t latency_cycles, sim::Channel<BoxTested>& in, sim::Channel<LaneDone>& out,
            const WaveBuffer& waves, const MakeDatapath& make);
  // The network's output registers: room for every lane inside, each
  // visible `latency_cycles` after it entered.
  static sim::Channel<LaneDone> output_channel(uint32_t latency_cycles) {
    return sim::Channel<LaneDone>(latency_cycles + 1, latency_cycles);
  }

  // The network keeps time (an RTL pipeline): clock() and next_output_cycle() matter.
  bool clocked() const { return clocked_; }
  // A clocked network's edges up to this cycle; first in the TD's tick.
  void clock(uint64_t cycle) {
    if (clocked_) datapath_->clock_until(cycle);
  }
  uint64_t next_output_cycle() const { return clocked_ ? datapath_->next_output_cycle() : UINT64_MAX; }
  // A box result that came out moves into the network (one a clock).
  void tick(uint64_t cycle);

  // The network's output registers: sorted results come out here.
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
  size_t in_flight() const { return datapath_->lanes_inside() + out_.size(); }
  void reset() {
    out_.clear();
    datapath_->reset();
  }
  const char* name() const { return view_.name(); }
  bool accepted() const { return accepted_; }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  sim::Channel<BoxTested>& in_;
  const WaveBuffer& waves_;
  sim::Channel<LaneDone>& out_;
  StageView view_;
  std::unique_ptr<Datapath<SortLane, LaneDone>> datapath_;  // fills out_
  bool clocked_;
  bool accepted_ = false;
  sim::VcdWriter::SignalId trace_in_valid_ = 0;
};

}  // namespace td::timing

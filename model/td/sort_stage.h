// sort_stage.h — the sorting network's stage: takes each box result as it
// comes out of the box datapath and orders the hit children closest first
// (when the descriptor asks), `sort_latency_cycles` deep. The datapath is a
// Datapath (datapath.h); its C++ implementation is ref::box_result.
#pragma once

#include <memory>
#include <systemc>

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

using SortDatapath = Datapath<SortLane, LaneDone>;

// The C++ sorting network: (key, slot) order, hit children first.
LaneDone sort_datapath_cpp(const SortLane& lane);

class SortStage : public sc_core::sc_module {
 public:
  SortStage(sc_core::sc_module_name name, uint32_t latency_cycles, sim::Channel<BoxTested>& in,
            const WaveBuffer& waves);

  // The network's clock (a clocked one, while it holds lanes), then a box
  // result that came out moves into it (one a clock).
  void tick(uint64_t cycle);
  bool needs_clock() const { return clocked_ && datapath_->lanes_inside() > 0; }

  // The network's output registers: sorted results come out here.
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
  size_t in_flight() const { return datapath_->lanes_inside() + out_.size(); }
  void reset() {
    out_.clear();
    datapath_->reset();
  }
  bool accepted() const { return accepted_; }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  sim::Channel<BoxTested>& in_;
  const WaveBuffer& waves_;
  sim::Channel<LaneDone> out_;
  std::unique_ptr<SortDatapath> datapath_;  // fills out_
  bool clocked_;
  bool accepted_ = false;
  sim::VcdWriter::SignalId trace_in_valid_ = 0;
};

}  // namespace td::timing

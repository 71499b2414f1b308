// box_stage.h — the box datapath's stage: widens FP16 boxes, then four slab
// tests in one clock; pipelined, `box_latency_cycles` deep. The datapath is
// a Datapath (datapath.h); its C++ implementation is ref::box_test, shared
// with the golden reference (bit-exact by construction).
#pragma once

#include <memory>
#include <systemc>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/td_types.h"

namespace td::timing {

using BoxDatapath = Datapath<NodeLane, BoxTested>;

// The C++ box datapath: decode the node, test the ray against its four boxes.
BoxTested box_datapath_cpp(const NodeLane& lane);

class BoxStage : public sc_core::sc_module {
 public:
  BoxStage(sc_core::sc_module_name name, uint32_t latency_cycles);

  // (An unclocked datapath holds no lane: its room is its output's.)
  bool can_accept() const { return clocked_ ? datapath_->can_accept() : out_.can_push(); }
  // One lane a clock: `node_bytes` are the node's 64 (FP16) or 128 (FP32) bytes.
  void accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes, const Descriptor& descriptor,
              uint64_t cycle);
  // The datapath's clock (a clocked one only, while it holds lanes).
  void tick(uint64_t cycle) {
    if (needs_clock()) datapath_->tick(cycle);
  }
  bool needs_clock() const { return clocked_ && datapath_->lanes_inside() > 0; }

  // The pipeline's output registers: results come out here.
  sim::Channel<BoxTested>& out() { return out_; }
  const sim::Channel<BoxTested>& out() const { return out_; }
  size_t in_flight() const { return datapath_->lanes_inside() + out_.size(); }
  void reset() {
    out_.clear();
    datapath_->reset();
  }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  sim::Channel<BoxTested> out_;
  std::unique_ptr<BoxDatapath> datapath_;  // fills out_
  bool clocked_;
  uint64_t last_accept_cycle_ = UINT64_MAX;  // the trace's in_valid
  struct TraceSignals {
    sim::VcdWriter::SignalId in_valid, in_ready;
  } trace_{};
};

}  // namespace td::timing

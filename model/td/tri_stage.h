// tri_stage.h — the triangle datapath's stage: the watertight ray/triangle
// test with the return-mode formatting; pipelined, `triangle_latency_cycles`
// deep. The datapath is a Datapath (datapath.h); its C++ implementation is
// ref::triangle_node_test and ref::triangle_result.
#pragma once

#include <memory>
#include <systemc>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/td_types.h"

namespace td::timing {

using TriangleDatapath = Datapath<NodeLane, LaneDone>;

// The C++ triangle datapath: decode the node, test the ray against the
// triangle the node pointer names, format the result.
LaneDone triangle_datapath_cpp(const NodeLane& lane);

class TriStage : public sc_core::sc_module {
 public:
  TriStage(sc_core::sc_module_name name, uint32_t latency_cycles);

  // (An unclocked datapath holds no lane: its room is its output's.)
  bool can_accept() const { return clocked_ ? datapath_->can_accept() : out_.can_push(); }
  // One lane a clock: `node_bytes` are the triangle node's 64 bytes.
  void accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes, const Descriptor& descriptor,
              uint64_t cycle);
  // The datapath's clock (a clocked one only, while it holds lanes).
  void tick(uint64_t cycle) {
    if (needs_clock()) datapath_->tick(cycle);
  }
  bool needs_clock() const { return clocked_ && datapath_->lanes_inside() > 0; }

  // The pipeline's output registers: results come out here.
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
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
  sim::Channel<LaneDone> out_;
  std::unique_ptr<TriangleDatapath> datapath_;  // fills out_
  bool clocked_;
  uint64_t last_accept_cycle_ = UINT64_MAX;  // the trace's in_valid
  struct TraceSignals {
    sim::VcdWriter::SignalId in_valid, in_ready;
  } trace_{};
};

}  // namespace td::timing

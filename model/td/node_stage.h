// node_stage.h — a datapath stage fed by the issue port, one node lane a
// clock: the box stage and the triangle stage are this with their own
// output. A thin stage (its SystemC name in a StageView, trace signals)
// around a Datapath (datapath.h) of the implementation td.datapath names,
// which hands its results to the next stage (`out`).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "model/isa/descriptor.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"

namespace td::timing {

template <typename Out>
class NodeStage {
 public:
  using MakeDatapath =
      std::function<std::unique_ptr<Datapath<NodeLane, Out>>(LaneSink<Out>&, uint32_t, const std::string&)>;
  NodeStage(const char* name, uint32_t latency_cycles, LaneSink<Out>& out, const MakeDatapath& make)
      : view_(name), datapath_(make(out, latency_cycles, view_.name())), clocked_(datapath_->clocked()) {}

  const char* name() const { return view_.name(); }

  // The datapath keeps time (an RTL pipeline): clock() and next_output_cycle() matter.
  bool clocked() const { return clocked_; }
  // One lane a clock: `node_bytes` are the node's 64 bytes (128 for an FP32 box node).
  void accept(const LaneJob& job, NodeType type, const Ray& ray, const uint8_t* node_bytes,
              const Descriptor& descriptor, uint64_t cycle) {
    last_accept_cycle_ = cycle;
    datapath_->accept(NodeLane{job, type, &ray, node_bytes, &descriptor}, cycle);
  }
  // A clocked datapath's edges up to this cycle; first in the TD's tick.
  void clock(uint64_t cycle) {
    if (clocked_) datapath_->clock_until(cycle);
  }
  // When the next result comes out of a clocked datapath (UINT64_MAX: none inside).
  uint64_t next_output_cycle() const { return clocked_ ? datapath_->next_output_cycle() : UINT64_MAX; }

  size_t in_flight() const { return datapath_->lanes_inside(); }
  void reset() { datapath_->reset(); }

  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd) {
    trace_in_valid_ = vcd.add(std::string(name()) + ".in_valid", 1);
    datapath_->attach_trace(vcd);
  }
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
    vcd.set(trace_in_valid_, last_accept_cycle_ == cycle, cycle);
  }

 private:
  StageView view_;
  std::unique_ptr<Datapath<NodeLane, Out>> datapath_;  // hands its results to the next stage
  bool clocked_;
  uint64_t last_accept_cycle_ = UINT64_MAX;  // the trace's in_valid
  sim::VcdWriter::SignalId trace_in_valid_ = 0;
};

}  // namespace td::timing

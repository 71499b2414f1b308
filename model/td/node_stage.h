// node_stage.h — a datapath stage fed by the issue port, one node lane a
// clock: the box stage and the triangle stage are this with their own
// output. A thin stage (its SystemC name in a StageView, trace signals, the
// output channel that stands for the pipeline's output registers) around a Datapath
// (datapath.h) of the implementation td.datapath names.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"

namespace td::timing {

template <typename Out>
class NodeStage {
 public:
  using MakeDatapath =
      std::function<std::unique_ptr<Datapath<NodeLane, Out>>(sim::Channel<Out>&, uint32_t, const std::string&)>;
  // `out` is the stage's output, made by output_channel(latency_cycles);
  // its owner (the TD) keeps it beside its other channels.
  NodeStage(const char* name, uint32_t latency_cycles, sim::Channel<Out>& out, const MakeDatapath& make)
      : out_(out),
        view_(name),
        datapath_(make(out_, latency_cycles, view_.name())),
        clocked_(datapath_->clocked()) {}

  // The pipeline's output registers: room for every lane inside, each
  // visible `latency_cycles` after it entered.
  static sim::Channel<Out> output_channel(uint32_t latency_cycles) {
    return sim::Channel<Out>(latency_cycles + 1, latency_cycles);
  }

  const char* name() const { return view_.name(); }

  // The datapath keeps time (an RTL pipeline): clock() and next_output_cycle() matter.
  bool clocked() const { return clocked_; }
  // (An unclocked datapath holds no lane: its room is its output's.)
  bool can_accept() const { return clocked_ ? datapath_->can_accept() : out_.can_push(); }
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

  // The pipeline's output registers: results come out here.
  sim::Channel<Out>& out() { return out_; }
  const sim::Channel<Out>& out() const { return out_; }
  size_t in_flight() const { return datapath_->lanes_inside() + out_.size(); }
  void reset() {
    out_.clear();
    datapath_->reset();
  }

  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd) {
    const std::string prefix = std::string(name()) + ".";
    trace_in_valid_ = vcd.add(prefix + "in_valid", 1);
    trace_in_ready_ = vcd.add(prefix + "in_ready", 1);
    datapath_->attach_trace(vcd);
  }
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
    vcd.set(trace_in_valid_, last_accept_cycle_ == cycle, cycle);
    vcd.set(trace_in_ready_, can_accept(), cycle);
  }

 private:
  sim::Channel<Out>& out_;
  StageView view_;
  std::unique_ptr<Datapath<NodeLane, Out>> datapath_;  // fills out_
  bool clocked_;
  uint64_t last_accept_cycle_ = UINT64_MAX;  // the trace's in_valid
  sim::VcdWriter::SignalId trace_in_valid_ = 0, trace_in_ready_ = 0;
};

}  // namespace td::timing

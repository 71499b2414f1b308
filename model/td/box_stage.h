// box_stage.h — the FP32 box datapath: widens FP16 boxes, then four slab
// tests in one clock; pipelined, `box_latency_cycles` deep. The maths is
// ref::box_test, shared with the golden reference (bit-exact by construction).
#pragma once

#include <systemc>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_types.h"

namespace td::timing {

class BoxStage : public sc_core::sc_module {
 public:
  BoxStage(sc_core::sc_module_name name, uint32_t latency_cycles);

  bool can_accept() const { return out_.can_push(); }
  // One lane a clock: `node_bytes` are the node's 64 (FP16) or 128 (FP32) bytes.
  void accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes, const Descriptor& descriptor,
              uint64_t cycle);

  sim::Channel<BoxTested>& out() { return out_; }
  const sim::Channel<BoxTested>& out() const { return out_; }
  void reset() { out_.clear(); }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  uint64_t last_accept_cycle_ = UINT64_MAX;  // the trace's in_valid
  struct TraceSignals {
    sim::VcdWriter::SignalId in_valid, in_ready;
  } trace_{};
  sim::Channel<BoxTested> out_;  // the pipeline registers
};

}  // namespace td::timing

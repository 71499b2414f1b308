// tri_stage.h — the watertight ray/triangle datapath with the return-mode
// formatting; pipelined, `triangle_latency_cycles` deep. Maths:
// ref::triangle_node_test and ref::triangle_result.
#pragma once

#include <systemc>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_types.h"

namespace td::timing {

class TriStage : public sc_core::sc_module {
 public:
  TriStage(sc_core::sc_module_name name, uint32_t latency_cycles);

  bool can_accept() const { return out_.can_push(); }
  void accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes, const Descriptor& descriptor,
              uint64_t cycle);
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
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
  sim::Channel<LaneDone> out_;
};

}  // namespace td::timing

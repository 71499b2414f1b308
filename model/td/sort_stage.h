// sort_stage.h — the sorting network after the box datapath: orders the hit
// children by (entry distance, slot) when the descriptor asks for it, else
// passes them in slot order; `sort_latency_cycles` deep. Maths: ref::box_result.
#pragma once

#include <systemc>

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

class SortStage : public sc_core::sc_module {
 public:
  SortStage(sc_core::sc_module_name name, uint32_t latency_cycles, sim::Channel<BoxTested>& in,
            const WaveBuffer& waves);

  void tick(uint64_t cycle);
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
  void reset() { out_.clear(); }
  bool accepted() const { return accepted_; }
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  sim::Channel<BoxTested>& in_;
  const WaveBuffer& waves_;
  sim::Channel<LaneDone> out_;
  bool accepted_ = false;
  sim::VcdWriter::SignalId trace_in_valid_ = 0;
};

}  // namespace td::timing

// rtl_trace.h — the Verilated units' own signals in a run's waveform: every
// unit of the chip traces into one Verilator VCD file beside the model's
// (a VcdCompanion of its VcdWriter), dumped once per traced clock after the
// whole chip ticked, and merged into the model's file when it closes. Each
// unit's scope is its stage's (chip.wgp0.td0.box_stage), its signals named
// as in the RTL (td_box_datapath.u_operands.q_o, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/rtl/verilated_models.h"
#include "model/sim/vcd_writer.h"

class VerilatedVcdC;

namespace td::rtl {

class RtlTrace final : public sim::VcdCompanion {
 public:
  // The one RtlTrace of `vcd`, made on first use.
  static RtlTrace& of(sim::VcdWriter& vcd);

  explicit RtlTrace(const sim::VcdWriter& vcd);
  ~RtlTrace() override;  // unfinished: its temporary file is removed

  // Records every signal of `model` (before the first sample).
  template <typename Model>
  void add(Model& model) {
    model.trace(tfp_.get(), 99);
  }

  void sample(uint64_t cycle) override;
  std::string finish() override;

 private:
  void open_if_needed();

  std::string path_;
  uint64_t period_ps_;
  int temp_slot_ = -1;
  bool opened_ = false, finished_ = false;
  std::unique_ptr<VerilatedVcdC> tfp_;
};

}  // namespace td::rtl

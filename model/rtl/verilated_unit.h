// verilated_unit.h — the one harness every Verilated unit runs in (lowRISC
// Ibex's verilator_sim_ctrl is the model): the model under its hierarchical
// name, its reset, one clock edge at a time. The RTL tests and the timing
// model's datapaths both drive units through it. All units share one
// VerilatedContext: time and tracing are the process's, as in one chip.
#pragma once

#include <memory>
#include <string>

#include "model/rtl/verilated_models.h"

namespace td::rtl {

VerilatedContext& shared_context();

// A build with TDSIM_RTL_COVERAGE (scripts/coverage) counts the datapaths'
// lines, branches and toggles. The counts live in the models, and the context only
// points at them, so they are written while the models exist: when the
// first of a set of units is destroyed (a chip destroys all of its
// together), the counts of every unit alive then go to one file,
// coverage-<pid>-<n>.dat in the folder TDSIM_RTL_COVERAGE_DIR names (default:
// the current one; std::runtime_error naming it when it cannot be written),
// and the context forgets them (verilator_coverage merges the files). A unit
// that outlives such a write (one of another chip still running) counts no
// further; tdsim's engines make and destroy a chip's units together.
// Without TDSIM_RTL_COVERAGE both do nothing.
void unit_created();
void unit_destroyed();

template <typename Model>
class VerilatedUnit {
 public:
  // `name` becomes the unit's scope in traces (e.g. "chip.wgp0.td0.box_stage.rtl").
  explicit VerilatedUnit(const std::string& name = "unit")
      : model_(std::make_unique<Model>(&shared_context(), name.c_str())) {
    unit_created();
    reset();
  }
  ~VerilatedUnit() {
    unit_destroyed();
    model_->final();
  }
  VerilatedUnit(const VerilatedUnit&) = delete;
  VerilatedUnit& operator=(const VerilatedUnit&) = delete;

  // The ports: drive inputs here, read outputs after clock().
  Model& io() { return *model_; }
  const Model& io() const { return *model_; }

  // Reset for one clock with nothing going in: every valid bit clears.
  void reset() {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->in_valid_i = 0;
    model_->eval();
    clock();
    model_->rst_ni = 1;
    model_->eval();
  }

  // One clock on the inputs as driven: the low phase (inputs settle; a
  // clock gate's latch takes its enable), then the rising edge. Verilator
  // sees an edge only between two evaluations; the clock stays high until
  // the next call, so outputs read now are those after the edge.
  void clock() {
    model_->clk_i = 0;
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
  }

  // Clocks from a lane going in (in_valid_i high at the first edge) to its
  // result coming out (out_valid_o high): the unit's latency, measured.
  uint32_t measure_latency(uint32_t give_up_after = 1000) {
    reset();
    model_->in_valid_i = 1;
    uint32_t clocks = 0;
    do {
      clock();
      model_->in_valid_i = 0;
      ++clocks;
    } while (!model_->out_valid_o && clocks < give_up_after);
    reset();
    return clocks;
  }

 private:
  std::unique_ptr<Model> model_;
};

}  // namespace td::rtl

#include "model/rtl/rtl_trace.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#include "verilated_vcd_c.h"
#pragma GCC diagnostic pop

#include "model/rtl/verilated_unit.h"
#include "model/sim/interrupt.h"

namespace td::rtl {

RtlTrace& RtlTrace::of(sim::VcdWriter& vcd) {
  return static_cast<RtlTrace&>(
      vcd.companion("rtl", [&vcd]() -> std::unique_ptr<sim::VcdCompanion> { return std::make_unique<RtlTrace>(vcd); }));
}

RtlTrace::RtlTrace(const sim::VcdWriter& vcd)
    : path_(fmt::format("{}.rtl.tmp.{}.vcd", vcd.path(), static_cast<long>(getpid()))),
      period_ps_(vcd.period_ps()),
      tfp_(std::make_unique<VerilatedVcdC>()) {
  shared_context().traceEverOn(true);
  temp_slot_ = sim::register_temp_file(path_);
}

RtlTrace::~RtlTrace() {
  if (opened_ && !finished_) tfp_->close();
  std::remove(path_.c_str());
  sim::unregister_temp_file(temp_slot_);
}

// Opened at the first sample: every unit has been added by then (Verilator
// declares a file's signals when it opens).
void RtlTrace::open_if_needed() {
  if (opened_) return;
  opened_ = true;
  tfp_->open(path_.c_str());
  if (!tfp_->isOpen()) throw std::runtime_error(fmt::format("{}: cannot create the RTL units' trace", path_));
}

void RtlTrace::sample(uint64_t cycle) {
  open_if_needed();
  tfp_->dump(cycle * period_ps_);
}

std::string RtlTrace::finish() {
  open_if_needed();  // (a run with no traced clock still gives a whole file)
  finished_ = true;
  tfp_->close();
  return path_;
}

}  // namespace td::rtl

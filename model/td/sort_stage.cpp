#include "model/td/sort_stage.h"

#include <string>

#include "model/ref/box_test.h"

namespace td::timing {

SortStage::SortStage(sc_core::sc_module_name name, uint32_t latency_cycles, sim::Channel<BoxTested>& in,
                     const WaveBuffer& waves)
    : sc_module(name), in_(in), waves_(waves), out_(latency_cycles + 1, latency_cycles) {}

void SortStage::tick(uint64_t cycle) {
  accepted_ = false;
  // The box stage delivers at most one lane a clock, and this stage is as
  // wide, so its input never backs up.
  if (!in_.can_pop(cycle) || !out_.can_push()) return;
  const BoxTested item = in_.pop();
  const Descriptor& descriptor = waves_.slot(item.job.slot).instr.descriptor;
  LaneDone done{item.job.slot, item.job.lane, LaneResult{}};
  done.result.written = true;
  done.result.outcome = LaneOutcome::kBoxNode;
  done.result.dwords = ref::box_result(item.child, item.tests, descriptor.box_sort);
  out_.push(std::move(done), cycle);
  accepted_ = true;
}


void SortStage::attach_trace(sim::VcdWriter& vcd) { trace_in_valid_ = vcd.add(std::string(name()) + ".in_valid", 1); }

void SortStage::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const { vcd.set(trace_in_valid_, accepted_, cycle); }

}  // namespace td::timing

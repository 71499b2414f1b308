#include "model/td/sort_stage.h"

#include <string>

#include "model/ref/box_test.h"

namespace td::timing {

LaneDone sort_datapath_cpp(const SortLane& lane) {
  return LaneDone::written(lane.tested.job, LaneOutcome::kBoxNode,
                           ref::box_result(lane.tested.child, lane.tested.tests, lane.box_sort));
}

SortStage::SortStage(const char* name, uint32_t latency_cycles, sim::Channel<BoxTested>& in,
                     sim::Channel<LaneDone>& out, const WaveBuffer& waves, const MakeDatapath& make)
    : in_(in),
      waves_(waves),
      out_(out),
      view_(name),
      datapath_(make(out_, latency_cycles, view_.name())),
      clocked_(datapath_->clocked()) {}

void SortStage::tick(uint64_t cycle) {
  accepted_ = false;
  // The box datapath delivers at most one lane a clock, and this stage is
  // as wide, so its input never backs up.
  if (!in_.can_pop(cycle) || !(clocked_ ? datapath_->can_accept() : out_.can_push())) return;
  SortLane lane{in_.pop(), true};
  lane.box_sort = waves_.slot(lane.tested.job.slot).descriptor.box_sort;
  datapath_->accept(lane, cycle);
  accepted_ = true;
}

void SortStage::attach_trace(sim::VcdWriter& vcd) {
  trace_in_valid_ = vcd.add(std::string(name()) + ".in_valid", 1);
  datapath_->attach_trace(vcd);
}

void SortStage::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const { vcd.set(trace_in_valid_, accepted_, cycle); }

}  // namespace td::timing

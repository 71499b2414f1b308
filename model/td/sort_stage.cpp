#include "model/td/sort_stage.h"

#include <string>

#include "model/ref/box_test.h"

namespace td::timing {

LaneDone sort_datapath_cpp(const SortLane& lane) {
  return LaneDone::written(lane.job, LaneOutcome::kBoxNode, ref::box_result(lane.child, lane.tests, lane.box_sort));
}

SortStage::SortStage(const char* name, uint32_t latency_cycles, LaneSink<LaneDone>& out, const MakeDatapath& make)
    : view_(name), datapath_(make(out, latency_cycles, view_.name())), clocked_(datapath_->clocked()) {}

void SortStage::deliver(const BoxTested& tested, uint64_t cycle) {
  if (clocked_)
    waiting_.emplace_back(tested, cycle);
  else
    accept(tested, cycle);
}

void SortStage::accept(const BoxTested& tested, uint64_t cycle) {
  datapath_->accept(tested, cycle);
  accepted_ = true;
  if (traced_) trace_accepts_.push_back(cycle);
}

uint64_t SortStage::next_output_cycle() const {
  if (!clocked_) return UINT64_MAX;
  const uint64_t inside = datapath_->next_output_cycle();
  return waiting_.empty() ? inside : std::min(inside, waiting_.front().second);
}

void SortStage::tick(uint64_t cycle) {
  accepted_ = false;
  // The box datapath delivers at most one lane a clock, and this stage is
  // as wide, so nothing waits past its cycle.
  if (waiting_.empty() || waiting_.front().second > cycle) return;
  accept(waiting_.front().first, cycle);
  waiting_.pop_front();
}

void SortStage::attach_trace(sim::VcdWriter& vcd) {
  traced_ = true;
  trace_in_valid_ = vcd.add(std::string(name()) + ".in_valid", 1);
  datapath_->attach_trace(vcd);
}

void SortStage::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) {
  while (!trace_accepts_.empty() && trace_accepts_.front() < cycle) trace_accepts_.pop_front();
  vcd.set(trace_in_valid_, !trace_accepts_.empty() && trace_accepts_.front() == cycle, cycle);
}

}  // namespace td::timing

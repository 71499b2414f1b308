#include "model/td/wave_buffer.h"

#include <cassert>

namespace td::timing {

uint32_t WaveBuffer::accept(const WaveInstr& instr, uint64_t cycle) {
  assert(!full() && !instr.lanes.empty() && instr.lanes.size() <= WaveInstr::kMaxLanes);
  const uint32_t index = wrap(head_ + count_);
  WaveSlot& s = slots_[index];
  s.id = instr.id;
  s.kind = instr.kind;
  s.descriptor = instr.descriptor;
  s.lanes_to_write = 0;
  s.active_mask = 0;
  s.lanes_written = 0;
  s.next_lane = 0;
  s.lane_count = static_cast<uint32_t>(instr.lanes.size());
  s.accept_cycle = cycle;
  s.sequenced_cycle = 0;
  s.done_cycle = 0;
  s.last_write_cycle = 0;
  ++count_;
  return index;
}

void WaveBuffer::plan(uint32_t index, const WaveInstr& instr) {
  WaveSlot& s = slots_[index];
  assert(instr.id == s.id && instr.kind == InstrKind::kIntersect && instr.lanes.size() == s.lane_count);
  const uint32_t lanes = s.lane_count;
  s.results.assign(lanes, LaneResult::no_write());
  s.rays.resize(lanes);
  s.routes.resize(lanes);
  for (uint32_t i = 0; i < lanes; ++i) {
    const ref::LanePlan plan = ref::plan_lane(s.descriptor, instr.lanes[i]);
    s.routes[i] = LaneRoute::of(plan);
    if (plan.outcome == LaneOutcome::kInactive) continue;
    ++s.lanes_to_write;
    s.active_mask |= uint64_t{1} << i;
    if (plan.needs_fetch()) s.rays[i] = plan.ray;
  }
}

void WaveBuffer::plan_load(uint32_t index, const WaveInstr& instr) {
  WaveSlot& s = slots_[index];
  assert(instr.id == s.id && instr.kind == InstrKind::kLoad && instr.lanes.size() == s.lane_count);
  s.results.assign(s.lane_count, LaneResult::no_write());
  s.routes.resize(s.lane_count);
  for (uint32_t i = 0; i < s.lane_count; ++i) {
    const LaneInput& lane = instr.lanes[i];
    if (!lane.exec) {
      s.routes[i] = LaneRoute{};  // kInactive
      continue;
    }
    s.routes[i] = LaneRoute::load(lane);
    ++s.lanes_to_write;
    s.active_mask |= uint64_t{1} << i;
  }
}

void WaveBuffer::retire_oldest() {
  head_ = wrap(head_ + 1);
  --count_;
  if (sequencing_ > 0) --sequencing_;
}

void WaveBuffer::clear() { head_ = count_ = sequencing_ = 0; }

}  // namespace td::timing

#include "model/td/lane_sequencer.h"

#include <string>

namespace td::timing {

LaneSequencer::LaneSequencer(const char* name, WaveBuffer& waves, sim::Channel<FetchJob>& fetch_out,
                             sim::Channel<LaneDone>& no_fetch_out, TdStats& stats)
    : waves_(waves), fetch_out_(fetch_out), no_fetch_out_(no_fetch_out), stats_(stats), view_(name) {}

WaveSlot* LaneSequencer::next_lane_slot(uint64_t cycle) {
  while (waves_.has_unsequenced()) {
    WaveSlot& slot = waves_.slot(waves_.sequencing_slot());
    // Accepted this clock: sequenced from the next (the TD accepts before
    // its pipeline runs; the instruction reaches the sequencer a clock later).
    if (slot.accept_cycle == cycle) return nullptr;
    // Inactive lanes are passed over at once: jump to the next active one.
    const uint64_t ahead = slot.next_lane < 64 ? slot.active_mask >> slot.next_lane : 0;
    const uint32_t next = ahead ? slot.next_lane + static_cast<uint32_t>(__builtin_ctzll(ahead))
                                : slot.lane_count;
    if (next != slot.next_lane) stats_.inactive_lanes.add(next - slot.next_lane);  // (its line left cold otherwise)
    slot.next_lane = next;
    if (!slot.sequenced()) return &slot;
    slot.sequenced_cycle = cycle;
    waves_.advance_sequencing();
  }
  return nullptr;
}

bool LaneSequencer::can_progress() const {
  if (!waves_.has_unsequenced()) return false;
  const WaveSlot& slot = waves_.slot(waves_.sequencing_slot());
  if (slot.sequenced()) return true;  // passed over for free next clock
  if (!slot.next_lane_active()) return true;  // skipped for free
  return slot.routes[slot.next_lane].needs_fetch() ? fetch_out_.can_push() : no_fetch_out_.can_push();
}

bool LaneSequencer::blocked_on_fetch_queue() const {
  if (!waves_.has_unsequenced() || fetch_out_.can_push()) return false;
  const WaveSlot& slot = waves_.slot(waves_.sequencing_slot());
  return !slot.sequenced() && slot.routes[slot.next_lane].needs_fetch();
}

void LaneSequencer::count_outcome(LaneOutcome outcome) {
  ++stats_.active_lanes;
  switch (outcome) {
    case LaneOutcome::kDescriptorFault: ++stats_.descriptor_faults; break;
    case LaneOutcome::kOutOfBounds: ++stats_.out_of_bounds; break;
    case LaneOutcome::kReservedType: ++stats_.reserved_types; break;
    default: break;
  }
}

void LaneSequencer::tick(uint64_t cycle) {
  issued_ = stalled_ = false;
  WaveSlot* slot = next_lane_slot(cycle);
  if (!slot) return;
  const uint32_t lane = slot->next_lane;
  const LaneRoute& route = slot->routes[lane];
  const uint32_t slot_index = static_cast<uint32_t>(slot - &waves_.slot(0));
  if (route.needs_fetch()) {
    if (!fetch_out_.can_push()) {
      stalled_ = true;
      ++stats_.stall(Stall::kFetchQueueFull);
      return;
    }
    fetch_out_.push(FetchJob::of(LaneJob{slot_index, lane}, route.address, route.bytes, route.type), cycle);
  } else {
    if (!no_fetch_out_.can_push()) {
      stalled_ = true;
      return;
    }
    no_fetch_out_.push(LaneDone{slot_index, lane, ref::result_without_fetch(route.outcome)}, cycle);
  }
  count_outcome(route.outcome);
  ++slot->next_lane;
  issued_ = true;
  last_lane_ = lane;
  last_wave_ = slot->id;
  // Skip a trailing run of inactive lanes now: they are free. (Nothing to
  // skip when the next lane is active, the common case.)
  if (!slot->next_lane_active()) next_lane_slot(cycle);
}

void LaneSequencer::attach_trace(sim::VcdWriter& vcd) {
  const std::string prefix = std::string(name()) + ".";
  trace_.lane_valid = vcd.add(prefix + "lane_valid", 1);
  trace_.lane_stall = vcd.add(prefix + "lane_stall", 1);
  trace_.lane_index = vcd.add(prefix + "lane_index", 6);
  trace_.wave_id = vcd.add(prefix + "wave_id", 32);
}

void LaneSequencer::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
  vcd.set(trace_.lane_valid, issued_, cycle);
  vcd.set(trace_.lane_stall, stalled_, cycle);
  vcd.set(trace_.lane_index, last_lane_, cycle);
  vcd.set(trace_.wave_id, last_wave_ & 0xffffffffu, cycle);
}

}  // namespace td::timing

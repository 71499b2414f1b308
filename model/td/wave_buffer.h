// wave_buffer.h — the TD's per-wave state: instructions in acceptance order,
// each with its lanes' routes and a result buffer (intersect and load
// instructions alike: see wave.h). The sequencer walks the
// lanes, write-back fills the results, and instructions retire in order from
// the head (results return in order to a wave, as the vmcnt counter assumes).
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

#include "model/isa/wave.h"
#include "model/sim/line_aligned.h"
#include "model/ref/intersect.h"
#include "model/td/td_types.h"

namespace td::timing {

// Where a lane goes, decided at acceptance: ref::plan_lane()'s plan without
// the ray, or a load lane's bytes. The sequencer reads only this, 16 bytes a
// lane, and hands a fetching lane's address, size and type on with it
// (FetchJob).
struct LaneRoute {
  uint64_t address = 0;  // node (or load) byte address when a fetch is needed
  uint32_t bytes = 0;    // 64 or 128 when a node fetch is needed; a load's 4 to 16
  NodeType type = NodeType::kTriangle0;  // kLoadLane for a load lane
  LaneOutcome outcome = LaneOutcome::kInactive;  // kBoxNode/kTriangle/kLoad: fetch needed

  static LaneRoute of(const ref::LanePlan& plan) {
    return LaneRoute{plan.address, plan.bytes, plan.type, plan.outcome};
  }
  // An active lane of a load instruction.
  static LaneRoute load(const LaneInput& lane) {
    return LaneRoute{lane.load_address(), lane.load_bytes(), kLoadLane, LaneOutcome::kLoad};
  }
  // A node fetch or a load: the outcomes from kBoxNode on.
  bool needs_fetch() const { return outcome >= LaneOutcome::kBoxNode; }
};
static_assert(static_cast<int>(LaneOutcome::kTriangle) == static_cast<int>(LaneOutcome::kBoxNode) + 1 &&
                  static_cast<int>(LaneOutcome::kLoad) == static_cast<int>(LaneOutcome::kTriangle) + 1,
              "the outcomes that fetch are the last three");
static_assert(sizeof(LaneRoute) == 16, "four routes a cache line");

// The fields the stages read every clock first (one cache line, with the
// routes' pointer), the results' pointer next, the instruction's id and
// descriptor last. The lanes' inputs are not kept: plan() reads them once,
// from the caller's instruction.
struct alignas(64) WaveSlot {
  uint64_t active_mask = 0;     // bit l: lane l is active (the sequencer's view)
  uint64_t accept_cycle = 0;
  uint64_t sequenced_cycle = 0; // the sequencer passed its last lane
  uint64_t done_cycle = 0;      // last write + return latency, once all written
  uint64_t last_write_cycle = 0;  // the latest cycle a lane's result reaches write-back
  uint32_t lanes_to_write = 0;  // active lanes (inactive ones write nothing)
  uint32_t lanes_written = 0;
  uint32_t next_lane = 0;       // sequencer position
  uint32_t lane_count = 0;      // the instruction's lanes (the sequencer asks every clock)
  sim::LineAlignedVector<LaneRoute> routes;  // per lane, decided at acceptance (four a line)
  std::vector<LaneResult> results;
  std::vector<Ray> rays;        // per fetching lane, for the datapaths
  uint64_t id = 0;              // the instruction's
  InstrKind kind = InstrKind::kIntersect;
  Descriptor descriptor;

  bool sequenced() const { return next_lane >= lane_count; }
  // The sequencer's next lane is an active one (false once all are passed).
  bool next_lane_active() const { return next_lane < 64 && ((active_mask >> next_lane) & 1u); }
  bool written() const { return lanes_written == lanes_to_write; }
};

class WaveBuffer {
 public:
  explicit WaveBuffer(uint32_t capacity) : slots_(capacity), capacity_(capacity) {}

  bool full() const { return count_ == capacity_; }
  bool empty() const { return count_ == 0; }
  uint32_t count() const { return count_; }
  uint32_t capacity() const { return capacity_; }

  // Takes the instruction into a slot; returns its index. plan() must
  // follow, with the same instruction, before the sequencer or write-back
  // sees it.
  uint32_t accept(const WaveInstr& instr, uint64_t cycle);
  // Plans every lane of `instr`, the instruction accepted into slot `index`
  // (inactive lanes, faults, bounds, node type): the slot keeps each lane's
  // route and each fetching lane's ray, for the datapaths, and its results
  // are cleared for write-back. Apart from accept() so that a TD takes the
  // instruction with the wave client and does this work with its pipeline;
  // the caller's buffer is then free again (a TD hands the client the same
  // one every time: its lines stay warm).
  void plan(uint32_t index, const WaveInstr& instr);
  // Plans a load instruction's lanes instead: each active lane (EXEC on)
  // fetches its bytes (LaneRoute::load). The results are cleared too.
  void plan_load(uint32_t index, const WaveInstr& instr);

  WaveSlot& slot(uint32_t index) { return slots_[index]; }
  const WaveSlot& slot(uint32_t index) const { return slots_[index]; }

  // The oldest instruction (head) and retiring it.
  uint32_t head() const { return head_; }
  WaveSlot& oldest() { return slots_[head_]; }
  void retire_oldest();

  // The oldest instruction whose lanes are not all sequenced, if any.
  bool has_unsequenced() const { return sequencing_ < count_; }
  uint32_t sequencing_slot() const { return wrap(head_ + sequencing_); }
  void advance_sequencing() { ++sequencing_; }

  void clear();

 private:
  // index < 2 * capacity: a compare instead of a division.
  uint32_t wrap(uint32_t index) const { return index >= capacity() ? index - capacity() : index; }

  std::vector<WaveSlot> slots_;
  uint32_t capacity_;  // slots_.size(), kept: a vector's size divides by the slot's size
  uint32_t head_ = 0, count_ = 0;
  uint32_t sequencing_ = 0;  // offset from head of the slot being sequenced
};

}  // namespace td::timing

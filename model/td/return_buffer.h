// return_buffer.h — the lanes whose node fetch L0 accepted, waiting for
// their bytes: those whose data cycle is known, in the order the issue port
// takes them (by ready cycle; equal ready cycles in the order they became
// known), and those waiting for a fill whose cycle is not known yet.
//
// A fixed ring, no allocation after construction: L0 hits land in request
// order with one latency, so a lane almost always goes in at the back; a
// miss whose fill cycle becomes known moves a few lanes up by one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/sim/line_aligned.h"
#include "model/td/td_types.h"

namespace td::timing {

class ReturnBuffer {
 public:
  explicit ReturnBuffer(size_t entries) : ring_(entries), entries_(entries) { pending_.reserve(entries); }

  size_t size() const { return landed_ + pending_.size(); }
  bool empty() const { return size() == 0; }
  bool full() const { return size() >= entries_; }
  size_t entries() const { return entries_; }

  // The lane the issue port takes next; UINT64_MAX while none has a known cycle.
  bool has_landed() const { return landed_ > 0; }
  const LandedLane& front() const { return ring_[head_]; }
  uint64_t earliest_ready() const { return landed_ > 0 ? ring_[head_].ready_cycle : UINT64_MAX; }
  LandedLane take_front() {
    const LandedLane lane = ring_[head_];
    head_ = wrap(head_ + 1);
    --landed_;
    return lane;
  }

  // A lane whose data cycle is known: behind every lane ready no later.
  void land(const FetchedLane& fetched) {
    const LandedLane lane = LandedLane::of(fetched);
    size_t position = landed_;
    for (; position > 0 && at(position - 1).ready_cycle > lane.ready_cycle; --position) at(position) = at(position - 1);
    at(position) = lane;
    ++landed_;
  }
  // A lane whose fill cycle is not known yet.
  void wait_for_fill(const FetchedLane& lane) { pending_.push_back(lane); }
  // The fill for `tag` lands at `cycle`: the lane takes its place among the
  // landed ones. False if no lane waits for it (dropped by a reset).
  bool fill_known(uint64_t tag, uint64_t cycle, FetchedLane& landed) {
    const auto it = std::find_if(pending_.begin(), pending_.end(), [tag](const FetchedLane& f) { return f.tag == tag; });
    if (it == pending_.end()) return false;
    landed = *it;
    *it = pending_.back();  // waiting lanes have no order among themselves
    pending_.pop_back();
    landed.ready_cycle = cycle;
    land(landed);
    return true;
  }

  // For reports: every landed lane, in issue order; and how many wait.
  template <typename Visit>
  void for_each_landed(Visit visit) const {
    for (size_t i = 0; i < landed_; ++i) visit(ring_[wrap(head_ + i)]);
  }
  size_t waiting_for_fill() const { return pending_.size(); }

  void clear() {
    head_ = landed_ = 0;
    pending_.clear();
  }

 private:
  // index < 2 * entries: a compare instead of a division.
  size_t wrap(size_t index) const { return index >= entries_ ? index - entries_ : index; }
  LandedLane& at(size_t offset) { return ring_[wrap(head_ + offset)]; }

  sim::LineAlignedVector<LandedLane> ring_;  // landed lanes from head_, in issue order
  std::vector<FetchedLane> pending_;
  size_t entries_;
  size_t head_ = 0, landed_ = 0;
};

}  // namespace td::timing

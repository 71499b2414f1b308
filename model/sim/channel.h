// channel.h — the valid/ready connections between pipeline stages, with
// register semantics: an item pushed in cycle t is visible to the consumer
// from cycle t + delay (delay >= 1), so stages may be evaluated in any order
// within a cycle. Bounded: a full channel refuses pushes (back-pressure).
// Storage is a fixed ring: no allocation after construction. No SystemC.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace td::sim {

template <typename T>
class Channel {
 public:
  // `depth` items at most; each visible `delay` cycles after its push.
  explicit Channel(size_t depth, uint32_t delay = 1)
      : slots_(std::make_unique<Slot[]>(depth)), depth_(static_cast<uint32_t>(depth)), delay_(delay) {
    assert(depth >= 1 && depth <= UINT32_MAX && delay >= 1);
  }

  // ready: the consumer side has room.
  bool can_push() const { return size_ < depth_; }
  void push(T item, uint64_t cycle) { push_visible_at(std::move(item), cycle + delay_); }

  // The same, for a producer that models its own pipeline (a clocked RTL
  // datapath): the item is visible from `visible_cycle`, which must not be
  // earlier than the last item's (items stay in order).
  void push_visible_at(T item, uint64_t visible_cycle) {
    assert(can_push());
    Slot& slot = slots_[wrap(head_ + size_)];
    slot.item = std::move(item);
    slot.visible_cycle = visible_cycle;
    if (size_ == 0) front_visible_ = visible_cycle;
    ++size_;
  }

  // valid: the oldest item is visible at `cycle`.
  bool can_pop(uint64_t cycle) const { return size_ > 0 && front_visible_ <= cycle; }
  const T& front() const { return slots_[head_].item; }
  T pop() {
    assert(size_ > 0);
    T item = std::move(slots_[head_].item);
    head_ = wrap(head_ + 1);
    --size_;
    if (size_ > 0) front_visible_ = slots_[head_].visible_cycle;
    return item;
  }

  // Cycle the oldest item becomes visible (only meaningful when !empty()).
  uint64_t front_visible_cycle() const { return front_visible_; }
  size_t size() const { return size_; }
  size_t depth() const { return depth_; }
  bool empty() const { return size_ == 0; }
  void clear() { head_ = size_ = 0; }

 private:
  // index < 2 * depth: a compare instead of a division on every push and pop.
  uint32_t wrap(uint32_t index) const { return index >= depth_ ? index - depth_ : index; }

  struct Slot {
    T item{};
    uint64_t visible_cycle = 0;
  };
  // 32 bytes in all: a TD asks each of its channels "can I pop?" every
  // clock, and keeps them side by side.
  std::unique_ptr<Slot[]> slots_;
  uint32_t depth_;
  uint32_t delay_;
  uint32_t head_ = 0;
  uint32_t size_ = 0;
  // The oldest item's visible cycle, kept beside the counts: stages ask
  // "can I pop?" every clock, and the answer then needs no read of the ring.
  uint64_t front_visible_ = 0;
};

}  // namespace td::sim

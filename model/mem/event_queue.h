// event_queue.h — misses travel between memory levels as events delivered
// at the cycle they arrive, in (cycle, order made) order. The chip runs the
// events due at each clock before it ticks the TDs, so every shared level
// (L1, L2, DRAM) sees its requests in global cycle order. Without a queue
// (a cache built on its own, as in unit tests) an event runs at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <vector>

namespace td::mem {

// Whoever receives an event: `arg` is its own (an MSHR index).
class EventTarget {
 public:
  virtual ~EventTarget() = default;
  virtual void on_event(uint64_t arg, uint64_t cycle) = 0;
};

class EventQueue {
 public:
  void schedule(uint64_t cycle, EventTarget& target, uint64_t arg);
  // Runs every event due at or before `cycle`.
  void run_until(uint64_t cycle);
  // The cycle of the next event; UINT64_MAX when there is none.
  uint64_t next_cycle() const { return events_.empty() ? UINT64_MAX : events_.top().cycle; }
  bool empty() const { return events_.empty(); }
  size_t size() const { return events_.size(); }
  void clear() { events_ = {}; }

 private:
  struct Event {
    uint64_t cycle, order;
    EventTarget* target;
    uint64_t arg;
    bool operator>(const Event& other) const {
      return cycle != other.cycle ? cycle > other.cycle : order > other.order;
    }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t order_ = 0;
};

// schedule() on a queue, or at once without one.
inline void schedule(EventQueue* queue, uint64_t cycle, EventTarget& target, uint64_t arg) {
  if (queue)
    queue->schedule(cycle, target, arg);
  else
    target.on_event(arg, cycle);
}

}  // namespace td::mem

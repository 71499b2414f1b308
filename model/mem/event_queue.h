// event_queue.h — misses travel between memory levels as events delivered
// at the cycle they arrive, in (cycle, order made) order. The chip runs the
// events due at each clock before it ticks the TDs, so every shared level
// (L1, L2, DRAM) sees its requests in global cycle order. Without a queue
// (a cache built on its own, as in unit tests) an event runs at once.
//
// A part that may be ticked on a worker thread (a TD and its L0) schedules
// through an EventHold: while held, its events wait in a list of their own,
// and the chip releases the lists into the queue TD by TD, in TD order — the
// order one thread ticking the TDs in turn makes them in.
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

// Where events are scheduled: the queue itself, or a hold in front of it.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void schedule(uint64_t cycle, EventTarget& target, uint64_t arg) = 0;
};

class EventQueue final : public EventSink {
 public:
  void schedule(uint64_t cycle, EventTarget& target, uint64_t arg) override;
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
inline void schedule(EventSink* queue, uint64_t cycle, EventTarget& target, uint64_t arg) {
  if (queue)
    queue->schedule(cycle, target, arg);
  else
    target.on_event(arg, cycle);
}

// Events made while held wait here, in the order made, until release()
// passes them on; otherwise (and without a queue behind it) schedule()
// passes each on at once.
class EventHold final : public EventSink {
 public:
  explicit EventHold(EventSink* queue) : queue_(queue) {}
  void schedule(uint64_t cycle, EventTarget& target, uint64_t arg) override {
    if (holding_ && queue_)
      held_.push_back(Held{cycle, &target, arg});
    else
      mem::schedule(queue_, cycle, target, arg);
  }
  void hold() { holding_ = true; }
  void release() {
    holding_ = false;
    for (const Held& e : held_) queue_->schedule(e.cycle, *e.target, e.arg);
    held_.clear();
  }

 private:
  struct Held {
    uint64_t cycle;
    EventTarget* target;
    uint64_t arg;
  };
  EventSink* queue_;
  bool holding_ = false;
  std::vector<Held> held_;  // kept: no allocation per clock
};

}  // namespace td::mem

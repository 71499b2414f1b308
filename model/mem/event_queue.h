// event_queue.h — misses travel between memory levels as events delivered
// at the cycle they arrive. The chip runs the events due at each clock
// before it ticks the TDs, so every shared level (L1, L2, DRAM) sees its
// requests in global cycle order. Without a queue (a cache built on its
// own, as in unit tests) an event runs at once.
//
// Events of one cycle run in the order they were made, and that order is
// written in each event rather than taken from when it joined the queue:
// (cycle made, maker, number), where the maker is the shared side (0: an
// event made while the queue runs one, at that event's cycle) or a TD
// (1 + its index, at the clock it ticked: a clock's events are run before
// its TDs tick, so the shared side's come first). A part that may be run
// apart from the queue (a TD and its L0, on a worker thread or ahead of
// the others within a quantum) schedules through an EventHold, which
// stamps its events so; when they join the queue does not change when
// they run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <string>
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
  // An event of the shared side, made now (see now()).
  void schedule(uint64_t cycle, EventTarget& target, uint64_t arg) override;
  // An event made by `maker` (1 + a TD's index) at `made`, its `number`-th.
  void schedule_from(uint64_t cycle, uint64_t made, uint32_t maker, uint64_t number, EventTarget& target,
                     uint64_t arg) {
    events_.push(Event{cycle, made, number, maker, &target, arg});
  }
  // Runs every event due at or before `cycle`.
  void run_until(uint64_t cycle);
  // The cycle of the event running (or the last one run).
  uint64_t now() const { return now_; }
  // The cycle of the next event; UINT64_MAX when there is none.
  uint64_t next_cycle() const { return events_.empty() ? UINT64_MAX : events_.top().cycle; }
  bool empty() const { return events_.empty(); }
  size_t size() const { return events_.size(); }
  void clear() { events_ = {}; }

 private:
  struct Event {
    uint64_t cycle, made, number;
    uint32_t maker;
    EventTarget* target;
    uint64_t arg;
    bool operator>(const Event& o) const {
      if (cycle != o.cycle) return cycle > o.cycle;
      if (made != o.made) return made > o.made;
      if (maker != o.maker) return maker > o.maker;
      return number > o.number;
    }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t order_ = 0;  // the shared side's events so far
  uint64_t now_ = 0;
};

// schedule() on a queue, or at once without one.
inline void schedule(EventSink* queue, uint64_t cycle, EventTarget& target, uint64_t arg) {
  if (queue)
    queue->schedule(cycle, target, arg);
  else
    target.on_event(arg, cycle);
}

// A TD's events: while held (from hold(cycle), its tick, until release())
// they wait in a list of their own, stamped with the clock that made them
// and the TD as their maker; otherwise (the queue running an event that
// calls into the TD's L0: a retry, say) they are the shared side's and go
// to the queue at once. Without a queue, each runs at once.
class EventHold final : public EventSink {
 public:
  EventHold(EventQueue* queue, uint32_t td_index) : queue_(queue), maker_(td_index + 1) {}
  void schedule(uint64_t cycle, EventTarget& target, uint64_t arg) override {
    if (holding_ && queue_)
      held_.push_back(Held{cycle, made_, count_++, &target, arg});
    else
      mem::schedule(queue_, cycle, target, arg);
  }
  // The TD's clock `cycle` makes the events from here on.
  void hold(uint64_t cycle) {
    holding_ = true;
    made_ = cycle;
  }
  // The held events join the queue. Each must arrive at or after `from`
  // (a chip that ran the TD ahead of the queue relies on it: the queue has
  // run every event before `from` already); std::logic_error if not.
  void release(uint64_t from = 0) {
    holding_ = false;
    for (const Held& e : held_) {
      if (e.cycle < from)
        throw std::logic_error("event hold: an event made at cycle " + std::to_string(e.made) +
                               " arrives at " + std::to_string(e.cycle) + ", before the queue's " +
                               std::to_string(from));
      queue_->schedule_from(e.cycle, e.made, maker_, e.number, *e.target, e.arg);
    }
    held_.clear();
  }

 private:
  struct Held {
    uint64_t cycle, made, number;
    EventTarget* target;
    uint64_t arg;
  };
  EventQueue* queue_;
  uint32_t maker_;
  bool holding_ = false;
  uint64_t made_ = 0;
  uint64_t count_ = 0;
  std::vector<Held> held_;  // kept: no allocation per clock
};

}  // namespace td::mem

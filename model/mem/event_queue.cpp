#include "model/mem/event_queue.h"

namespace td::mem {

void EventQueue::schedule(uint64_t cycle, EventTarget& target, uint64_t arg) {
  events_.push(Event{cycle, now_, order_++, 0, &target, arg});
}

void EventQueue::run_until(uint64_t cycle) {
  while (!events_.empty() && events_.top().cycle <= cycle) {
    const Event event = events_.top();
    events_.pop();
    now_ = event.cycle;
    event.target->on_event(event.arg, event.cycle);
  }
}

}  // namespace td::mem

// progress.h — the no-progress watchdog's view of a run: the latest cycle at
// which anything is known to move. The parts of the model note the cycles
// they move something at — a TD's stage passing a lane on, an instruction
// accepted or returned, a memory level passing a miss down or learning the
// cycle a fill lands (which may lie in the future: a fill that takes a
// hundred million cycles to arrive is progress when it arrives, not a
// deadlock while it travels). A run is stuck when the current cycle has gone
// far beyond the latest such cycle. One compare and one store per note, and
// only where something moves: the watchdog costs the hot path nothing
// measurable. No SystemC.
//
// TDs ticked on several threads note at once: the mark is an atomic
// maximum, so what it holds does not depend on their order.
#pragma once

#include <atomic>
#include <cstdint>

namespace td::sim {

class ProgressMark {
 public:
  // Something moves (or is known to move) at `cycle`.
  void note(uint64_t cycle) {
    uint64_t last = last_.load(std::memory_order_relaxed);
    while (cycle > last && !last_.compare_exchange_weak(last, cycle, std::memory_order_relaxed)) {
    }
  }
  // The latest cycle noted (0 if none).
  uint64_t last() const { return last_.load(std::memory_order_relaxed); }
  void reset() { last_.store(0, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> last_{0};
};

}  // namespace td::sim

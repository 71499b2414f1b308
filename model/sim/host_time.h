// host_time.h — where a timed run's wall time went, part by part of the
// chip's loop (chip.h): the shared side's memory events (L1, L2, DRAM and
// the L0 misses on their way to L1; always on one thread), the TDs' clocks
// (on the worker pool with -j N) and the wave client's dispatch between
// quanta. Host seconds, read off a steady clock around each part: not a
// statistic (they differ run to run; stats stay deterministic), reported
// beside the run's wall time. What the one-thread parts take bounds what
// more threads can gain (Amdahl).
#pragma once

#include <chrono>

namespace td::sim {

struct HostTime {
  double memory_events_s = 0;
  double td_clocks_s = 0;
  double dispatch_s = 0;

  double total_s() const { return memory_events_s + td_clocks_s + dispatch_s; }
  // The share of the three parts that runs on one thread however many tick the TDs.
  double serial_share() const { return total_s() > 0 ? (memory_events_s + dispatch_s) / total_s() : 0.0; }
};

// Adds the wall time from one lap() to the next into the part it names.
class HostStopwatch {
 public:
  HostStopwatch() { restart(); }
  // From now: the time since the last lap is no part's.
  void restart() { last_ = std::chrono::steady_clock::now(); }
  void lap(double& part) {
    const auto now = std::chrono::steady_clock::now();
    part += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_;
};

}  // namespace td::sim

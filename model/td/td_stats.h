// td_stats.h — the counters one TD keeps, registered under its hierarchical
// name (`chip.wgp3.td1.*`). The registry owns them as one block
// (StatsRegistry::block): a TD updates several every clock, and reaches
// them through one reference, the ones a lane moves first, side by side.
// The load counters are registered only for a TD whose wave client issues
// vector memory loads (WaveClient::issues_loads): a TD of intersects alone
// reports what it always did.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "model/sim/stats.h"

namespace td::timing {

// Why a TD-cycle stalled: one statistic, `stall_cycles`, with a sub-name
// per cause (gem5's blockedCycles.<cause>), in the pipeline's order. One
// cycle may count under several causes.
enum class Stall : uint8_t {
  kFetchQueueFull,    // the sequencer held a lane: fetch queue full
  kL0MshrsFull,       // node fetch refused by L0: all MSHRs busy
  kReturnBufferFull,  // node fetch held a lane: return buffer full
  kIssuePortBusy,     // ready lanes left waiting: the issue port takes one a clock
  kWaitingMemory,     // the issue port idle, lanes waiting for their data
  kWaitingLoads,      // of those, every lane waiting is a load lane (TDs that count loads)
  kResultRefused,     // results ready, the wave refused them this clock
};
constexpr size_t kStallCauses = 7;
struct StallCause {
  const char* subname;      // the statistic's: stall_cycles.<subname>
  const char* label;        // the reports' ("L0 MSHRs full")
  const char* description;  // the statistic's
};
// Every cause, by Stall value: the one table the statistics, the reports
// and the sweeps' columns read.
const std::array<StallCause, kStallCauses>& stall_causes();

struct alignas(64) TdStats {
  TdStats(const sim::StatGroup& group, bool counts_loads);
  TdStats(const TdStats&) = delete;  // the registry holds the counters' addresses
  TdStats& operator=(const TdStats&) = delete;

  // Touched as lanes move, most clocks.
  sim::Counter busy_cycles;        // clocks the datapath issue port was used
  sim::Counter box_nodes;          // box nodes through the datapath
  sim::Counter box_tests;          // ray/box tests: 4 per box node
  sim::Counter tri_tests;          // ray/triangle tests
  sim::Counter active_lanes;
  std::array<sim::Counter, kStallCauses> stall_cycles;  // by Stall
  sim::Counter& stall(Stall cause) { return stall_cycles[static_cast<size_t>(cause)]; }
  const sim::Counter& stall(Stall cause) const { return stall_cycles[static_cast<size_t>(cause)]; }
  // Now and then.
  sim::Counter inactive_lanes;
  sim::Counter waves;              // instructions completed
  sim::Counter descriptor_faults;  // lanes
  sim::Counter out_of_bounds;      // lanes
  sim::Counter reserved_types;     // lanes
  sim::Counter cycles;             // clocks ticked since reset (busy or idle)
  sim::Counter loads;              // load instructions completed
  sim::Counter load_lanes;         // active load lanes returned to write-back
  sim::Counter load_bytes;         // bytes those lanes read

 private:
  // Registers the counters above, in the order reports list them, before
  // the histograms below register themselves.
  static bool register_counters(TdStats& stats, const sim::StatGroup& group, bool counts_loads);
  [[maybe_unused]] bool registered_;

 public:
  sim::Histogram& wave_latency;          // accept -> complete, cycles
  sim::Histogram& lane_fetch_latency;    // fetch request -> data ready, cycles (loads' too)
};

}  // namespace td::timing

// td_stats.h — the counters one TD keeps, registered under its hierarchical
// name (`chip.wgp3.td1.*`). The registry owns them as one block
// (StatsRegistry::block): a TD updates several every clock, and reaches
// them through one reference, the ones a lane moves first, side by side.
// The load counters are registered only for a TD whose wave client issues
// vector memory loads (WaveClient::issues_loads): a TD of intersects alone
// reports what it always did.
#pragma once

#include "model/sim/stats.h"

namespace td::timing {

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
  sim::Counter stall_port_busy;         // ready lanes left waiting: one issue a clock
  sim::Counter stall_waiting_memory;    // nothing to issue, lanes waiting for data
  sim::Counter stall_fetch_queue_full;  // sequencer had a lane, fetch queue full
  // Now and then.
  sim::Counter stall_memory;            // node fetch refused by L0 (MSHRs full)
  sim::Counter stall_return_buffer_full;  // node fetch had a lane, no entry free
  sim::Counter inactive_lanes;
  sim::Counter waves;              // instructions completed
  sim::Counter stall_result_refused;    // the wave could not take its results this clock
  sim::Counter descriptor_faults;  // lanes
  sim::Counter out_of_bounds;      // lanes
  sim::Counter reserved_types;     // lanes
  sim::Counter cycles;             // clocks ticked since reset (busy or idle)
  sim::Counter loads;              // load instructions completed
  sim::Counter load_lanes;         // active load lanes returned to write-back
  sim::Counter load_bytes;         // bytes those lanes read
  sim::Counter stall_waiting_loads;  // waiting for memory, and every lane waiting is a load lane

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

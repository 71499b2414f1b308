// td_stats.h — the counters one TD keeps, registered under its hierarchical
// name (`chip.wgp3.td1.*`).
#pragma once

#include "model/sim/stats.h"

namespace td::timing {

struct TdStats {
  explicit TdStats(const sim::StatGroup& group);

  sim::Counter& cycles;             // clocks ticked since reset (busy or idle)
  sim::Counter& busy_cycles;        // clocks the datapath issue port was used
  sim::Counter& box_nodes;          // box nodes through the datapath
  sim::Counter& box_tests;          // ray/box tests: 4 per box node
  sim::Counter& tri_tests;          // ray/triangle tests
  sim::Counter& active_lanes;
  sim::Counter& inactive_lanes;
  sim::Counter& descriptor_faults;  // lanes
  sim::Counter& out_of_bounds;      // lanes
  sim::Counter& reserved_types;     // lanes
  sim::Counter& waves;              // instructions completed
  sim::Counter& stall_fetch_queue_full;  // sequencer had a lane, fetch queue full
  sim::Counter& stall_memory;            // node fetch refused by L0 (MSHRs full)
  sim::Counter& stall_return_buffer_full;  // node fetch had a lane, no entry free
  sim::Counter& stall_port_busy;         // ready lanes left waiting: one issue a clock
  sim::Counter& stall_waiting_memory;    // nothing to issue, lanes waiting for data
  sim::Counter& stall_result_refused;    // the wave could not take its results this clock
  sim::Histogram& wave_latency;          // accept -> complete, cycles
  sim::Histogram& lane_fetch_latency;    // fetch request -> data ready, cycles
};

}  // namespace td::timing

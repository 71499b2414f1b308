#include "model/td/td_stats.h"

namespace td::timing {

const std::array<StallCause, kStallCauses>& stall_causes() {
  static const std::array<StallCause, kStallCauses> causes = {{
      {"fetch_queue_full", "fetch queue full", "sequencer held a lane: fetch queue full"},
      {"l0_mshrs_full", "L0 MSHRs full", "node fetch refused by L0: all MSHRs busy"},
      {"return_buffer_full", "return buffer full", "node fetch held a lane: return buffer full"},
      {"issue_port_busy", "issue port busy",
       "ready lanes left waiting because the shared issue port takes one a clock"},
      {"waiting_memory", "waiting for memory", "issue port idle while lanes wait in the return buffer for node data"},
      {"waiting_loads", "waiting for loads only",
       "issue port idle while every lane in the return buffer is a load lane waiting for its data (counted in "
       "waiting_memory too)"},
      {"result_refused", "results refused", "an instruction's results were ready but its wave refused them this clock"},
  }};
  return causes;
}

bool TdStats::register_counters(TdStats& s, const sim::StatGroup& g, bool counts_loads) {
  g.counter_in("cycles", "cycles", "clocks simulated for this TD, busy or idle", s.cycles);
  g.counter_in("busy_cycles", "cycles", "clocks in which a lane entered the box or triangle datapath", s.busy_cycles);
  g.counter_in("box_nodes", "nodes", "box nodes tested (one lane each)", s.box_nodes);
  g.counter_in("box_tests", "tests", "ray/box tests performed (4 per box node)", s.box_tests);
  g.counter_in("tri_tests", "tests", "ray/triangle tests performed", s.tri_tests);
  g.counter_in("active_lanes", "lanes", "lanes that were sequenced (EXEC on, operands valid)", s.active_lanes);
  g.counter_in("inactive_lanes", "lanes", "lanes skipped at no cost (EXEC off, NaN, Inf origin)", s.inactive_lanes);
  g.counter_in("descriptor_faults", "lanes", "active lanes of instructions with a bad descriptor", s.descriptor_faults);
  g.counter_in("out_of_bounds", "lanes", "active lanes whose node lies past the descriptor size", s.out_of_bounds);
  g.counter_in("reserved_types", "lanes", "active lanes pointing at node type 6 or 7", s.reserved_types);
  g.counter_in("waves", "instructions", "wave instructions completed", s.waves);
  if (counts_loads) {
    g.counter_in("loads", "instructions", "vector memory load instructions completed (counted in waves too)", s.loads);
    g.counter_in("load_lanes", "lanes", "active load lanes returned to write-back (one L0 request each)",
                 s.load_lanes);
    g.counter_in("load_bytes", "bytes", "bytes read by active load lanes", s.load_bytes);
  }
  for (size_t c = 0; c < kStallCauses; ++c) {
    if (static_cast<Stall>(c) == Stall::kWaitingLoads && !counts_loads) continue;
    g.counter_in(std::string("stall_cycles.") + stall_causes()[c].subname, "cycles", stall_causes()[c].description,
                 s.stall_cycles[c]);
  }
  return true;
}

TdStats::TdStats(const sim::StatGroup& g, bool counts_loads)
    : registered_(register_counters(*this, g, counts_loads)),
      wave_latency(g.histogram("wave_latency", "cycles", "instruction latency: accepted -> results returned",
                               sim::power_of_two_bounds(1u << 16))),
      lane_fetch_latency(g.histogram("lane_fetch_latency", "cycles", "node fetch latency: L0 request -> data ready",
                                     sim::power_of_two_bounds(1u << 16))) {}

}  // namespace td::timing

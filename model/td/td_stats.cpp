#include "model/td/td_stats.h"

namespace td::timing {

TdStats::TdStats(const sim::StatGroup& g)
    : cycles(g.counter("cycles", "cycles", "clocks simulated for this TD, busy or idle")),
      busy_cycles(g.counter("busy_cycles", "cycles", "clocks in which a lane entered the box or triangle datapath")),
      box_nodes(g.counter("box_nodes", "nodes", "box nodes tested (one lane each)")),
      box_tests(g.counter("box_tests", "tests", "ray/box tests performed (4 per box node)")),
      tri_tests(g.counter("tri_tests", "tests", "ray/triangle tests performed")),
      active_lanes(g.counter("active_lanes", "lanes", "lanes that were sequenced (EXEC on, operands valid)")),
      inactive_lanes(g.counter("inactive_lanes", "lanes", "lanes skipped at no cost (EXEC off, NaN, Inf origin)")),
      descriptor_faults(g.counter("descriptor_faults", "lanes", "active lanes of instructions with a bad descriptor")),
      out_of_bounds(g.counter("out_of_bounds", "lanes", "active lanes whose node lies past the descriptor size")),
      reserved_types(g.counter("reserved_types", "lanes", "active lanes pointing at node type 6 or 7")),
      waves(g.counter("waves", "instructions", "wave instructions completed")),
      stall_fetch_queue_full(
          g.counter("stall_fetch_queue_full", "cycles", "sequencer held a lane: fetch queue full")),
      stall_memory(g.counter("stall_memory", "cycles", "node fetch refused by L0: all MSHRs busy")),
      stall_return_buffer_full(
          g.counter("stall_return_buffer_full", "cycles", "node fetch held a lane: return buffer full")),
      stall_port_busy(g.counter("stall_port_busy", "cycles",
                                "ready lanes left waiting because the shared issue port takes one a clock")),
      stall_waiting_memory(g.counter("stall_waiting_memory", "cycles",
                                     "issue port idle while lanes wait in the return buffer for node data")),
      stall_result_refused(g.counter("stall_result_refused", "cycles",
                                     "an instruction's results were ready but its wave refused them this clock")),
      wave_latency(g.histogram("wave_latency", "cycles", "instruction latency: accepted -> results returned",
                               sim::power_of_two_bounds(1u << 16))),
      lane_fetch_latency(g.histogram("lane_fetch_latency", "cycles", "node fetch latency: L0 request -> data ready",
                                     sim::power_of_two_bounds(1u << 16))) {}

}  // namespace td::timing

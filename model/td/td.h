// td.h — one texture-data block's ray-intersection pipeline:
//
//   accept -> lane_sequencer -> fetch_queue -> node_fetch (L0) -> return buffer
//   return buffer -> issue port (one lane a clock) -> box_stage -> sort_stage -> write_back
//                                                  `-> tri_stage -------------> write_back
//   return buffer -> load port (one load lane a clock) -------------------------> write_back
//   lane_sequencer -> (no fetch: fault, bounds, reserved) ----------------------> write_back
//
// A vector memory load (WaveInstr kind kLoad) shares the instruction queue,
// the sequencer, the fetch queue, node fetch with the L0's MSHRs, and the
// return buffer with the intersects: each active lane is one L0 request of
// its 4 to 16 bytes, as a node fetch is of its node's. When its bytes are
// there and it is at the head of the return buffer it leaves by the load
// port, not the issue port: it takes no datapath clock, and a node lane
// behind it may issue in the same clock. Its result is the bytes read
// (ref::load) and it is written a clock later (kLoadPortCycles). Loads
// return in order with the other instructions.
//
// The chip's clocked process calls tick() once a clock for every TD that has
// something to do, in TD order. tick() evaluates the stages in one fixed
// order: first the parts that talk to the wave client (write-back returning
// complete results, then accept taking an instruction), then the pipeline,
// consumers first (write-back's lane writes, sort, issue port, node fetch,
// sequencer); the channels between stages are registers (sim::Channel), the
// wave buffer and return buffer are updated in place in that order — the
// order is part of the model's definition. (An instruction accepted this
// clock is sequenced from the next, and a lane written this clock returns a
// clock later at the earliest, so the client's parts going first change no
// timing; with return_latency_cycles 0 the lane writes go first.)
// A datapath hands each result to the next stage with the cycle it gets
// there (datapath.h), so a C++ datapath's lane is written the clock it
// passes the issue port, for the cycle it reaches write-back.
// The pipeline part touches nothing outside the TD but its L0, whose misses
// are held (mem::EventHold, stamped with the clock and the TD) until
// release_events(): a chip may run a TD's clocks ahead of the others
// (quanta, chip.h), or, clock by clock on several threads, call
// tick_client_side() TD by TD, tick_pipeline() on any thread, then
// release_events() — with the same outcome. After each tick
// the TD says on which cycle anything can move next (a fill arrives, a
// pipeline delivers); until then it is not ticked: an idle TD costs nothing.
// Stall counters are charged for the skipped clocks too.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "model/mem/cache.h"
#include "model/sim/channel.h"
#include "model/sim/progress.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "model/td/box_stage.h"
#include "model/td/lane_sequencer.h"
#include "model/td/node_fetch.h"
#include "model/td/sort_stage.h"
#include "model/td/td_params.h"
#include "model/td/td_stats.h"
#include "model/td/td_types.h"
#include "model/td/tri_stage.h"
#include "model/td/wave_buffer.h"
#include "model/td/write_back.h"

namespace td::timing {

class Td : public sc_core::sc_module {
 public:
  // `l1` serves this TD's L0 misses; `index` is the TD's number in the chip
  // (what the wave client sees). Stats go under this module's name.
  // `events` carries L0 misses to L1 at their arrival cycle (the chip's).
  Td(sc_core::sc_module_name name, uint32_t index, const TdParams& params, mem::MemLevel& l1,
     mem::EventQueue* events, const BackingStore& store, WaveClient& client, sim::StatsRegistry& stats);
  ~Td() override;

  // One clock. Call at most once per cycle, in increasing cycles.
  void tick(uint64_t cycle) {
    tick_client_side(cycle);
    tick_pipeline(cycle);
    release_events();
  }
  // tick() in its three parts (see above). The client side: results
  // returned to the wave client and an instruction taken from it.
  void tick_client_side(uint64_t cycle);
  // The stages from the sort down to the sequencer, the L0's misses held.
  [[gnu::flatten]] void tick_pipeline(uint64_t cycle);
  // The L0's misses of the ticks since the last call join the chip's queue;
  // each must arrive at or after `from` (mem::EventHold::release).
  void release_events(uint64_t from = 0) { l0_events_.release(from); }
  // The first cycle on which tick() can do anything; UINT64_MAX while only
  // new work from the wave client (wake()) can.
  uint64_t due_cycle() const { return *due_cycle_; }
  // Keeps the due cycle in `slot` from now on (a chip's array of its TDs'
  // due cycles: the chip reads all of them every clock, a TD only its own).
  void keep_due_cycle_in(uint64_t* slot) {
    *slot = *due_cycle_;
    due_cycle_ = slot;
  }
  // An instruction taken from the client, filled and planned within one tick.
  struct Incoming {
    WaveInstr instr;
  };
  // Takes instructions into `shared` (nullptr: the TD's own buffer). Only
  // for TDs ticked with tick(), one after another: an instruction taken is
  // planned within the same tick, so the next TD may reuse the buffer, and
  // one buffer for all stays in the host's first-level cache.
  void share_incoming(Incoming* shared) { incoming_ = shared ? shared : &own_incoming_; }
  // The wave client may have an instruction for this TD: due at once.
  void wake();
  // The client said it had nothing for this TD, and nothing woke it since.
  bool waiting_for_work() const { return !client_may_have_work_; }
  // Back to the state after reset (nothing in flight).
  void reset();
  // No instruction in the TD.
  bool idle() const { return waves_.empty(); }
  // Sets the cycle counter: the run's clocks, `cycle` of them.
  void account_until(uint64_t cycle);
  // Record this TD's signals (sample_trace() after each clock's tick).
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(uint64_t cycle);
  // Notes the cycles in which the TD moves anything (an instruction
  // accepted or returned, a lane passed between stages) for the no-progress
  // watchdog; its L0 notes the misses it passes on and the fills it hears of.
  void set_progress(sim::ProgressMark* mark);
  // What is in flight at `cycle` and what each stage waits on (a deadlock
  // report): lines under the TD's hierarchical name, or "" when it is idle.
  std::string describe(uint64_t cycle) const;

  // This clock's client side returned an instruction's results.
  bool returned_wave() const { return write_back_.retired(); }
  mem::Cache& l0() { return l0_; }
  const TdStats& stats() const { return stats_; }
  uint32_t index() const { return index_; }

 private:
  // The parts of a tick. Those run every tick are inlined into it: one
  // function's registers saved and restored a tick, not one per part.
  [[gnu::always_inline]] inline void issue_port(uint64_t cycle);
  [[gnu::always_inline]] inline void accept_instruction(uint64_t cycle);
  void plan_accepted(uint64_t cycle);  // the instruction accept_instruction() took
  // A load from the client: refused (std::invalid_argument naming the TD,
  // the instruction and the lane) unless the client said it issues loads
  // and every active lane stays inside its 64-byte unit (ref::load_lane_error).
  void check_load(const WaveInstr& instr) const;
  // The load lane at the head of the return buffer leaves by the load port.
  void return_load(uint64_t cycle);
  [[gnu::always_inline]] inline void clock_and_write_lanes(uint64_t cycle);
  uint64_t next_active_cycle(uint64_t cycle) const;
  // Clocks the TD is not ticked are clocks in which nothing moves; the
  // stalls that hold then are charged for them, as if it had been ticked.
  uint32_t idle_stalls() const;
  void charge_skipped_clocks(uint64_t clocks);
  // The issue port found no lane ready: lanes in the return buffer wait for
  // their data (only load lanes: counted apart too).
  void count_waiting_memory() {
    if (node_fetch_.buffer_empty()) return;
    ++stats_.stall(Stall::kWaitingMemory);
    if (node_fetch_.only_loads_in_buffer()) ++stats_.stall(Stall::kWaitingLoads);
  }

  // Ordered by use: a chip ticks each of its TDs in turn every clock, so
  // the fields a tick reads come first and share as few cache lines as
  // possible; the stages are thin (their SystemC names sit apart, in
  // StageView; the channels between them sit together, here). stats_ is
  // constructed before l0_ (the registry lists stats in that order), and
  // l0_ before the stages; write-back (its ports) before the sort stage,
  // and the sort stage before the box stage, each handing results to the
  // one before it.
  uint64_t own_due_cycle_ = 0;
  uint64_t* due_cycle_ = &own_due_cycle_;  // see keep_due_cycle_in()
  uint64_t last_tick_cycle_ = 0;
  uint64_t client_retry_cycle_ = WaveClient::kNever;  // the client said "nothing before this cycle"
  uint32_t idle_stalls_ = 0;  // idle_stalls() after the last tick
  bool client_may_have_work_ = true;
  // wake() came after this clock's client side: due at once, whatever the
  // pipeline part then finds (the TD ticks next clock, as it would have had
  // it been woken after its whole tick).
  bool woken_ = false;
  bool ticked_ = false;
  bool accepted_ = false;
  uint32_t accepted_slot_ = 0;
  // Issue port and accept, last tick (trace).
  bool port_valid_ = false, port_box_ = false;
  uint8_t port_type_ = 0;
  uint32_t port_lane_ = 0;
  uint64_t port_wave_ = 0;
  // Some datapath is clocked (an RTL one): the stages' clocks are called.
  bool clocked_datapaths_ = false;
  // The client issues loads (WaveClient::issues_loads): their counters
  // are registered, and load instructions taken.
  bool counts_loads_ = false;
  // A load lane taken from the return buffer is written this much later:
  // the load port's register.
  static constexpr uint32_t kLoadPortCycles = 1;
  uint32_t index_;
  sim::ProgressMark* progress_ = nullptr;
  const BackingStore& store_;
  WaveClient& client_;
  // The channels every tick asks "can I pop?".
  sim::Channel<FetchJob> fetch_queue_;
  sim::Channel<LaneDone> no_fetch_;

  TdStats& stats_;  // the registry's block
  mem::EventHold l0_events_;  // the L0's misses on their way to L1
  mem::Cache l0_;
  WaveBuffer waves_;
  LaneSequencer sequencer_;
  NodeFetch node_fetch_;
  WriteBack write_back_;

  // The client fills it, the pipeline part of the same tick plans its lanes;
  // the same buffer every time, so its lines stay in the host's caches.
  // TDs ticked whole, one after another, may share one (share_incoming()).
  Incoming own_incoming_;
  Incoming* incoming_ = &own_incoming_;

  SortStage sort_stage_;
  BoxStage box_stage_;
  TriStage tri_stage_;
  struct TraceIds;
  std::unique_ptr<TraceIds> trace_ids_;
  sim::VcdWriter* vcd_ = nullptr;
};

}  // namespace td::timing

// td.h — one texture-data block's ray-intersection pipeline:
//
//   accept -> lane_sequencer -> fetch_queue -> node_fetch (L0) -> return buffer
//   return buffer -> issue port (one lane a clock) -> box_stage -> sort_stage -> write_back
//                                                  `-> tri_stage -------------> write_back
//   lane_sequencer -> (no fetch: fault, bounds, reserved) ----------------------> write_back
//
// One clocked process per TD evaluates the stages consumers-first each clock;
// the channels between them are registers (sim::Channel), so the order
// inside a clock does not change behaviour. The process sleeps while nothing
// can move and wakes on the cycle something can (a fill arrives, a pipeline
// delivers) or when the wave client has new work: an idle TD costs nothing.
#pragma once

#include <memory>
#include <systemc>

#include "model/chip/config.h"
#include "model/mem/cache.h"
#include "model/sim/channel.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "model/td/box_stage.h"
#include "model/td/lane_sequencer.h"
#include "model/td/node_fetch.h"
#include "model/td/sort_stage.h"
#include "model/td/td_stats.h"
#include "model/td/td_types.h"
#include "model/td/tri_stage.h"
#include "model/td/wave_buffer.h"
#include "model/td/write_back.h"

namespace td::timing {

class Td : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;

  SC_HAS_PROCESS(Td);
  // `l1` serves this TD's L0 misses; `index` is the TD's number in the chip
  // (what the wave client sees). Stats go under this module's name.
  Td(sc_core::sc_module_name name, uint32_t index, const cfg::Config& config, mem::MemLevel& l1,
     const BackingStore& store, WaveClient& client, sim::StatsRegistry& stats);
  ~Td() override;

  // The wave client has an instruction for this TD.
  void wake();
  // No instruction in the TD.
  bool idle() const { return waves_.empty(); }
  // Brings the cycle counter up to `cycle` (end of a run).
  void account_until(uint64_t cycle);
  // Record this TD's signals (ticks every clock from then on).
  void attach_trace(sim::VcdWriter& vcd);

  mem::Cache& l0() { return l0_; }
  const TdStats& stats() const { return stats_; }
  uint32_t index() const { return index_; }

 private:
  void tick();
  uint64_t current_cycle() const;
  void issue_port(uint64_t cycle);
  void accept_instruction(uint64_t cycle);
  uint64_t next_active_cycle(uint64_t cycle) const;
  void schedule(uint64_t cycle);
  void reset_state();
  void sample_trace(uint64_t cycle);

  uint32_t index_;
  sc_core::sc_time period_;
  uint64_t period_ticks_;
  const BackingStore& store_;
  WaveClient& client_;
  TdStats stats_;
  mem::Cache l0_;

  WaveBuffer waves_;
  sim::Channel<LaneJob> fetch_queue_;
  sim::Channel<LaneDone> no_fetch_;
  LaneSequencer sequencer_;
  NodeFetch node_fetch_;
  BoxStage box_stage_;
  SortStage sort_stage_;
  TriStage tri_stage_;
  WriteBack write_back_;

  sc_core::sc_event wake_event_;
  bool client_may_have_work_ = true;
  bool ticked_ = false;
  uint64_t last_cycle_ = 0;
  // Issue port and accept, last tick (trace).
  bool port_valid_ = false, port_box_ = false;
  uint32_t port_lane_ = 0;
  uint8_t port_type_ = 0;
  uint64_t port_wave_ = 0;
  bool accepted_ = false;

  struct TraceIds;
  std::unique_ptr<TraceIds> trace_ids_;
  sim::VcdWriter* vcd_ = nullptr;
};

}  // namespace td::timing

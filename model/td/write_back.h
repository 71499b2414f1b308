// write_back.h — collects lane results from the sort stage, the triangle
// stage, the no-fetch path and the load port (load lanes from the return
// buffer; one write port each) into the per-wave result buffer. An instruction completes `return_latency_cycles` after its last
// active lane is written, and instructions return to the waves in the order
// the TD accepted them.
#pragma once

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_stats.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

class WriteBack {
 public:
  WriteBack(const char* name, uint32_t td_index, uint32_t return_latency_cycles, WaveBuffer& waves,
            sim::Channel<LaneDone>& from_sort, sim::Channel<LaneDone>& from_tri,
            sim::Channel<LaneDone>& from_no_fetch, sim::Channel<LaneDone>& from_load, WaveClient& client,
            TdStats& stats);

  // One clock: write_lanes() then retire_done().
  void tick(uint64_t cycle) {
    write_lanes(cycle);
    retire_done(cycle);
  }
  // The clock in its two parts: the lanes arriving this clock written into
  // their waves' results (TD-local), and the oldest instructions whose
  // results are complete handed to the wave client. With a return latency
  // of at least one clock, a lane written this clock cannot complete an
  // instruction before the next, so the two may run in either order.
  void write_lanes(uint64_t cycle);
  // write_lanes() when the datapaths' and loads' lanes are written ahead:
  // only the no-fetch port carries lanes.
  void write_no_fetch_lanes(uint64_t cycle);
  void retire_done(uint64_t cycle);
  // An instruction was accepted (it may be the only one, so the oldest):
  // the next retire_done() looks at the wave buffer again.
  void instruction_accepted() { retire_from_ = 0; }
  uint32_t return_latency() const { return return_latency_; }
  // A lane of slot `slot` whose result is in the slot's results already
  // (written ahead: the C++ datapaths' result needs only the lane's ray and
  // node, known at acceptance; a load's only its bytes) lands at
  // `write_cycle`. The issue port (the load port) knows that cycle as the
  // lane passes it: nothing ever holds a lane between the issue port (the
  // load port) and write-back (every port drains a lane a clock). Same
  // result buffer, same completion cycle; no clock of the TD spent carrying
  // the lane through the sort and write-back ports.
  void land_ahead(uint32_t slot, uint64_t write_cycle);
  // Cycle the oldest instruction returns; UINT64_MAX if it is not done yet.
  uint64_t next_retire_cycle() const;

  const char* name() const { return view_.name(); }
  uint32_t lanes_written() const { return lanes_written_; }  // last tick
  bool retired() const { return retired_; }                  // last tick
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;

 private:
  void drain(sim::Channel<LaneDone>& port, uint64_t cycle);
  void write(const LaneDone& done, uint64_t cycle);
  void land(WaveSlot& slot, uint64_t cycle);
  void retire(uint64_t cycle);

  // What every tick reads first; the sort, triangle and load ports (unused
  // when lanes are written ahead) after what a retirement reads.
  uint32_t td_index_;
  uint32_t return_latency_;
  // No instruction retires before this cycle (UINT64_MAX: not before a lane
  // of the oldest lands or an instruction is accepted). The oldest is
  // usually waiting for memory; its slot, a line each tick would read, is
  // then left alone.
  uint64_t retire_from_ = 0;
  WaveBuffer& waves_;
  sim::Channel<LaneDone>& from_no_fetch_;
  uint32_t lanes_written_ = 0;
  bool retired_ = false;
  WaveClient& client_;
  TdStats& stats_;
  WaveResult outgoing_;  // handed to the client; reused so results are not reallocated per instruction
  sim::Channel<LaneDone>& from_sort_;
  sim::Channel<LaneDone>& from_tri_;
  sim::Channel<LaneDone>& from_load_;
  struct TraceSignals {
    sim::VcdWriter::SignalId lanes_written, wave_retired, waves_in_flight;
  } trace_{};
  StageView view_;
};

}  // namespace td::timing

// write_back.h — collects lane results into the per-wave result buffer
// through four write ports, each taking one lane a clock: the sort stage's
// and the triangle stage's (their datapaths hand results over, stamped with
// the cycle they reach write-back: datapath.h), the load port's (a load
// lane leaving the return buffer), and the no-fetch path's (a channel from
// the sequencer). An instruction completes `return_latency_cycles` after
// its last active lane is written, and instructions return to the waves in
// the order the TD accepted them.
#pragma once

#include <vector>

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/datapath.h"
#include "model/td/td_stats.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::timing {

class WriteBack {
 public:
  WriteBack(const char* name, uint32_t td_index, uint32_t return_latency_cycles, WaveBuffer& waves,
            sim::Channel<LaneDone>& from_no_fetch, WaveClient& client, TdStats& stats);

  // A write port: a lane handed over reaches its wave's results at the
  // cycle it carries, which may be ahead (a C++ datapath's result, handed
  // over as its lane entered). The result is stored at once (no one reads
  // a wave's results before it returns) and the instruction completes
  // after its latest lane. A port takes one lane a clock, in increasing
  // cycles, which is what makes a result handed over ahead exact: it
  // checks that.
  class Port final : public LaneSink<LaneDone> {
   public:
    explicit Port(WriteBack& write_back) : write_back_(write_back) {}
    void deliver(const LaneDone& done, uint64_t cycle) override;
    void reset() { last_cycle_ = kNone; }

   private:
    static constexpr uint64_t kNone = UINT64_MAX;
    WriteBack& write_back_;
    uint64_t last_cycle_ = kNone;
  };
  Port& sort_port() { return sort_port_; }
  Port& tri_port() { return tri_port_; }
  Port& load_port() { return load_port_; }

  // One clock: write_lanes() then retire_done().
  void tick(uint64_t cycle) {
    write_lanes(cycle);
    retire_done(cycle);
  }
  // The clock in its two parts: the no-fetch lane arriving this clock
  // written (TD-local), and the oldest instructions whose results are
  // complete handed to the wave client. With a return latency of at least
  // one clock, a lane written this clock cannot complete an instruction
  // before the next, so the two may run in either order.
  void write_lanes(uint64_t cycle);
  void retire_done(uint64_t cycle);
  // An instruction was accepted (it may be the only one, so the oldest):
  // the next retire_done() looks at the wave buffer again.
  void instruction_accepted() { retire_from_ = 0; }
  uint32_t return_latency() const { return return_latency_; }
  // Cycle the oldest instruction returns; UINT64_MAX if it is not done yet.
  uint64_t next_retire_cycle() const;
  void reset();

  const char* name() const { return view_.name(); }
  uint32_t lanes_written() const { return lanes_written_; }  // lanes handed over since the last write_lanes()
  bool retired() const { return retired_; }                  // last tick
  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle);

 private:
  void write(const LaneDone& done, uint64_t cycle);
  void retire(uint64_t cycle);

  // What every tick reads first.
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
  Port sort_port_{*this}, tri_port_{*this}, load_port_{*this};
  // Traced: the cycles lanes reach write-back, for the lanes_written signal.
  bool traced_ = false;
  std::vector<uint64_t> trace_writes_;
  struct TraceSignals {
    sim::VcdWriter::SignalId lanes_written, wave_retired, waves_in_flight;
  } trace_{};
  StageView view_;
};

}  // namespace td::timing

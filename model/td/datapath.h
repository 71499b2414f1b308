// datapath.h — one of the TD's pipelined datapaths (box, sort, triangle),
// whatever implements it: at most one lane goes in a clock, and each lane's
// result comes out `latency` clocks later, in order, into the stage's output
// registers (a channel), where it waits until the next stage takes it. A
// full channel stops the datapath taking lanes: back-pressure.
//
// The stage around it (a thin class: its SystemC name in a StageView, trace
// signals, the channels) is the same for every implementation, as in
// MatchLib, where one testbench drives a block's C++ model or its RTL;
// consumers read the channel, so an implementation costs them nothing. CppDatapath computes a lane's result
// with the golden reference's maths as it goes in and lets the channel's
// delay stand for the pipeline (an untraced TD goes further and writes the
// result ahead: Td's write_ahead_); a clocked (Verilated) implementation holds
// lanes and must be clocked through every cycle while it does
// (model/rtl/clocked_datapath.h), so the TD asks it when its next result
// comes out.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"

namespace td::timing {

template <typename In, typename Out>
class Datapath {
 public:
  virtual ~Datapath() = default;
  // Room for one more lane (lanes inside plus results waiting fit the output).
  virtual bool can_accept() const = 0;
  // One lane; what `in` points to is valid only during the call.
  virtual void accept(const In& in, uint64_t cycle) = 0;
  // A clocked pipeline holds lanes: before the TD's stages read or feed it
  // in cycle c, clock_until(c) moves it through every clock edge before c.
  // An unclocked one holds no lane (its results go straight to the output
  // channel), so its room is the channel's: stages ask the channel, saving
  // a call per lane, and skip its clock.
  virtual bool clocked() const = 0;
  virtual void clock_until(uint64_t cycle) = 0;
  // The cycle the oldest lane inside comes out (UINT64_MAX: none inside):
  // the TD must be ticked then.
  virtual uint64_t next_output_cycle() const = 0;
  virtual size_t lanes_inside() const = 0;  // accepted, result not out yet
  virtual void reset() = 0;
  // The implementation's own signals in the run's waveform, if it has any
  // (a Verilated unit's: rtl_trace.h). The stage's are the stage's.
  virtual void attach_trace(sim::VcdWriter& /*vcd*/) {}
};

// The C++ implementation: `Compute` (the reference maths; a template
// argument, so it inlines) runs when the lane goes in; the output channel's
// delay (the configured latency) holds the result for the pipeline's clocks.
template <typename In, typename Out, Out (*Compute)(const In&)>
class CppDatapath final : public Datapath<In, Out> {
 public:
  explicit CppDatapath(sim::Channel<Out>& out) : out_(out) {}

  bool can_accept() const override { return out_.can_push(); }
  void accept(const In& in, uint64_t cycle) override { out_.push(Compute(in), cycle); }
  bool clocked() const override { return false; }
  void clock_until(uint64_t /*cycle*/) override {}
  uint64_t next_output_cycle() const override { return UINT64_MAX; }  // each result is in the channel at once
  size_t lanes_inside() const override { return 0; }
  void reset() override {}

 private:
  sim::Channel<Out>& out_;
};

}  // namespace td::timing

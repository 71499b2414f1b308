// datapath.h — one of the TD's pipelined datapaths (box, sort, triangle),
// whatever implements it. The stage around it sees three things: it takes
// a lane (at most one a clock); it says when its oldest lane inside comes
// out (next_output_cycle(), for an implementation that holds lanes); and
// it hands each result over, in order, to the next stage (a LaneSink:
// the sort stage, or a write-back port), with the cycle the result reaches
// it. The next stages take one lane a clock, as each datapath delivers at
// most one, so a result is never refused and never held: no back-pressure
// runs from write-back into a datapath.
//
// The stage (a thin class: its SystemC name in a StageView, trace signals)
// is the same for every implementation, as in MatchLib, where one
// testbench drives a block's C++ model or its RTL. Every run, traced or
// not, takes the same path. Two implementations: CppDatapath below (the
// golden reference's maths) and a Verilated unit (model/rtl/
// clocked_datapath.h), which holds its lanes and must be clocked through
// every cycle while it does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "model/sim/vcd_writer.h"

namespace td::timing {

// Where a datapath hands its results: each `item` reaches the receiver at
// `cycle` (not before the cycle the datapath took its lane). Items come in
// order of their cycles, at most one a cycle.
template <typename T>
class LaneSink {
 public:
  virtual ~LaneSink() = default;
  virtual void deliver(const T& item, uint64_t cycle) = 0;
};

template <typename In, typename Out>
class Datapath {
 public:
  virtual ~Datapath() = default;
  // One lane, in cycle `cycle`, at most one a cycle, cycles increasing; what
  // `in` points to is valid only during the call.
  virtual void accept(const In& in, uint64_t cycle) = 0;
  // The implementation holds lanes and keeps time (an RTL pipeline): before
  // the TD's stages read or feed it in cycle c, clock_until(c) moves it
  // through every clock edge before c, handing over what comes out. One
  // that holds none needs no clock, and may take a lane at a cycle still
  // to come (a result handed over ahead: the sort stage's input).
  virtual bool clocked() const = 0;
  virtual void clock_until(uint64_t cycle) = 0;
  // The cycle the oldest lane inside comes out (UINT64_MAX: none inside):
  // the TD must be ticked then.
  virtual uint64_t next_output_cycle() const = 0;
  virtual size_t lanes_inside() const = 0;  // accepted, result not handed over yet
  virtual void reset() = 0;
  // The implementation's own signals in the run's waveform, if it has any
  // (a Verilated unit's: rtl_trace.h). The stage's are the stage's.
  virtual void attach_trace(sim::VcdWriter& /*vcd*/) {}
};

// The C++ implementation: the reference maths `Compute` (a template
// argument, so it inlines) and a fixed latency.
//
// Host shortcut, "result at entry": the result is computed as the lane
// goes in and handed over at once, stamped with the cycle it comes out
// (entry + latency); nothing is held inside and no clock is needed. Exact
// because the pipeline has no stall of its own and its receivers take a
// lane a clock: a lane that goes in at cycle c comes out at c + latency
// whatever follows it. That needs lanes to come one a clock, in increasing
// cycles: accept() checks it.
template <typename In, typename Out, Out (*Compute)(const In&)>
class CppDatapath final : public Datapath<In, Out> {
 public:
  CppDatapath(LaneSink<Out>& out, uint32_t latency) : out_(out), latency_(latency) {}

  void accept(const In& in, uint64_t cycle) override {
    if (__builtin_expect(cycle <= last_accept_cycle_ && last_accept_cycle_ != kNone, 0))
      throw std::logic_error("CppDatapath: two lanes in one clock, or a clock earlier than the last");
    last_accept_cycle_ = cycle;
    out_.deliver(Compute(in), cycle + latency_);
  }
  bool clocked() const override { return false; }
  void clock_until(uint64_t /*cycle*/) override {}
  uint64_t next_output_cycle() const override { return UINT64_MAX; }  // each result is handed over at once
  size_t lanes_inside() const override { return 0; }
  void reset() override { last_accept_cycle_ = kNone; }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  LaneSink<Out>& out_;
  uint32_t latency_;
  uint64_t last_accept_cycle_ = kNone;
};

}  // namespace td::timing

// clocked_datapath.h — a Verilated pipeline behind the Datapath interface.
//
// The unit has no stall input: a lane that goes in at the clock edge of
// cycle c comes out after the edge of cycle c + latency - 1 and is handed
// to the next stage for cycle c + latency, as the C++ datapath's results
// are (the next stages take a lane a clock, so nothing waits for room).
//
// Clock edges are evaluated lazily: accept() drives the ports for the edge
// of its cycle, and clock_until(c) evaluates the edges of every cycle before
// c — only while lanes are inside (an empty pipeline's edges change nothing
// anyone sees). The TD therefore keeps its own schedule, waking when the
// oldest lane comes out (next_output_cycle), exactly as with the C++
// datapath. Lanes' bookkeeping (which wave slot and lane) rides beside the
// unit in a FIFO, in order, since the unit keeps order at one lane a clock.
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "model/rtl/rtl_trace.h"
#include "model/rtl/verilated_unit.h"
#include "model/td/datapath.h"

namespace td::rtl {

// `Ports` says how one unit's ports carry In and Out:
//   using Model = Vtd_...;  using Side = ...;   (what rides beside the unit)
//   static Side drive(Model&, const In&);         (drives the ports; returns the lane's side data)
//   static Out read(const Model&, const Side&);   (the result on the outputs)
template <typename In, typename Out, typename Ports>
class ClockedDatapath final : public timing::Datapath<In, Out> {
 public:
  // `scope`: the stage's hierarchical name, the unit's in traces.
  ClockedDatapath(timing::LaneSink<Out>& out, uint32_t latency, const std::string& scope)
      : out_(out), latency_(latency), unit_(scope) {
    const uint32_t measured = unit_.measure_latency();
    if (measured != latency)
      throw std::logic_error(fmt::format("{}: the Verilated unit's latency is {} clocks, the configuration's {}",
                                         scope, measured, latency));
  }

  void accept(const In& in, uint64_t cycle) override {
    clock_until(cycle);
    typename Ports::Model& io = unit_.io();
    inside_.push_back({Ports::drive(io, in), cycle});
    io.in_valid_i = 1;  // for this cycle's edge
    if (traced_) io.eval();  // the waveform shows the lane at its own cycle
  }
  bool clocked() const override { return true; }
  void clock_until(uint64_t cycle) override {
    const bool any = next_edge_ < cycle && !inside_.empty();
    while (next_edge_ < cycle && !inside_.empty()) edge(next_edge_++);
    if (next_edge_ < cycle) next_edge_ = cycle;
    if (any && traced_) unit_.io().eval();  // in_valid_i low again, as the waveform should show
  }
  uint64_t next_output_cycle() const override {
    return inside_.empty() ? UINT64_MAX : inside_.front().accept_cycle + latency_;
  }
  size_t lanes_inside() const override { return inside_.size(); }
  void reset() override {
    inside_.clear();
    next_edge_ = 0;
    unit_.reset();
  }
  // The unit's signals join the run's waveform. The chip ticks every TD
  // every clock while it traces, so edges are evaluated in cycle order.
  void attach_trace(sim::VcdWriter& vcd) override {
    RtlTrace::of(vcd).add(unit_.io());
    traced_ = true;
  }

 private:
  void edge(uint64_t cycle) {
    unit_.clock();
    typename Ports::Model& io = unit_.io();
    io.in_valid_i = 0;
    if (io.out_valid_o) {
      out_.deliver(Ports::read(io, inside_.front().side), cycle + 1);
      inside_.pop_front();
    }
  }

  struct Inside {
    typename Ports::Side side;
    uint64_t accept_cycle;
  };
  timing::LaneSink<Out>& out_;
  uint32_t latency_;
  VerilatedUnit<typename Ports::Model> unit_;
  std::deque<Inside> inside_;
  uint64_t next_edge_ = 0;  // the first cycle whose clock edge is not evaluated yet
  bool traced_ = false;
};

}  // namespace td::rtl

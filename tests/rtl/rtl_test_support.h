// What the RTL tests share: the Verilated units, the harness that clocks
// them and the ports in the model's types (model/rtl/), and a seeded random
// source.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>

#include "model/rtl/ports.h"
#include "model/rtl/verilated_models.h"
#include "model/rtl/verilated_unit.h"

namespace rtl_test {

// splitmix64: seeded, the same sequence every run.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 40) / 16777216.0f; }
};

// Streams `lanes` lanes made by `make(rng)` through a pipelined unit, one a
// clock with seeded gaps (`unit.cycle(lane or nullptr)` returns whether a
// result came out). Each result must come out exactly `latency` clocks
// after its lane went in, in order; `check(lane, index)` checks its value.
template <typename Lane, typename Unit, typename Make, typename Check>
void stream_lanes(Unit& unit, Rng& rng, int lanes, uint32_t latency, Make make, Check check) {
  std::deque<Lane> in_flight;
  std::deque<uint64_t> sent_at;
  int sent = 0, checked = 0;
  uint64_t cycle = 0;
  while (checked < lanes) {
    Lane lane;
    const bool send = sent < lanes && rng.below(8) != 0;  // gaps too
    if (send) {
      lane = make(rng);
      in_flight.push_back(lane);
      sent_at.push_back(cycle);
      ++sent;
    }
    const bool out = unit.cycle(send ? &lane : nullptr);
    ++cycle;
    if (!out) continue;
    ASSERT_FALSE(in_flight.empty()) << "a result no lane went in for";
    ASSERT_EQ(cycle - sent_at.front(), latency) << "lane " << checked;
    check(in_flight.front(), checked);
    if (::testing::Test::HasFatalFailure()) return;
    in_flight.pop_front();
    sent_at.pop_front();
    ++checked;
  }
}

}  // namespace rtl_test

// td_sort4 under Verilator against the golden reference's ref::box_result:
// every hit mask with keys drawn from a small set (ties, -0 and +0, equal
// keys in different slots), sorted and unsorted, one lane a clock, each
// result out exactly Latency clocks later.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <deque>

#include "tests/rtl/rtl_test_support.h"
#include "model/isa/fp32.h"
#include "model/ref/box_test.h"

namespace {

constexpr uint32_t kLatency = TDSIM_RTL_SORT_LATENCY;  // as built (rtl/CMakeLists.txt)

struct SortCase {
  bool sort = true;
  td::ref::BoxTestResult tests;
  std::array<uint32_t, 4> child{};
};

TEST(RtlSort4, MatchesTheReferenceOnEveryHitMaskWithTiesAndSignedZeros) {
  td::rtl::VerilatedUnit<Vtd_sort4> unit;
  const std::array<float, 6> keys = {0.0f, -0.0f, 1.0f, 1.0f, 2.5f, 1e-30f};
  std::deque<SortCase> in_flight;
  std::deque<uint64_t> sent_at;
  uint64_t cycle = 0, checked = 0, state = 7;
  for (int n = 0; n < 100000 || !in_flight.empty(); ++n) {
    const bool send = n < 100000;
    SortCase c;
    if (send) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      c.sort = (state >> 60) & 1u;
      for (int i = 0; i < 4; ++i) {
        c.tests.hit[i] = (state >> (40 + i)) & 1u;
        c.tests.key[i] = keys[(state >> (20 + 3 * i)) % keys.size()];
        c.child[i] = static_cast<uint32_t>(state >> (4 * i)) & 0xffffu;
      }
      td::rtl::drive_sort(unit.io(), c.child, c.tests, c.sort);
      in_flight.push_back(c);
      sent_at.push_back(cycle);
    }
    unit.io().in_valid_i = send;
    unit.clock();
    ++cycle;
    if (!unit.io().out_valid_o) continue;
    ASSERT_FALSE(in_flight.empty());
    ASSERT_EQ(cycle - sent_at.front(), kLatency);
    const SortCase& e = in_flight.front();
    const std::array<uint32_t, 4> expected = td::ref::box_result(e.child, e.tests, e.sort);
    const std::array<uint32_t, 4> sorted = td::rtl::sorted_children(unit.io());
    for (int k = 0; k < 4; ++k) ASSERT_EQ(sorted[k], expected[k]) << "case " << checked << " slot " << k;
    in_flight.pop_front();
    sent_at.pop_front();
    ++checked;
  }
  EXPECT_EQ(checked, 100000u);
}

}  // namespace

// ReturnBuffer: the issue port's order (ready cycle, then the order the
// cycles became known), checked against the plain rule it replaced — a list
// in which a lane goes in after every lane ready no later than it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/td/return_buffer.h"
#include "tb/common/rng.h"

namespace td::timing {
namespace {

// Lane `id` of its own slot (`id`: unique in a run; a lane index is < 64).
FetchedLane lane(uint32_t id, uint64_t ready, uint64_t tag = 0) {
  FetchedLane f;
  f.slot = id;
  f.lane = static_cast<uint8_t>(id % 64);
  f.ready_cycle = ready;
  f.tag = tag;
  return f;
}

TEST(ReturnBuffer, EqualReadyCyclesKeepTheOrderTheyBecameKnown) {
  ReturnBuffer buffer(8);
  buffer.land(lane(0, 50));
  buffer.wait_for_fill(lane(1, UINT64_MAX, 11));
  buffer.land(lane(2, 40));
  buffer.land(lane(3, 50));
  FetchedLane landed;
  ASSERT_TRUE(buffer.fill_known(11, 40, landed));  // known after lane 2: behind it
  EXPECT_EQ(landed.ready_cycle, 40u);
  EXPECT_FALSE(buffer.fill_known(11, 40, landed));  // already landed
  std::vector<uint32_t> order;
  while (buffer.has_landed()) order.push_back(buffer.take_front().lane);
  EXPECT_EQ(order, (std::vector<uint32_t>{2, 1, 0, 3}));
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.earliest_ready(), UINT64_MAX);
}

TEST(ReturnBuffer, CountsWaitingLanesTowardsFull) {
  ReturnBuffer buffer(2);
  buffer.wait_for_fill(lane(0, UINT64_MAX, 1));
  EXPECT_FALSE(buffer.full());
  EXPECT_FALSE(buffer.has_landed());
  buffer.land(lane(1, 9));
  EXPECT_TRUE(buffer.full());
  EXPECT_EQ(buffer.size(), 2u);
  EXPECT_EQ(buffer.waiting_for_fill(), 1u);
  buffer.clear();
  EXPECT_TRUE(buffer.empty());
}

// Random lands, fills and takes (with wrap-arounds) in the same order as the
// list rule.
TEST(ReturnBuffer, MatchesTheListRuleOnRandomTraffic) {
  constexpr size_t kEntries = 7;
  ReturnBuffer buffer(kEntries);
  std::vector<FetchedLane> list;     // landed, in issue order
  std::vector<FetchedLane> waiting;  // by tag
  tb::Rng rng(2026);
  uint32_t next_id = 0;
  uint64_t next_tag = 1;
  const auto list_land = [&](const FetchedLane& f) {
    auto at = list.end();
    while (at != list.begin() && std::prev(at)->ready_cycle > f.ready_cycle) --at;
    list.insert(at, f);
  };
  for (int step = 0; step < 200000; ++step) {
    const uint32_t action = rng.below(4);
    if (action == 0 && !buffer.full()) {
      const FetchedLane f = lane(next_id++, rng.below(64));
      buffer.land(f);
      list_land(f);
    } else if (action == 1 && !buffer.full()) {
      const FetchedLane f = lane(next_id++, UINT64_MAX, next_tag++);
      buffer.wait_for_fill(f);
      waiting.push_back(f);
    } else if (action == 2 && !waiting.empty()) {
      const size_t pick = rng.below(static_cast<uint32_t>(waiting.size()));
      FetchedLane f = waiting[pick];
      waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(pick));
      const uint64_t ready = rng.below(64);
      FetchedLane landed;
      ASSERT_TRUE(buffer.fill_known(f.tag, ready, landed));
      ASSERT_EQ(landed.slot, f.slot);
      f.ready_cycle = ready;
      list_land(f);
    } else if (action == 3 && !list.empty()) {
      ASSERT_TRUE(buffer.has_landed());
      ASSERT_EQ(buffer.earliest_ready(), list.front().ready_cycle);
      ASSERT_EQ(buffer.take_front().slot, list.front().slot) << "step " << step;
      list.erase(list.begin());
    }
    ASSERT_EQ(buffer.size(), list.size() + waiting.size());
    ASSERT_EQ(buffer.waiting_for_fill(), waiting.size());
  }
}

}  // namespace
}  // namespace td::timing

// sim::Channel: the register semantics and the bound every stage relies on.
#include <gtest/gtest.h>

#include "model/sim/channel.h"

namespace td::sim {
namespace {

TEST(Channel, ItemIsVisibleOnlyAfterItsDelay) {
  Channel<int> channel(4, 3);
  channel.push(7, 10);
  EXPECT_FALSE(channel.can_pop(10));
  EXPECT_FALSE(channel.can_pop(12));
  EXPECT_TRUE(channel.can_pop(13));
  EXPECT_EQ(channel.front_visible_cycle(), 13u);
  EXPECT_EQ(channel.pop(), 7);
}

// The front's visible cycle is kept beside the counts: it must follow pops,
// pushes into an empty channel and clears.
TEST(Channel, FrontVisibleCycleFollowsPopsPushesAndClears) {
  Channel<int> channel(3, 2);
  channel.push(1, 0);  // visible at 2
  channel.push(2, 5);  // visible at 7
  EXPECT_TRUE(channel.can_pop(2));
  channel.pop();
  EXPECT_EQ(channel.front_visible_cycle(), 7u);
  EXPECT_FALSE(channel.can_pop(6));
  EXPECT_TRUE(channel.can_pop(7));
  channel.pop();
  EXPECT_FALSE(channel.can_pop(100));
  channel.push(3, 20);  // into an empty channel: visible at 22
  EXPECT_EQ(channel.front_visible_cycle(), 22u);
  EXPECT_FALSE(channel.can_pop(21));
  channel.clear();
  EXPECT_FALSE(channel.can_pop(100));
  channel.push(4, 1);
  EXPECT_EQ(channel.front_visible_cycle(), 3u);
  EXPECT_TRUE(channel.can_pop(3));
}

TEST(Channel, RefusesPushesWhenFull) {
  Channel<int> channel(2);
  EXPECT_TRUE(channel.can_push());
  channel.push(1, 0);
  channel.push(2, 0);
  EXPECT_FALSE(channel.can_push());
  EXPECT_EQ(channel.size(), 2u);
  channel.pop();
  EXPECT_TRUE(channel.can_push());
}

TEST(Channel, KeepsOrderAcrossManyWrapArounds) {
  Channel<int> channel(3);
  int next_in = 0, next_out = 0;
  for (uint64_t cycle = 0; cycle < 100; ++cycle) {
    while (channel.can_pop(cycle)) EXPECT_EQ(channel.pop(), next_out++);
    if (channel.can_push()) channel.push(next_in++, cycle);
    if (channel.can_push() && cycle % 3 == 0) channel.push(next_in++, cycle);
  }
  EXPECT_GT(next_out, 90);
  EXPECT_EQ(static_cast<size_t>(next_in - next_out), channel.size());
}

TEST(Channel, ClearEmpties) {
  Channel<int> channel(2);
  channel.push(1, 0);
  channel.clear();
  EXPECT_TRUE(channel.empty());
  EXPECT_FALSE(channel.can_pop(100));
}

}  // namespace
}  // namespace td::sim

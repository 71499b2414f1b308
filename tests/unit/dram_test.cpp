// Dram: latency after a per-channel bandwidth reservation. Expected cycles
// are computed from the timing each test sets up, in integer arithmetic
// where the bandwidth is a fraction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "model/mem/dram.h"
#include "model/sim/stats.h"

namespace td::mem {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

DramTiming timing(uint32_t channels, double bytes_per_clock) {
  DramTiming t;
  t.channels = channels;
  t.interleave_bytes = 256;
  t.bytes_per_clock_per_channel = bytes_per_clock;
  t.latency_cycles = 400;
  return t;
}

class DramTest : public ::testing::Test {
 protected:
  sim::StatsRegistry registry_;
  sim::StatGroup group_{registry_, "dram"};
};

TEST_F(DramTest, ConstructorRejectsBadTiming) {
  auto rejects = [&](DramTiming t) { EXPECT_THROW(Dram(t, group_), std::invalid_argument); };
  DramTiming t = timing(4, 16);
  t.channels = 0;
  rejects(t);
  t = timing(4, 16);
  t.interleave_bytes = 384;  // not a power of two
  rejects(t);
  t = timing(4, 16);
  t.interleave_bytes = 8;  // below 16
  rejects(t);
  rejects(timing(4, 0.0));
  rejects(timing(4, -1.0));
  rejects(timing(4, std::numeric_limits<double>::quiet_NaN()));
  rejects(timing(4, std::numeric_limits<double>::infinity()));
  EXPECT_NO_THROW(Dram(timing(4, 16), group_));
}

TEST_F(DramTest, RequestIsReadyAfterTransferAndLatency) {
  const DramTiming t = timing(4, 16);
  Dram dram(t, group_);
  const MemResponse r = dram.access(0x0, 128, 10);
  EXPECT_TRUE(r.accepted);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.cycle, 10 + ceil_div(128, 16) + t.latency_cycles);
  EXPECT_EQ(registry_.value("dram.requests"), 1u);
  EXPECT_EQ(registry_.value("dram.bytes"), 128u);
}

TEST_F(DramTest, OneChannelBandwidthBoundsManyRequests) {
  const DramTiming t = timing(4, 16);
  Dram dram(t, group_);
  const uint64_t stride = uint64_t{t.interleave_bytes} * t.channels;  // always channel 0
  const int n = 1000;
  const uint64_t per_request = 128 / 16;
  uint64_t last = 0;
  for (int i = 0; i < n; ++i) {
    // Asked one a cycle, faster than the channel moves them.
    const MemResponse r = dram.access(i * stride, 128, static_cast<uint64_t>(i));
    EXPECT_EQ(r.cycle, (i + 1) * per_request + t.latency_cycles) << "request " << i;
    last = r.cycle;
  }
  EXPECT_EQ(last, n * 128 / 16 + t.latency_cycles);
  EXPECT_EQ(registry_.value("dram.requests"), static_cast<uint64_t>(n));
  EXPECT_EQ(registry_.value("dram.bytes"), n * 128u);
}

TEST_F(DramTest, InterleavedChannelsServeInParallel) {
  const DramTiming t = timing(4, 16);
  Dram dram(t, group_);
  const uint64_t transfer = t.interleave_bytes / 16;
  // Two rounds of one interleave block per channel, all asked at cycle 0.
  for (uint32_t i = 0; i < 2 * t.channels; ++i) {
    const MemResponse r = dram.access(uint64_t{i} * t.interleave_bytes, t.interleave_bytes, 0);
    const uint64_t round = i / t.channels + 1;
    EXPECT_EQ(r.cycle, round * transfer + t.latency_cycles) << "block " << i;
  }
}

TEST_F(DramTest, RequestSpanningChannelsIsSplit) {
  const DramTiming t = timing(4, 16);
  Dram dram(t, group_);
  // [128, 640): 128 bytes on channel 0, 256 on channel 1, 128 on channel 2.
  const MemResponse r = dram.access(128, 512, 0);
  EXPECT_EQ(r.cycle, ceil_div(256, 16) + t.latency_cycles);
  // Each channel is busy for its own share only.
  EXPECT_EQ(dram.access(0, 16, 0).cycle, ceil_div(128 + 16, 16) + t.latency_cycles);
  EXPECT_EQ(dram.access(256, 16, 0).cycle, ceil_div(256 + 16, 16) + t.latency_cycles);
  EXPECT_EQ(dram.access(512, 16, 0).cycle, ceil_div(128 + 16, 16) + t.latency_cycles);
  EXPECT_EQ(dram.access(768, 16, 0).cycle, ceil_div(16, 16) + t.latency_cycles);
  EXPECT_EQ(registry_.value("dram.requests"), 5u);
}

TEST_F(DramTest, IdleChannelDoesNotBankBandwidth) {
  const DramTiming t = timing(1, 16);
  Dram dram(t, group_);
  EXPECT_EQ(dram.access(0, 128, 0).cycle, 8 + t.latency_cycles);
  EXPECT_EQ(dram.access(0, 128, 1000).cycle, 1000 + 8 + t.latency_cycles);
}

// Bandwidths with no exact binary form, as a GB/s-per-clock figure gives:
// request i ends at exactly (i+1) * bytes * den / num cycles, a whole number
// every num-th request. A running sum of bytes / bandwidth drifts off these
// within a few thousand requests; so does a plain ceil of one division.
TEST_F(DramTest, FractionalBandwidthAccumulatesExactly) {
  struct Case {
    double bytes_per_clock;
    uint64_t num, den;  // bytes_per_clock = num / den
    uint32_t bytes;
  };
  for (const Case c : {Case{0.7, 7, 10, 128}, Case{9.6, 48, 5, 64}, Case{17.9, 179, 10, 128}, Case{12.8, 64, 5, 100}}) {
    sim::StatsRegistry registry;
    const DramTiming t = timing(1, c.bytes_per_clock);
    Dram dram(t, sim::StatGroup(registry, "dram"));
    const uint64_t n = 100000;
    for (uint64_t i = 0; i < n; ++i) {
      const MemResponse r = dram.access(0, c.bytes, 0);
      ASSERT_EQ(r.cycle, ceil_div((i + 1) * c.bytes * c.den, c.num) + t.latency_cycles)
          << c.bytes_per_clock << " B/clk, request " << i;
    }
  }
}

// 0.7 bytes a clock: 7 bytes take exactly 10 cycles, request after request
// (asked once a cycle, faster than that).
TEST_F(DramTest, SlowFractionalBandwidthStaysExact) {
  const DramTiming t = timing(1, 0.7);
  Dram dram(t, group_);
  const uint64_t n = 100000;
  for (uint64_t i = 0; i < n; ++i) {
    const MemResponse r = dram.access(0, 7, i);
    ASSERT_EQ(r.cycle, (i + 1) * 10 + t.latency_cycles) << "request " << i;
  }
}

TEST_F(DramTest, FractionalTransferEndsAtTheNextWholeCycle) {
  const DramTiming t = timing(1, 12.8);
  Dram dram(t, group_);
  // 100 bytes = 7.8125 cycles: ready at cycle 8 (+ latency).
  EXPECT_EQ(dram.access(0, 100, 0).cycle, 8 + t.latency_cycles);
  // Asked at 7, the channel is still busy until 7.8125: ends at 15.625.
  EXPECT_EQ(dram.access(0, 100, 7).cycle, 16 + t.latency_cycles);
  // Asked at 100, the channel is idle: ends at 107.8125.
  EXPECT_EQ(dram.access(0, 100, 100).cycle, 108 + t.latency_cycles);
}

TEST_F(DramTest, InvalidateFreesChannels) {
  const DramTiming t = timing(1, 16);
  Dram dram(t, group_);
  dram.access(0, 1600, 0);  // busy for 100 cycles
  dram.invalidate();
  EXPECT_EQ(dram.access(0, 16, 0).cycle, 1 + t.latency_cycles);
}

}  // namespace
}  // namespace td::mem

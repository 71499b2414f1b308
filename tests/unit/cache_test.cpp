// Cache and SlicedCache timing, in isolation behind a fake next level with a
// fixed latency that records every request it gets. Expected cycles are
// computed from the geometry each test sets up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <map>
#include <vector>

#include "model/mem/cache.h"
#include "model/mem/mem_level.h"
#include "model/sim/stats.h"

namespace td::mem {
namespace {

struct Call {
  uint64_t address;
  uint32_t bytes;
  uint64_t cycle;
};

// Answers every request `latency` cycles later; rejects the first
// `rejections` requests with a retry `retry_delay` cycles later.
class FakeNext final : public MemLevel {
 public:
  explicit FakeNext(uint64_t latency, uint32_t rejections = 0, uint64_t retry_delay = 0)
      : latency_(latency), rejections_(rejections), retry_delay_(retry_delay) {}
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient*, uint64_t, Traffic) override {
    calls.push_back(Call{address, bytes, cycle});
    if (rejections_ > 0) {
      --rejections_;
      return MemResponse{false, cycle + retry_delay_, false};
    }
    return MemResponse{true, cycle + latency_, false};
  }
  void invalidate() override { ++invalidations; }

  std::vector<Call> calls;
  int invalidations = 0;

 private:
  uint64_t latency_;
  uint32_t rejections_;
  uint64_t retry_delay_;
};

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// 4 sets x 2 ways x 64-byte lines.
CacheGeometry small_geometry() {
  CacheGeometry g;
  g.ways = 2;
  g.line_bytes = 64;
  g.size_bytes = 4 * g.ways * g.line_bytes;
  g.hit_latency_cycles = 3;
  g.mshrs = 4;
  g.bytes_per_clock = 64;
  return g;
}

// The address of the `k`-th distinct line that maps to `set`.
uint64_t line_in_set(const CacheGeometry& g, uint32_t sets, uint64_t set, uint64_t k) {
  return (k * sets + set) * g.line_bytes;
}

class CacheTest : public ::testing::Test {
 protected:
  sim::StatsRegistry registry_;
  sim::StatGroup group_{registry_, "l0"};
  uint64_t stat(const std::string& name) const { return registry_.value("l0." + name); }
};

TEST_F(CacheTest, SetsFollowFromSizeWaysAndLine) {
  FakeNext next(10);
  const CacheGeometry g = small_geometry();
  Cache cache(g, next, group_);
  EXPECT_EQ(cache.sets(), g.size_bytes / (uint64_t{g.ways} * g.line_bytes));
  EXPECT_EQ(cache.mshrs_in_use(0), 0u);
}

TEST_F(CacheTest, ConstructorRejectsBadGeometry) {
  FakeNext next(10);
  auto rejects = [&](CacheGeometry g) { EXPECT_THROW(Cache(g, next, group_), std::invalid_argument); };
  CacheGeometry g = small_geometry();
  g.line_bytes = 48;  // not a power of two
  rejects(g);
  g = small_geometry();
  g.line_bytes = 8;  // below 16
  g.size_bytes = 4 * g.ways * 8;
  rejects(g);
  g = small_geometry();
  g.size_bytes = 3 * g.ways * g.line_bytes;  // 3 sets
  rejects(g);
  g = small_geometry();
  g.size_bytes = g.ways * g.line_bytes / 2;  // 0 sets
  rejects(g);
  g = small_geometry();
  g.size_bytes += 1;  // not a whole number of sets
  rejects(g);
  g = small_geometry();
  g.ways = 0;
  rejects(g);
  g = small_geometry();
  g.mshrs = 0;
  rejects(g);
  g = small_geometry();
  g.bytes_per_clock = 0;
  rejects(g);
  // A rejected geometry registers nothing: a good one can still take the names.
  EXPECT_NO_THROW(Cache(small_geometry(), next, group_));
}

TEST_F(CacheTest, ColdMissFetchesLineThenHitsAtHitLatency) {
  const uint64_t next_latency = 50;
  FakeNext next(next_latency);
  const CacheGeometry g = small_geometry();
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  const uint64_t t0 = 10;
  const MemResponse miss = cache.access(0x1000 + 8, 32, t0);
  ASSERT_TRUE(miss.accepted);
  EXPECT_FALSE(miss.hit);
  ASSERT_EQ(next.calls.size(), 1u);
  EXPECT_EQ(next.calls[0].address, 0x1000u);  // the whole line
  EXPECT_EQ(next.calls[0].bytes, g.line_bytes);
  EXPECT_EQ(next.calls[0].cycle, t0 + hl);  // after the tag check
  EXPECT_EQ(miss.cycle, t0 + hl + next_latency);  // the fill goes straight on

  const uint64_t t1 = 200;
  const MemResponse hit = cache.access(0x1000, 64, t1);
  ASSERT_TRUE(hit.accepted);
  EXPECT_TRUE(hit.hit);
  EXPECT_EQ(hit.cycle, t1 + std::max(hl, ceil_div(64, g.bytes_per_clock)));
  EXPECT_EQ(next.calls.size(), 1u);

  EXPECT_EQ(stat("hits"), 1u);
  EXPECT_EQ(stat("misses"), 1u);
  EXPECT_EQ(stat("bytes"), 32u + 64u);
  EXPECT_EQ(stat("evictions"), 0u);
}

TEST_F(CacheTest, LruEvictsLeastRecentlyUsedWay) {
  FakeNext next(20);
  const CacheGeometry g = small_geometry();  // 2 ways
  Cache cache(g, next, group_);
  const uint64_t a = line_in_set(g, cache.sets(), 1, 0);
  const uint64_t b = line_in_set(g, cache.sets(), 1, 1);
  const uint64_t c = line_in_set(g, cache.sets(), 1, 2);
  uint64_t t = 0;
  auto at = [&](uint64_t address) { return cache.access(address, g.line_bytes, t += 1000); };

  EXPECT_FALSE(at(a).hit);
  EXPECT_FALSE(at(b).hit);
  EXPECT_TRUE(at(a).hit);  // A is now more recent than B
  EXPECT_FALSE(at(c).hit);  // evicts B
  EXPECT_EQ(stat("evictions"), 1u);
  EXPECT_TRUE(at(a).hit);
  EXPECT_TRUE(at(c).hit);
  EXPECT_FALSE(at(b).hit);  // B was the one evicted
  EXPECT_EQ(next.calls.size(), 4u);
  EXPECT_EQ(stat("evictions"), 2u);
}

TEST_F(CacheTest, MissToLineInFlightMergesIntoOneFill) {
  const uint64_t next_latency = 50;
  FakeNext next(next_latency);
  const CacheGeometry g = small_geometry();
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  const MemResponse first = cache.access(0x400, 32, 0);
  const uint64_t fill = 0 + hl + next_latency;
  EXPECT_EQ(first.cycle, fill);
  const MemResponse second = cache.access(0x400 + 32, 32, 5);  // fill still in flight
  ASSERT_TRUE(second.accepted);
  EXPECT_FALSE(second.hit);
  EXPECT_EQ(second.cycle, first.cycle);  // ready with the same fill
  EXPECT_EQ(next.calls.size(), 1u);     // no second request below
  EXPECT_EQ(cache.mshrs_in_use(5), 1u);  // and no second MSHR
  EXPECT_EQ(stat("merged"), 1u);
  EXPECT_EQ(stat("misses"), 2u);
  EXPECT_EQ(stat("hits"), 0u);

  // From the fill cycle on, the line is a plain hit.
  const MemResponse later = cache.access(0x400, 32, fill);
  EXPECT_TRUE(later.hit);
  EXPECT_EQ(later.cycle, fill + std::max(hl, ceil_div(32, g.bytes_per_clock)));
  EXPECT_EQ(cache.mshrs_in_use(fill), 0u);
}

TEST_F(CacheTest, FullMshrsRejectWithRetryCycleAndNoStateChange) {
  const uint64_t next_latency = 100;
  FakeNext next(next_latency);
  CacheGeometry g = small_geometry();
  g.mshrs = 2;
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;
  const uint64_t h = 0x0;  // a line to hit on, warmed first
  cache.access(h, 64, 0);

  const uint64_t t = 1000;
  // Three lines in three other sets, so that nothing is evicted.
  ASSERT_TRUE(cache.access(0x1040, 64, t).accepted);
  ASSERT_TRUE(cache.access(0x2080, 64, t + 1).accepted);
  EXPECT_EQ(cache.mshrs_in_use(t + 2), 2u);
  const uint64_t first_release = t + hl + next_latency;

  const MemResponse rejected = cache.access(0x30c0, 64, t + 2);
  EXPECT_FALSE(rejected.accepted);
  EXPECT_EQ(rejected.cycle, first_release);
  EXPECT_EQ(stat("mshr_full"), 1u);
  EXPECT_EQ(stat("misses"), 3u);  // the rejected request counted no access
  EXPECT_EQ(stat("bytes"), 3u * 64u);
  EXPECT_EQ(next.calls.size(), 3u);
  EXPECT_EQ(cache.mshrs_in_use(t + 2), 2u);

  // The port was not reserved by the rejected request: a hit at the same
  // cycle starts at once.
  const MemResponse hit = cache.access(h, 64, t + 2);
  EXPECT_TRUE(hit.hit);
  EXPECT_EQ(hit.cycle, t + 2 + std::max(hl, ceil_div(64, g.bytes_per_clock)));

  // Retrying at the reported cycle is accepted.
  const MemResponse retried = cache.access(0x30c0, 64, rejected.cycle);
  ASSERT_TRUE(retried.accepted);
  ASSERT_EQ(next.calls.size(), 4u);
  EXPECT_EQ(next.calls[3].address, 0x30c0u);
  EXPECT_EQ(next.calls[3].cycle, first_release + hl);
  EXPECT_EQ(retried.cycle, first_release + hl + next_latency);
}

TEST_F(CacheTest, RejectedRequestLeavesLruUntouched) {
  const uint64_t next_latency = 100;
  FakeNext next(next_latency);
  CacheGeometry g = small_geometry();  // 2 ways
  g.mshrs = 1;
  Cache cache(g, next, group_);
  const uint32_t sets = cache.sets();
  const uint64_t a = line_in_set(g, sets, 0, 0);
  const uint64_t b = line_in_set(g, sets, 0, 1);
  const uint64_t c = line_in_set(g, sets, 0, 2);
  const uint64_t busy = line_in_set(g, sets, 2, 0);
  cache.access(b, 64, 0);
  cache.access(a, 64, 1000);  // set 0: B least recently used
  cache.access(busy, 64, 2000);  // the only MSHR, busy until its fill

  // B and the line after it (set 1, missing): needs the busy MSHR.
  const MemResponse rejected = cache.access(b, 2 * g.line_bytes, 2001);
  ASSERT_FALSE(rejected.accepted);
  EXPECT_EQ(rejected.cycle, 2000 + g.hit_latency_cycles + next_latency);

  // Had the rejected request touched B, A would be evicted now.
  cache.access(c, 64, 5000);
  EXPECT_TRUE(cache.access(a, 64, 6000).hit);
  EXPECT_FALSE(cache.access(b, 64, 7000).hit);
}

TEST_F(CacheTest, MultiLineRequestNeedsAllItsMshrsOrNone) {
  const uint64_t next_latency = 100;
  FakeNext next(next_latency);
  CacheGeometry g = small_geometry();
  g.mshrs = 2;
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  cache.access(0x1000, 64, 0);   // MSHR busy until hl + latency
  cache.access(0x2000, 64, 10);  // MSHR busy until 10 + hl + latency
  // Two missing lines need both MSHRs: the second release is the answer.
  const MemResponse rejected = cache.access(0x3000, 128, 20);
  EXPECT_FALSE(rejected.accepted);
  EXPECT_EQ(rejected.cycle, 10 + hl + next_latency);
  EXPECT_EQ(next.calls.size(), 2u);

  // One MSHR free is not enough for two lines either.
  const MemResponse still = cache.access(0x3000, 128, hl + next_latency);
  EXPECT_FALSE(still.accepted);
  EXPECT_EQ(still.cycle, 10 + hl + next_latency);
  EXPECT_EQ(next.calls.size(), 2u);
  EXPECT_EQ(stat("mshr_full"), 2u);

  const MemResponse accepted = cache.access(0x3000, 128, rejected.cycle);
  ASSERT_TRUE(accepted.accepted);
  EXPECT_EQ(next.calls.size(), 4u);
  EXPECT_EQ(cache.mshrs_in_use(rejected.cycle), 2u);
}

TEST_F(CacheTest, RequestThatCanNeverBeAcceptedThrows) {
  FakeNext next(10);
  CacheGeometry g = small_geometry();
  g.mshrs = 1;
  Cache cache(g, next, group_);
  // Two missing lines, one MSHR.
  EXPECT_THROW(cache.access(0x0, 2 * g.line_bytes, 0), std::invalid_argument);
  // More lines than the cache holds.
  EXPECT_THROW(cache.access(0x0, static_cast<uint32_t>(g.size_bytes) + g.line_bytes, 0), std::invalid_argument);
  EXPECT_TRUE(next.calls.empty());
}

TEST_F(CacheTest, BackToBackHitsAreSpacedByPortBandwidth) {
  FakeNext next(30);
  CacheGeometry g = small_geometry();
  g.line_bytes = 128;
  g.size_bytes = 4 * g.ways * g.line_bytes;
  g.bytes_per_clock = 64;
  g.hit_latency_cycles = 1;
  Cache cache(g, next, group_);
  cache.access(0x0, 128, 0);  // warm the line

  const uint64_t occupancy = ceil_div(128, g.bytes_per_clock);
  ASSERT_EQ(occupancy, 2u);
  const uint64_t t = 1000;
  const int n = 16;
  for (int i = 0; i < n; ++i) {
    const MemResponse r = cache.access(0x0, 128, t);  // all asked at the same cycle
    ASSERT_TRUE(r.hit);
    EXPECT_EQ(r.cycle, t + i * occupancy + std::max<uint64_t>(occupancy, g.hit_latency_cycles)) << "request " << i;
  }
  EXPECT_EQ(stat("hits"), static_cast<uint64_t>(n));
}

TEST_F(CacheTest, RequestOverlappingSeveralLinesTouchesEach) {
  const uint64_t next_latency = 40;
  FakeNext next(next_latency);
  const CacheGeometry g = small_geometry();  // 64-byte lines
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  const MemResponse aligned = cache.access(0x2000, 128, 0);
  ASSERT_EQ(next.calls.size(), 2u);
  EXPECT_EQ(next.calls[0].address, 0x2000u);
  EXPECT_EQ(next.calls[1].address, 0x2040u);
  EXPECT_EQ(aligned.cycle, hl + next_latency);
  EXPECT_EQ(stat("misses"), 2u);

  // 128 bytes not aligned to a line cover three lines.
  cache.access(0x3020, 128, 1000);
  ASSERT_EQ(next.calls.size(), 5u);
  EXPECT_EQ(next.calls[2].address, 0x3000u);
  EXPECT_EQ(next.calls[3].address, 0x3040u);
  EXPECT_EQ(next.calls[4].address, 0x3080u);

  // Only when every line hits is the request a hit.
  EXPECT_TRUE(cache.access(0x2000, 128, 2000).hit);
  EXPECT_FALSE(cache.access(0x2040, 128, 3000).hit);  // 0x2080 is new
}

TEST_F(CacheTest, RejectionBelowIsRetriedAtTheGivenCycle) {
  const uint64_t next_latency = 60;
  const uint64_t retry_delay = 7;
  FakeNext next(next_latency, /*rejections=*/2, retry_delay);
  const CacheGeometry g = small_geometry();
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  const MemResponse r = cache.access(0x0, 64, 0);
  ASSERT_TRUE(r.accepted);
  ASSERT_EQ(next.calls.size(), 3u);
  EXPECT_EQ(next.calls[0].cycle, hl);
  EXPECT_EQ(next.calls[1].cycle, hl + retry_delay);
  EXPECT_EQ(next.calls[2].cycle, hl + 2 * retry_delay);
  const uint64_t fill = hl + 2 * retry_delay + next_latency;
  EXPECT_EQ(r.cycle, fill);
  EXPECT_EQ(cache.mshrs_in_use(fill - 1), 1u);
  EXPECT_EQ(cache.mshrs_in_use(fill), 0u);
}

TEST_F(CacheTest, InvalidateDropsLinesFreesMshrsAndPortKeepsStats) {
  const uint64_t next_latency = 500;
  FakeNext next(next_latency);
  CacheGeometry g = small_geometry();
  g.bytes_per_clock = 16;
  Cache cache(g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  cache.access(0x0, 64, 0);  // port busy for 64/16 cycles, fill in flight
  EXPECT_EQ(cache.mshrs_in_use(1), 1u);
  cache.invalidate();
  EXPECT_EQ(cache.mshrs_in_use(1), 0u);

  const MemResponse again = cache.access(0x0, 64, 0);
  EXPECT_FALSE(again.hit);  // the line is gone
  ASSERT_EQ(next.calls.size(), 2u);
  EXPECT_EQ(next.calls[1].cycle, 0 + hl);  // the port is free at 0 again
  EXPECT_EQ(next.invalidations, 0);         // the next level is its owner's business
  EXPECT_EQ(stat("misses"), 2u);            // stats untouched
}

TEST_F(CacheTest, ZeroByteRequestIsReadyAtOnce) {
  FakeNext next(10);
  Cache cache(small_geometry(), next, group_);
  const MemResponse r = cache.access(0x40, 0, 7);
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.cycle, 7u);
  EXPECT_TRUE(next.calls.empty());
  EXPECT_EQ(stat("hits") + stat("misses"), 0u);
}

// --- SlicedCache ---------------------------------------------------------

class SlicedCacheTest : public ::testing::Test {
 protected:
  sim::StatsRegistry registry_;
  sim::StatGroup group_{registry_, "l2"};
  uint64_t stat(uint32_t slice, const std::string& name) const {
    return registry_.value("l2.slice" + std::to_string(slice) + "." + name);
  }
};

TEST_F(SlicedCacheTest, RoutesByLineIndexModuloSlices) {
  FakeNext next(10);
  const CacheGeometry g = small_geometry();
  const uint32_t slices = 4;
  SlicedCache l2(slices, g, next, group_);
  for (uint64_t line = 0; line < 12; ++line) {
    EXPECT_EQ(l2.slice_of(line * g.line_bytes + 5), line % slices) << "line " << line;
  }
  l2.access(5 * g.line_bytes, 16, 0);  // line 5
  EXPECT_EQ(stat(5 % slices, "misses"), 1u);
  for (uint32_t s = 0; s < slices; ++s) {
    if (s != 5 % slices) {
      EXPECT_EQ(stat(s, "misses"), 0u);
    }
  }
}

TEST_F(SlicedCacheTest, RequestSpanningSlicesIsSplitAndReadyAtTheLatestPart) {
  const uint64_t next_latency = 50;
  FakeNext next(next_latency);
  const CacheGeometry g = small_geometry();  // 64-byte lines
  SlicedCache l2(2, g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  const MemResponse r = l2.access(0x0, 128, 0);
  ASSERT_TRUE(r.accepted);
  ASSERT_EQ(next.calls.size(), 2u);
  EXPECT_EQ(next.calls[0].address, 0x0u);
  EXPECT_EQ(next.calls[1].address, 0x40u);
  EXPECT_EQ(r.cycle, hl + next_latency);
  EXPECT_EQ(stat(0, "misses"), 1u);
  EXPECT_EQ(stat(1, "misses"), 1u);
  EXPECT_EQ(stat(0, "bytes"), 64u);
  EXPECT_EQ(stat(1, "bytes"), 64u);

  // Make slice 1 slower: its port is busy, so the part it serves is later.
  l2.access(0x40, 64, 1000);  // slice 1 hit
  const MemResponse both = l2.access(0x0, 128, 1000);
  EXPECT_TRUE(both.hit);
  const uint64_t occupancy = ceil_div(64, g.bytes_per_clock);
  EXPECT_EQ(both.cycle, 1000 + occupancy + std::max(hl, occupancy));

  // 128 bytes at 0x1020: lines 0x1000 and 0x1080 in slice 0 (32 + 32 bytes
  // of them), 0x1040 in slice 1 (64 bytes).
  l2.access(0x1020, 128, 2000);
  EXPECT_EQ(stat(0, "misses"), 1u + 2u);
  EXPECT_EQ(stat(1, "misses"), 1u + 1u);
  EXPECT_EQ(stat(0, "bytes"), 64u + 64u + 64u);
  EXPECT_EQ(stat(1, "bytes"), 64u + 64u + 64u + 64u);
}

TEST_F(SlicedCacheTest, EachSliceUsesAllItsSets) {
  FakeNext next(10);
  CacheGeometry g = small_geometry();
  g.ways = 1;
  g.size_bytes = 4 * g.line_bytes;  // 4 sets, direct mapped
  const uint32_t slices = 4;
  SlicedCache l2(slices, g, next, group_);
  // Slice 0 holds lines 0, 4, 8, 12: four lines for its four sets.
  const uint32_t sets = l2.slice(0).sets();
  for (int round = 0; round < 2; ++round) {
    for (uint64_t k = 0; k < sets; ++k) l2.access(k * slices * g.line_bytes, 64, 1000 * (round + 1) + k);
  }
  EXPECT_EQ(stat(0, "misses"), sets);
  EXPECT_EQ(stat(0, "hits"), sets);
  EXPECT_EQ(stat(0, "evictions"), 0u);
}

TEST_F(SlicedCacheTest, RejectedPartRejectsTheWholeRequest) {
  const uint64_t next_latency = 100;
  FakeNext next(next_latency);
  CacheGeometry g = small_geometry();
  g.mshrs = 1;
  SlicedCache l2(2, g, next, group_);
  const uint64_t hl = g.hit_latency_cycles;

  l2.access(0xc0, 64, 0);  // line 3: slice 1's only MSHR, busy until hl + latency
  // Lines 0 (slice 0, could) and 1 (slice 1, cannot).
  const MemResponse rejected = l2.access(0x0, 128, 1);
  EXPECT_FALSE(rejected.accepted);
  EXPECT_EQ(rejected.cycle, hl + next_latency);
  EXPECT_EQ(next.calls.size(), 1u);  // slice 0 sent nothing
  EXPECT_EQ(stat(0, "misses"), 0u);
  EXPECT_EQ(stat(0, "bytes"), 0u);
  EXPECT_EQ(stat(1, "mshr_full"), 1u);
  EXPECT_EQ(l2.slice(0).mshrs_in_use(1), 0u);

  const MemResponse retried = l2.access(0x0, 128, rejected.cycle);
  ASSERT_TRUE(retried.accepted);
  EXPECT_EQ(next.calls.size(), 3u);
  EXPECT_EQ(retried.cycle, rejected.cycle + hl + next_latency);
}

TEST_F(SlicedCacheTest, InvalidateClearsEverySlice) {
  FakeNext next(10);
  const CacheGeometry g = small_geometry();
  SlicedCache l2(2, g, next, group_);
  l2.access(0x0, 128, 0);
  EXPECT_TRUE(l2.access(0x0, 128, 1000).hit);
  l2.invalidate();
  EXPECT_FALSE(l2.access(0x0, 64, 0).hit);
  EXPECT_FALSE(l2.access(0x40, 64, 0).hit);
  EXPECT_EQ(next.calls.size(), 4u);
}

TEST_F(SlicedCacheTest, ZeroSlicesRejected) {
  FakeNext next(10);
  EXPECT_THROW(SlicedCache(0, small_geometry(), next, group_), std::invalid_argument);
}

}  // namespace
}  // namespace td::mem

// --- Misses as events: shared levels serve in arrival order -------------

namespace td::mem {
namespace {

class RecordingClient final : public MemClient {
 public:
  std::map<uint64_t, uint64_t> ready;    // tag -> cycle
  std::map<uint64_t, uint64_t> retries;  // tag -> cycle
  void mem_ready(uint64_t tag, uint64_t cycle) override { ready[tag] = cycle; }
  void mem_retry(uint64_t tag, uint64_t cycle) override { retries[tag] = cycle; }
};

class OrderedMemory : public ::testing::Test {
 protected:
  sim::StatsRegistry stats_;
  EventQueue events_;
  RecordingClient client_;
};

TEST_F(OrderedMemory, ASharedLevelServesMissesInArrivalOrderNotTheOrderTheyWereMade) {
  FakeNext dram(100);
  CacheGeometry l1_geometry = small_geometry();
  l1_geometry.hit_latency_cycles = 5;
  l1_geometry.bytes_per_clock = 1;  // one 64-byte line keeps the port busy 64 clocks
  Cache l1(l1_geometry, dram, sim::StatGroup(stats_, "l1"), &events_);
  CacheGeometry slow = small_geometry(), fast = small_geometry();
  slow.hit_latency_cycles = 300;
  fast.hit_latency_cycles = 1;
  Cache l0_slow(slow, l1, sim::StatGroup(stats_, "a.l0"), &events_);
  Cache l0_fast(fast, l1, sim::StatGroup(stats_, "b.l0"), &events_);

  // Made first, but reaches L1 at cycle 300; made second, reaches it at 11.
  EXPECT_TRUE(l0_slow.access(0x1000, 64, 0, &client_, 1).pending);
  EXPECT_TRUE(l0_fast.access(0x2000, 64, 10, &client_, 2).pending);
  events_.run_until(10'000);
  ASSERT_EQ(dram.calls.size(), 2u);
  EXPECT_EQ(dram.calls[0].address, 0x2000u) << "the miss that arrived first is served first";
  // The fast miss is not held behind the slow one's reservations: L1 at 11,
  // its lookup (5), DRAM (100); its 64-byte transfer (64 clocks from 11) is
  // over by then.
  const uint64_t fast_fill = 11 + 5 + 100;
  EXPECT_EQ(client_.ready.at(2), std::max<uint64_t>(fast_fill, 11 + 64));
  EXPECT_GT(client_.ready.at(1), client_.ready.at(2));
}

TEST_F(OrderedMemory, ARefusedRequesterIsToldWhenAnMshrFrees) {
  FakeNext dram(100);
  CacheGeometry g = small_geometry();
  g.mshrs = 1;
  Cache l1(g, dram, sim::StatGroup(stats_, "l1"), &events_);
  EXPECT_TRUE(l1.access(0x1000, 64, 0, &client_, 1).pending);
  // The only MSHR's fill is not known yet: the second requester waits to be told.
  const MemResponse refused = l1.access(0x2000, 64, 1, &client_, 2);
  EXPECT_FALSE(refused.accepted);
  EXPECT_EQ(refused.cycle, kRetryWhenTold);
  events_.run_until(10'000);
  const uint64_t first_fill = 0 + g.hit_latency_cycles + 100;
  EXPECT_EQ(client_.ready.at(1), first_fill);
  ASSERT_EQ(client_.retries.count(2), 1u);
  EXPECT_EQ(client_.retries.at(2), first_fill);  // when the MSHR frees
  // Retrying then (with its tag) it gets the MSHR held for it.
  const MemResponse again = l1.access(0x2000, 64, first_fill, &client_, 2);
  ASSERT_TRUE(again.accepted);
  events_.run_until(20'000);
  EXPECT_EQ(client_.ready.at(2), first_fill + g.hit_latency_cycles + 100);
}

TEST_F(OrderedMemory, AnMshrHeldForOneRequesterIsNotTakenByAnother) {
  FakeNext dram(100);
  CacheGeometry g = small_geometry();
  g.mshrs = 1;
  Cache l1(g, dram, sim::StatGroup(stats_, "l1"), &events_);
  l1.access(0x1000, 64, 0, &client_, 1);
  events_.run_until(g.hit_latency_cycles);  // the miss reached DRAM: its fill, hl + 100, is known
  const uint64_t release = g.hit_latency_cycles + 100;
  const MemResponse told = l1.access(0x2000, 64, 2, &client_, 2);
  ASSERT_FALSE(told.accepted);
  EXPECT_EQ(told.cycle, release);  // and the MSHR is held for tag 2
  EXPECT_FALSE(l1.access(0x3000, 64, release, &client_, 3).accepted) << "held for another requester";
  EXPECT_TRUE(l1.access(0x2000, 64, release, &client_, 2).accepted);
}

}  // namespace
}  // namespace td::mem

namespace td::mem {
namespace {

// A told requester that is then served without an MSHR (its lines arrived
// meanwhile) must pass the release on: every waiter is served in the end.
// (Review repro: waiters needing two MSHRs, some of them served by merges.)
TEST_F(OrderedMemory, EveryWaitingRequesterIsServedEvenWhenOthersNeedNoMshr) {
  FakeNext dram(100);
  CacheGeometry g = small_geometry();  // 64-byte lines
  g.mshrs = 2;
  Cache l1(g, dram, sim::StatGroup(stats_, "l1"), &events_);
  l1.access(0x000, 128, 0, &client_, 100);                                   // both MSHRs
  for (uint64_t t = 1; t <= 4; ++t) l1.access(0x080, 128, 1, &client_, t);  // lines 2, 3: wait
  l1.access(0x100, 128, 1, &client_, 5);                                     // lines 4, 5: wait
  // Every told requester retries at the cycle it was told.
  for (uint64_t c = 1; c < 20'000; ++c) {
    events_.run_until(c);
    for (auto it = client_.retries.begin(); it != client_.retries.end();) {
      if (it->second != c) {
        ++it;
        continue;
      }
      const uint64_t tag = it->first;
      it = client_.retries.erase(it);
      const MemResponse r = l1.access(tag == 5 ? 0x100 : 0x080, 128, c, &client_, tag);
      if (r.accepted && !r.pending) client_.ready[tag] = r.cycle;
    }
  }
  for (uint64_t tag = 1; tag <= 5; ++tag) EXPECT_EQ(client_.ready.count(tag), 1u) << "requester " << tag;
  EXPECT_EQ(l1.mshrs_in_use(20'000), 0u);
}

}  // namespace
}  // namespace td::mem

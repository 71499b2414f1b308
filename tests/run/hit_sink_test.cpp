// HitSink: rays delivered out of order come out in ray order where order is
// kept (hits file, on_ray), are taken as they come where it is not, with the
// same totals; a ray delivered twice or never is a logic error either way.
#include "tb/run/hit_sink.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace td::run {
namespace {

TracedRay ray(uint64_t index) {
  TracedRay traced;
  traced.index = index;
  traced.hit.hit = index % 3 != 0;
  traced.hit.t = traced.hit.hit ? 1.5f + static_cast<float>(index) : traced.hit.t;
  traced.hit.primitive = traced.hit.hit ? static_cast<uint32_t>(index * 7) : 0xffffffffu;
  traced.counters.box_steps = static_cast<uint32_t>(index + 2);
  traced.counters.triangle_steps = 1;
  traced.counters.max_stack = static_cast<uint32_t>(index % 5);
  return traced;
}

const std::vector<uint64_t> kArrivals = {3, 0, 5, 1, 2, 7, 4, 6};

TEST(HitSink, OnRaySeesRaysInOrderAndTheCountSeesEachDelivery) {
  HitSink sink;
  std::vector<uint64_t> order, counts;
  sink.on_ray([&](const TracedRay& traced) { order.push_back(traced.index); });
  sink.on_count([&](uint64_t delivered) { counts.push_back(delivered); });
  for (uint64_t index : kArrivals) sink.deliver(ray(index));
  sink.commit();
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(counts, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(sink.delivered(), 8u);
}

TEST(HitSink, HitsFileIsInRayOrder) {
  const std::string path = (std::filesystem::temp_directory_path() / "tdsim-hit-sink-test.csv").string();
  HitSink sink;
  sink.write_hits_to(path);
  for (uint64_t index : kArrivals) sink.deliver(ray(index));
  sink.commit();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string expected = std::string(kHitsCsvHeader) + "\n";
  for (uint64_t index = 0; index < 8; ++index) expected += format_hit_line(index, ray(index).hit);
  EXPECT_EQ(text.str(), expected);
  std::filesystem::remove(path);
}

TEST(HitSink, TotalsAreTheSameWithAndWithoutOrder) {
  HitSink ordered, unordered;
  ordered.on_ray([](const TracedRay&) {});
  for (uint64_t index : kArrivals) {
    ordered.deliver(ray(index));
    unordered.deliver(ray(index));
  }
  ordered.commit();
  unordered.commit();
  const traversal::TraceTotals& a = ordered.totals();
  const traversal::TraceTotals& b = unordered.totals();
  EXPECT_EQ(b.rays, 8u);
  EXPECT_EQ(b.hits, 5u);
  EXPECT_EQ(b.box_steps, 2u * 8 + 28);
  EXPECT_EQ(b.max_stack, 4u);
  EXPECT_EQ(std::tie(a.rays, a.hits, a.box_steps, a.triangle_steps, a.max_stack),
            std::tie(b.rays, b.hits, b.box_steps, b.triangle_steps, b.max_stack));
}

TEST(HitSink, ARayDeliveredTwiceIsALogicErrorWithOrOrWithoutOrder) {
  for (const bool keep_order : {true, false}) {
    SCOPED_TRACE(keep_order);
    HitSink sink;
    if (keep_order) sink.on_ray([](const TracedRay&) {});
    sink.deliver(ray(2));
    sink.deliver(ray(0));
    EXPECT_THROW(sink.deliver(ray(2)), std::logic_error);
    EXPECT_THROW(sink.deliver(ray(0)), std::logic_error);
  }
}

TEST(HitSink, ARayThatNeverArrivedIsALogicErrorAtCommitWithOrOrWithoutOrder) {
  for (const bool keep_order : {true, false}) {
    SCOPED_TRACE(keep_order);
    HitSink sink;
    if (keep_order) sink.on_ray([](const TracedRay&) {});
    sink.deliver(ray(0));
    sink.deliver(ray(2));
    EXPECT_THROW(sink.commit(), std::logic_error);
  }
  HitSink none;
  EXPECT_NO_THROW(none.commit());
}

}  // namespace
}  // namespace td::run

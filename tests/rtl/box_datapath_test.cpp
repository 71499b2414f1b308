// td_box_datapath under Verilator against the golden reference: random
// FP32 and FP16 nodes and rays (inverted, NaN and empty boxes, zero and -0
// directions, every box_grow from 0 to 255), one lane a clock, each result
// out exactly Latency clocks later; and every box-node case of the public
// conformance and edge vector files, through the reference's sorting
// network, against the files' expected dwords.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "tests/rtl/rtl_test_support.h"
#include "model/isa/fp32.h"
#include "model/isa/node.h"
#include "model/ref/box_test.h"
#include "model/ref/intersect.h"
#include "tb/vectors/tdv.h"

namespace {

using rtl_test::Rng;

using td::bits_of;
using td::float_of;

constexpr uint32_t kLatency = TDSIM_RTL_BOX_LATENCY;  // as built (rtl/CMakeLists.txt)

// One lane for the unit: the node's bytes and the ray.
struct BoxLane {
  std::array<uint8_t, 128> node{};
  bool fp16 = false;
  td::Ray ray;
  uint32_t grow = 0;
};

// The clocked unit, one cycle at a time.
class BoxUnit {
 public:
  // Drives `lane` (or nothing) for one clock; returns whether a result came out.
  bool cycle(const BoxLane* lane) {
    unit_.io().in_valid_i = lane != nullptr;
    if (lane) td::rtl::drive_box(unit_.io(), lane->node.data(), 128, lane->fp16, lane->ray, lane->grow);
    unit_.clock();
    return unit_.io().out_valid_o;
  }
  bool hit(int i) const { return (unit_.io().out_hit_o >> i) & 1u; }
  uint32_t key(int i) const { return unit_.io().out_key_o[i]; }
  uint32_t child(int i) const { return unit_.io().out_child_o[i]; }

 private:
  td::rtl::VerilatedUnit<Vtd_box_datapath> unit_;
};

td::BoxNode decode(const BoxLane& lane) {
  return lane.fp16 ? td::decode_box16(lane.node.data()) : td::decode_box32(lane.node.data());
}

BoxLane random_lane(Rng& rng) {
  BoxLane lane;
  lane.fp16 = rng.below(2) == 0;
  td::BoxNode node;
  for (int i = 0; i < 4; ++i) {
    node.child[i] = rng.below(8) == 0 ? td::kInvalidChild : static_cast<uint32_t>(rng.next());
    for (int a = 0; a < 3; ++a) {
      float lo = rng.uniform(-8, 8), hi = rng.uniform(-8, 8);
      if (rng.below(4) != 0 && lo > hi) std::swap(lo, hi);  // mostly proper boxes, some inverted
      node.box[i].min[a] = lo;
      node.box[i].max[a] = hi;
    }
    if (rng.below(32) == 0) node.box[i].max[rng.below(3)] = std::nanf("");
    if (rng.below(64) == 0) node.box[i].min[rng.below(3)] = -INFINITY;
  }
  if (lane.fp16)
    td::encode_box16(node, lane.node.data());
  else
    td::encode_box32(node, lane.node.data());
  for (int a = 0; a < 3; ++a) {
    lane.ray.origin[a] = rng.uniform(-10, 10);
    float d = rng.uniform(-1, 1);
    switch (rng.below(16)) {
      case 0: d = 0.0f; break;
      case 1: d = -0.0f; break;
      case 2: d = 1e-30f; break;
      default: break;
    }
    lane.ray.dir[a] = d;
    lane.ray.inv_dir[a] = 1.0f / d;
  }
  lane.ray.extent = rng.below(8) == 0 ? INFINITY : rng.uniform(0, 30);
  lane.grow = rng.below(4) == 0 ? rng.below(256) : rng.below(3);
  return lane;
}

TEST(RtlBoxDatapath, MatchesTheReferenceOneLaneAClockAfterItsLatency) {
  BoxUnit unit;
  Rng rng{11};
  rtl_test::stream_lanes<BoxLane>(unit, rng, 200000, kLatency, random_lane, [&](const BoxLane& lane, int index) {
    const td::BoxNode node = decode(lane);
    const td::ref::BoxTestResult expected = td::ref::box_test(lane.ray, node, lane.grow);
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(unit.child(i), node.child[i]) << "lane " << index << " box " << i;
      ASSERT_EQ(unit.hit(i), expected.hit[i]) << "lane " << index << " box " << i;
      if (expected.hit[i]) {
        ASSERT_EQ(unit.key(i), bits_of(expected.key[i])) << "lane " << index << " box " << i;
      }
    }
  });
}

TEST(RtlBoxDatapath, PassesEveryBoxCaseOfThePublicVectors) {
  int box_cases = 0;
  for (const char* file : {"conformance-v1.tdv", "edge-v1.tdv"}) {
    td::tb::TdvReader reader(std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/" + file);
    td::tb::TdvCase c;
    while (reader.next(c)) {
      const td::Descriptor descriptor = td::Descriptor::unpack(c.desc);
      const td::ref::LanePlan plan = td::ref::plan_lane(descriptor, c.lane);
      if (plan.outcome != td::LaneOutcome::kBoxNode || !c.expect) continue;
      BoxLane lane;
      lane.fp16 = plan.type == td::NodeType::kBox16;
      std::copy(c.mem.begin(), c.mem.end(), lane.node.begin());
      lane.ray = plan.ray;
      lane.grow = descriptor.box_grow_ulps;
      BoxUnit unit;
      bool out = unit.cycle(&lane);
      for (uint32_t k = 1; k < kLatency; ++k) out = unit.cycle(nullptr);
      ASSERT_TRUE(out) << c.name;
      td::ref::BoxTestResult tests;
      std::array<uint32_t, 4> child{};
      for (int i = 0; i < 4; ++i) {
        tests.hit[i] = unit.hit(i);
        tests.key[i] = float_of(unit.key(i));
        child[i] = unit.child(i);
      }
      EXPECT_EQ(td::ref::box_result(child, tests, descriptor.box_sort), *c.expect) << file << ": " << c.name;
      ++box_cases;
    }
  }
  EXPECT_GT(box_cases, 100);
}

}  // namespace

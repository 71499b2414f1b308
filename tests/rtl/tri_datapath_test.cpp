// td_tri_datapath under Verilator against the golden reference: random
// triangle nodes and rays aimed at them (hits, misses, grazing edges, both
// windings, every t, both return modes, every remap source), one lane a
// clock with gaps, each result out exactly Latency clocks later; and every
// triangle case of the public conformance and edge vector files against
// the files' expected dwords.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>

#include "tests/rtl/rtl_test_support.h"
#include "model/isa/fp32.h"
#include "model/isa/node.h"
#include "model/ref/intersect.h"
#include "model/ref/triangle_test.h"
#include "tb/vectors/tdv.h"

namespace {

using rtl_test::Rng;

using td::bits_of;

constexpr uint32_t kLatency = TDSIM_RTL_TRIANGLE_LATENCY;  // as built (rtl/CMakeLists.txt)

struct TriLane {
  std::array<uint8_t, 64> node{};
  uint32_t t = 0;
  uint32_t return_mode = 1;
  td::Ray ray;
};

class TriUnit {
 public:
  bool cycle(const TriLane* lane) {
    unit_.io().in_valid_i = lane != nullptr;
    if (lane) td::rtl::drive_triangle(unit_.io(), lane->node.data(), lane->t, lane->return_mode, lane->ray);
    unit_.clock();
    return unit_.io().out_valid_o;
  }
  std::array<uint32_t, 4> dwords() const { return td::rtl::triangle_dwords(unit_.io()); }

 private:
  td::rtl::VerilatedUnit<Vtd_tri_datapath> unit_;
};

std::array<uint32_t, 4> expected(const TriLane& lane) {
  const td::TriangleNode node = td::decode_triangle(lane.node.data());
  return td::ref::triangle_result(node, lane.t, lane.return_mode, td::ref::triangle_node_test(lane.ray, node, lane.t));
}

TriLane random_lane(Rng& rng) {
  TriLane lane;
  td::TriangleNode node;
  for (auto& v : node.vertex)
    for (float& c : v) c = rng.uniform(-4, 4);
  node.id = static_cast<uint32_t>(rng.next());
  td::encode_triangle(node, lane.node.data());
  lane.t = rng.below(4);
  lane.return_mode = rng.below(2);
  // Aim at a point of the plane near the triangle (inside about half the time).
  static constexpr std::array<std::array<int, 3>, 4> kAbc = {{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}, {2, 4, 0}}};
  const auto& abc = kAbc[lane.t];
  const float u = rng.uniform(-0.3f, 1.0f), v = rng.uniform(-0.3f, 1.0f - u);
  td::Vec3 target;
  for (int a = 0; a < 3; ++a)
    target[a] = node.vertex[abc[0]][a] + u * (node.vertex[abc[1]][a] - node.vertex[abc[0]][a]) +
                v * (node.vertex[abc[2]][a] - node.vertex[abc[0]][a]);
  for (int a = 0; a < 3; ++a) lane.ray.origin[a] = rng.uniform(-10, 10);
  for (int a = 0; a < 3; ++a) {
    float d = target[a] - lane.ray.origin[a];
    if (rng.below(16) == 0) d = rng.below(2) ? 0.0f : -0.0f;  // axis-parallel rays
    lane.ray.dir[a] = d;
    lane.ray.inv_dir[a] = 1.0f / d;
  }
  lane.ray.extent = rng.below(4) == 0 ? rng.uniform(0, 1.5f) : INFINITY;
  return lane;
}

TEST(RtlTriDatapath, MatchesTheReferenceOneLaneAClockAfterItsLatency) {
  TriUnit unit;
  Rng rng{23};
  constexpr int kLanes = 200000;
  int hits = 0;
  rtl_test::stream_lanes<TriLane>(unit, rng, kLanes, kLatency, random_lane, [&](const TriLane& lane, int index) {
    const std::array<uint32_t, 4> want = expected(lane);
    ASSERT_EQ(unit.dwords(), want) << "lane " << index;
    hits += want[0] != td::kPlusInfBits;
  });
  EXPECT_GT(hits, kLanes / 5);  // the rays are aimed: many hit, many miss
  EXPECT_LT(hits, kLanes * 4 / 5);
}

TEST(RtlTriDatapath, PassesEveryTriangleCaseOfThePublicVectors) {
  int cases = 0;
  for (const char* file : {"conformance-v1.tdv", "edge-v1.tdv"}) {
    td::tb::TdvReader reader(std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/" + file);
    td::tb::TdvCase c;
    while (reader.next(c)) {
      const td::Descriptor descriptor = td::Descriptor::unpack(c.desc);
      const td::ref::LanePlan plan = td::ref::plan_lane(descriptor, c.lane);
      if (plan.outcome != td::LaneOutcome::kTriangle || !c.expect) continue;
      TriLane lane;
      std::copy(c.mem.begin(), c.mem.end(), lane.node.begin());
      lane.t = static_cast<uint32_t>(plan.type);
      lane.return_mode = descriptor.return_mode;
      lane.ray = plan.ray;
      TriUnit unit;
      bool out = unit.cycle(&lane);
      for (uint32_t k = 1; k < kLatency; ++k) out = unit.cycle(nullptr);
      ASSERT_TRUE(out) << c.name;
      EXPECT_EQ(unit.dwords(), *c.expect) << file << ": " << c.name;
      ++cases;
    }
  }
  EXPECT_GT(cases, 100);
}

}  // namespace

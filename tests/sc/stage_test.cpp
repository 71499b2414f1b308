// The TD's stages one at a time, around fakes: the wave buffer, node fetch
// (out-of-order fills, a full return buffer, an L0 that refuses), the
// fixed-latency datapath stages and write-back (in-order return with the
// return latency). Each test elaborates its own modules (its own process).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <cstring>
#include <string>
#include <vector>

#include "model/ref/box_test.h"
#include "model/ref/triangle_test.h"
#include "model/sim/stats.h"
#include "model/td/box_stage.h"
#include "model/chip/datapaths.h"
#include "model/td/datapath_factory.h"
#include "model/td/node_fetch.h"
#include "model/td/sort_stage.h"
#include "model/td/tri_stage.h"
#include "model/td/wave_buffer.h"
#include "model/td/write_back.h"
#include "tests/sc/chip_harness.h"

namespace td::timing {
namespace {

// Answers each address with a ready cycle chosen by the test; refuses
// (MSHRs full) until `refuse_until`.
class FakeL0 : public mem::MemLevel {
 public:
  std::map<uint64_t, uint64_t> latency;  // address -> cycles
  uint64_t refuse_until = 0;
  std::vector<uint64_t> requested_at;
  mem::MemResponse access(uint64_t address, uint32_t, uint64_t cycle, mem::MemClient*, uint64_t,
                          mem::Traffic) override {
    if (cycle < refuse_until) return {false, refuse_until, false};
    requested_at.push_back(cycle);
    return {true, cycle + latency.at(address), false};
  }
  void invalidate() override {}
};

class RecordingClient : public WaveClient {
 public:
  std::vector<WaveResult> returned;
  bool next_wave(uint32_t, uint64_t, WaveInstr&, uint64_t&) override { return false; }
  bool wave_completed(uint32_t, WaveResult& result) override {
    returned.push_back(std::move(result));
    return true;
  }
};

// A wave of `lanes` box lanes on nodes at units 2*k (k = lane).
WaveInstr box_wave(uint32_t lanes, uint64_t id) {
  WaveInstr instr;
  instr.id = id;
  instr.descriptor = test::Harness::descriptor();
  for (uint32_t l = 0; l < lanes; ++l)
    instr.lanes.push_back(LaneInput::from_ray(test::test_ray(l), NodePtr::make(2 * l, NodeType::kBox32).raw));
  return instr;
}

struct Fixture {
  sim::StatsRegistry registry;
  TdStats stats{sim::StatGroup(registry, "td"), false};
};

TEST(WaveBuffer, PlansLanesAndRetiresInOrderAcrossWrapAround) {
  WaveBuffer buffer(2);
  uint64_t retired_id = 0;
  for (uint64_t id = 1; id <= 5; ++id) {
    WaveInstr instr = box_wave(4, id);
    instr.lanes[1].exec = false;
    const uint32_t slot = buffer.accept(instr, id);
    buffer.plan(slot, instr);
    EXPECT_EQ(buffer.slot(slot).lanes_to_write, 3u);
    EXPECT_EQ(buffer.slot(slot).routes[1].outcome, LaneOutcome::kInactive);
    EXPECT_EQ(buffer.slot(slot).routes[0].outcome, LaneOutcome::kBoxNode);
    EXPECT_TRUE(buffer.has_unsequenced());
    buffer.slot(slot).next_lane = 4;
    buffer.advance_sequencing();
    if (buffer.full()) {
      EXPECT_EQ(buffer.oldest().id, retired_id + 1);
      retired_id = buffer.oldest().id;
      buffer.retire_oldest();
    }
  }
  EXPECT_EQ(retired_id, 4u);
  EXPECT_EQ(buffer.count(), 1u);
  EXPECT_FALSE(buffer.has_unsequenced());
}

TEST(WaveBuffer, PlanKeepsEachLanesRouteAndTheFetchingLanesRays) {
  WaveInstr instr = box_wave(4, 1);
  instr.lanes[1].exec = false;                                           // inactive: no route, no ray
  instr.lanes[2].node_ptr = NodePtr::make(2, NodeType::kReserved6).raw;  // written, no fetch
  WaveBuffer buffer(1);
  const uint32_t slot = buffer.accept(instr, 0);
  buffer.slot(slot).results.assign(4, LaneResult::all_ones(LaneOutcome::kBoxNode));  // an earlier instruction's
  buffer.plan(slot, instr);
  const WaveSlot& s = buffer.slot(slot);
  EXPECT_EQ(s.lanes_to_write, 3u);
  EXPECT_EQ(s.active_mask, 0b1101u);
  ASSERT_EQ(s.results.size(), 4u);  // cleared for write-back
  for (const LaneResult& r : s.results) EXPECT_FALSE(r.written);
  for (uint32_t lane = 0; lane < 4; ++lane) {
    const ref::LanePlan expected = ref::plan_lane(instr.descriptor, instr.lanes[lane]);
    EXPECT_EQ(s.routes[lane].outcome, expected.outcome) << lane;
    EXPECT_EQ(s.routes[lane].needs_fetch(), expected.needs_fetch()) << lane;
    if (!expected.needs_fetch()) continue;
    EXPECT_EQ(s.routes[lane].address, expected.address) << lane;
    EXPECT_EQ(s.routes[lane].bytes, expected.bytes) << lane;
    EXPECT_EQ(s.routes[lane].type, expected.type) << lane;
    EXPECT_EQ(std::memcmp(&s.rays[lane], &expected.ray, sizeof(Ray)), 0) << lane;
  }
}

// What the sequencer hands the node fetch for lane `lane` of slot `slot`.
FetchJob fetch_job(const WaveBuffer& waves, uint32_t slot, uint32_t lane) {
  const LaneRoute& route = waves.slot(slot).routes[lane];
  return FetchJob::of(LaneJob{slot, lane}, route.address, route.bytes, route.type);
}

TEST(NodeFetch, FillsReturnInReadyOrderNotRequestOrder) {
  Fixture f;
  WaveBuffer waves(1);
  const WaveInstr slot_instr = box_wave(3, 1);
  const uint32_t slot = waves.accept(slot_instr, 0);
  waves.plan(slot, slot_instr);
  sim::Channel<FetchJob> in(4);
  FakeL0 l0;
  // Lane 0 misses long, lane 1 short, lane 2 in between.
  for (uint32_t l = 0; l < 3; ++l) l0.latency[waves.slot(slot).routes[l].address] = std::vector<uint64_t>{50, 5, 20}[l];
  NodeFetch fetch("node_fetch", 8, in, l0, f.stats, nullptr);
  for (uint32_t l = 0; l < 3; ++l) in.push(fetch_job(waves, slot, l), l);
  std::vector<uint32_t> order;
  for (uint64_t cycle = 1; cycle < 100 && order.size() < 3; ++cycle) {
    fetch.tick(cycle);
    if (fetch.has_ready(cycle)) order.push_back(fetch.take().lane);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_EQ(l0.requested_at, (std::vector<uint64_t>{1, 2, 3}));  // one request a clock
}

TEST(NodeFetch, FullReturnBufferAndRefusingL0Stall) {
  Fixture f;
  WaveBuffer waves(1);
  const WaveInstr slot_instr = box_wave(3, 1);
  const uint32_t slot = waves.accept(slot_instr, 0);
  waves.plan(slot, slot_instr);
  sim::Channel<FetchJob> in(4);
  FakeL0 l0;
  for (uint32_t l = 0; l < 3; ++l) l0.latency[waves.slot(slot).routes[l].address] = 10;
  l0.refuse_until = 4;
  NodeFetch fetch("node_fetch", 1, in, l0, f.stats, nullptr);
  for (uint32_t l = 0; l < 3; ++l) in.push(fetch_job(waves, slot, l), 0);
  for (uint64_t cycle = 1; cycle <= 3; ++cycle) fetch.tick(cycle);
  EXPECT_EQ(f.stats.stall(Stall::kL0MshrsFull).value(), 3u);  // refused at 1, then waits for 4
  EXPECT_TRUE(l0.requested_at.empty());
  fetch.tick(4);
  EXPECT_EQ(l0.requested_at, (std::vector<uint64_t>{4}));
  fetch.tick(5);  // one entry, taken: the next lane waits
  EXPECT_EQ(f.stats.stall(Stall::kReturnBufferFull).value(), 1u);
  EXPECT_TRUE(fetch.buffer_full());
  EXPECT_FALSE(fetch.has_ready(13));
  EXPECT_TRUE(fetch.has_ready(14));
}

// The same test for every datapath implementation (MatchLib's way: one
// testbench, the C++ model or the RTL). The RTL's latencies are its own.
class DatapathStages : public ::testing::TestWithParam<std::string> {};

TEST_P(DatapathStages, DeliverAfterTheirLatencyWithTheReferenceResult) {
  const DatapathFactory& implementation = chip::datapath_factory(GetParam());
  const bool rtl = GetParam() == "rtl";
  uint32_t box_latency = 5, sort_latency = 2, tri_latency = 7;
#if TDSIM_HAVE_RTL
  if (rtl) {  // the RTL's own
    box_latency = TDSIM_RTL_BOX_LATENCY;
    sort_latency = TDSIM_RTL_SORT_LATENCY;
    tri_latency = TDSIM_RTL_TRIANGLE_LATENCY;
  }
#endif
  test::Harness h(test::small_config());  // for the node bytes
  h.write_nodes(1);
  WaveBuffer waves(1);
  WaveInstr instr = box_wave(1, 1);
  instr.lanes.push_back(LaneInput::from_ray(test::test_ray(1), NodePtr::make(test::Harness::tri_unit(0), NodeType::kTriangle2).raw));
  instr.lanes[0].node_ptr = NodePtr::make(test::Harness::box32_unit(0), NodeType::kBox32).raw;
  const uint32_t slot = waves.accept(instr, 0);
  waves.plan(slot, instr);
  const WaveSlot& s = waves.slot(slot);
  // What reaches write-back, with its cycle.
  struct Recorder final : LaneSink<LaneDone> {
    std::vector<std::pair<LaneDone, uint64_t>> got;
    void deliver(const LaneDone& done, uint64_t cycle) override { got.emplace_back(done, cycle); }
  } sorted, triangles;
  SortStage sort("sort_stage", sort_latency, sorted, implementation.sort);
  BoxStage box("box_stage", box_latency, sort, implementation.box);
  TriStage tri("tri_stage", tri_latency, triangles, implementation.triangle);
  NodeBytes scratch;
  box.accept(LaneJob{slot, 0}, s.routes[0].type, s.rays[0], h.memory.view(s.routes[0].address, 128, scratch.data()),
             s.descriptor, 100);
  tri.accept(LaneJob{slot, 1}, s.routes[1].type, s.rays[1], h.memory.view(s.routes[1].address, 64, scratch.data()),
             s.descriptor, 100);
  // The C++ datapath hands its results over at once, stamped; the RTL's
  // come out when due.
  EXPECT_EQ(box.in_flight(), rtl ? 1u : 0u);
  EXPECT_EQ(box.next_output_cycle(), rtl ? 100 + box_latency : UINT64_MAX);
  const uint64_t box_out = 100 + box_latency, sort_out = box_out + sort_latency, tri_out = 100 + tri_latency;
  for (uint64_t cycle = 101; cycle <= std::max(sort_out, tri_out); ++cycle) {
    box.clock(cycle);
    tri.clock(cycle);
    sort.clock(cycle);
    sort.tick(cycle);
    if (rtl) {  // handed over as they come out
      EXPECT_EQ(sorted.got.size(), cycle >= sort_out ? 1u : 0u) << cycle;
      EXPECT_EQ(triangles.got.size(), cycle >= tri_out ? 1u : 0u) << cycle;
    }
  }
  ASSERT_EQ(sorted.got.size(), 1u);
  ASSERT_EQ(triangles.got.size(), 1u);
  EXPECT_EQ(sorted.got[0].second, sort_out);
  EXPECT_EQ(triangles.got[0].second, tri_out);
  EXPECT_EQ(box.in_flight() + sort.in_flight() + tri.in_flight(), 0u);
  EXPECT_TRUE(sorted.got[0].first.result.same_value(ref::intersect(s.descriptor, instr.lanes[0], h.memory)));
  EXPECT_TRUE(triangles.got[0].first.result.same_value(ref::intersect(s.descriptor, instr.lanes[1], h.memory)));
}

std::vector<std::string> datapath_names() {
  std::vector<std::string> names;
  for (const DatapathFactory& factory : chip::datapath_factories()) names.push_back(factory.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryImplementation, DatapathStages, ::testing::ValuesIn(datapath_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

// Takes `instr` into `waves`, plans it and passes every lane through the
// sequencer: what write-back sees once the lanes are on their way.
uint32_t accept_sequenced(WaveBuffer& waves, const WaveInstr& instr) {
  const uint32_t slot = waves.accept(instr, 0);
  waves.plan(slot, instr);
  waves.slot(slot).next_lane = static_cast<uint32_t>(instr.lanes.size());
  waves.advance_sequencing();
  return slot;
}

TEST(WriteBack, ReturnsInAcceptanceOrderAfterTheReturnLatency) {
  Fixture f;
  RecordingClient client;
  WaveBuffer waves(2);
  const uint32_t first = accept_sequenced(waves, box_wave(1, 1));
  const uint32_t second = accept_sequenced(waves, box_wave(1, 2));
  sim::Channel<LaneDone> no_fetch(2);
  const uint32_t kReturnLatency = 3;
  WriteBack write_back("write_back", 0, kReturnLatency, waves, no_fetch, client, f.stats);
  write_back.tri_port().deliver(LaneDone{second, 0, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 11);  // the younger one first
  for (uint64_t cycle = 11; cycle < 20; ++cycle) write_back.tick(cycle);
  EXPECT_TRUE(client.returned.empty()) << "the younger instruction may not overtake";
  write_back.sort_port().deliver(LaneDone{first, 0, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 21);
  for (uint64_t cycle = 21; cycle < 21 + kReturnLatency; ++cycle) write_back.tick(cycle);
  EXPECT_TRUE(client.returned.empty());
  write_back.tick(21 + kReturnLatency);
  ASSERT_EQ(client.returned.size(), 2u);
  EXPECT_EQ(client.returned[0].id, 1u);
  EXPECT_EQ(client.returned[1].id, 2u);
  EXPECT_EQ(client.returned[0].complete_cycle, 21u + kReturnLatency);
}

TEST(WriteBack, LanesHandedOverAheadCompleteAfterTheLatestOne) {
  // A C++ datapath hands a lane's result over as the lane enters, for the
  // cycle it reaches write-back: a box lane issued first may land after a
  // triangle lane issued later. The instruction completes the return
  // latency after the latest lane, whichever port it came by.
  Fixture f;
  RecordingClient client;
  WaveBuffer waves(1);
  const uint32_t slot = accept_sequenced(waves, box_wave(3, 7));
  sim::Channel<LaneDone> no_fetch(2);
  const uint32_t kReturnLatency = 4;
  WriteBack write_back("write_back", 0, kReturnLatency, waves, no_fetch, client, f.stats);
  write_back.sort_port().deliver(LaneDone{slot, 0, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 30);
  write_back.tri_port().deliver(LaneDone{slot, 1, LaneResult::all_ones(LaneOutcome::kDescriptorFault)}, 25);
  EXPECT_EQ(write_back.next_retire_cycle(), UINT64_MAX) << "a lane is still to be written";
  no_fetch.push(LaneDone{slot, 2, LaneResult::all_ones(LaneOutcome::kReservedType)}, 20);  // written at 21
  write_back.tick(21);
  EXPECT_EQ(write_back.lanes_written(), 1u);
  EXPECT_EQ(write_back.next_retire_cycle(), 30u + kReturnLatency);
  for (uint64_t cycle = 22; cycle < 30 + kReturnLatency; ++cycle) write_back.tick(cycle);
  EXPECT_TRUE(client.returned.empty());
  write_back.tick(30 + kReturnLatency);
  ASSERT_EQ(client.returned.size(), 1u);
  EXPECT_EQ(client.returned[0].complete_cycle, 30u + kReturnLatency);
  EXPECT_EQ(client.returned[0].lanes[0].outcome, LaneOutcome::kOutOfBounds);
  EXPECT_EQ(client.returned[0].lanes[1].outcome, LaneOutcome::kDescriptorFault);
  EXPECT_EQ(client.returned[0].lanes[2].outcome, LaneOutcome::kReservedType);
}

TEST(WriteBack, APortTakesOneLaneAClockInIncreasingCycles) {
  // What makes a result handed over ahead exact: nothing ever waits for a
  // port. Two lanes for one clock on a port are a model error.
  Fixture f;
  RecordingClient client;
  WaveBuffer waves(1);
  const uint32_t slot = accept_sequenced(waves, box_wave(3, 7));
  sim::Channel<LaneDone> no_fetch(2);
  WriteBack write_back("write_back", 0, 1, waves, no_fetch, client, f.stats);
  write_back.sort_port().deliver(LaneDone{slot, 0, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 30);
  write_back.tri_port().deliver(LaneDone{slot, 1, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 30);  // another port
  EXPECT_THROW(write_back.sort_port().deliver(LaneDone{slot, 2, LaneResult::all_ones(LaneOutcome::kOutOfBounds)}, 30),
               std::logic_error);
}

TEST(WriteBack, LooksAtTheWaveBufferAgainWhenAnInstructionIsAccepted) {
  // With nothing in flight write-back stops reading the wave buffer; the
  // TD's accept says when to start again. (An instruction with an active
  // lane would also be found when the lane lands; one whose lanes are all
  // inactive lands nothing.)
  Fixture f;
  RecordingClient client;
  WaveBuffer waves(1);
  sim::Channel<LaneDone> no_fetch(2);
  const uint32_t kReturnLatency = 2;
  WriteBack write_back("write_back", 0, kReturnLatency, waves, no_fetch, client, f.stats);
  for (uint64_t cycle = 1; cycle <= 5; ++cycle) write_back.tick(cycle);
  WaveInstr inactive = box_wave(2, 9);
  for (LaneInput& lane : inactive.lanes) lane.exec = false;
  const uint32_t slot = waves.accept(inactive, 6);
  waves.plan(slot, inactive);
  write_back.instruction_accepted();
  write_back.tick(6);
  EXPECT_TRUE(client.returned.empty()) << "not sequenced yet";
  waves.slot(slot).next_lane = 2;  // the sequencer passes both lanes at 7
  waves.slot(slot).sequenced_cycle = 7;
  waves.advance_sequencing();
  for (uint64_t cycle = 7; cycle < 7 + kReturnLatency; ++cycle) write_back.tick(cycle);
  EXPECT_TRUE(client.returned.empty());
  write_back.tick(7 + kReturnLatency);
  ASSERT_EQ(client.returned.size(), 1u);
  EXPECT_EQ(client.returned[0].id, 9u);
  EXPECT_EQ(client.returned[0].complete_cycle, 7u + kReturnLatency);
}

}  // namespace
}  // namespace td::timing

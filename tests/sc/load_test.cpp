// Vector memory loads through the TD: mixed with intersects in one stream,
// through the sequencer, node fetch and L0 like node fetches, back in order
// with the bytes of the memory. In every test the scoreboard checks each
// lane against the golden reference (ref::load for a load's) and each load
// lane is also compared with the memory's bytes read here.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/sim/vcd_writer.h"
#include "tb/regress/golden_stats.h"
#include "tests/sc/chip_harness.h"

namespace td::test {
namespace {

constexpr uint32_t kLoadLines = 64;  // 4 KiB of load data: more than a small L0 holds

// A statistic as the run's report gives it (formulas too); "" when the
// report has none of that name.
std::string reported(const sim::StatsRegistry& stats, const std::string& name) {
  for (const tb::Statistic& s : tb::read_stats_csv(stats.to_csv(), "stats"))
    if (s.name == name) return s.value;
  return "";
}

// What one issued stream is made of, to compare with the TD's counters.
struct Issued {
  double loads = 0, load_active_lanes = 0, load_bytes = 0, load_lanes = 0;
  double intersect_lanes = 0, instructions = 0;
};

// Alternates intersects (mixed_wave: every lane a box or triangle node) and
// loads over the first `lines` units, wave32 and wave64, over TDs 0 and 1.
Issued push_mixed(Harness& h, uint32_t count, uint32_t seed_step, uint32_t lines = kLoadLines) {
  Issued issued;
  for (uint32_t w = 0; w < count; ++w) {
    const uint32_t lanes = w % 3 == 1 ? 32 : 64;
    WaveInstr instr = w % 2 ? load_wave(lanes, w * seed_step, lines) : mixed_wave(lanes, w * seed_step, 64);
    if (instr.kind == InstrKind::kLoad) {
      ++issued.loads;
      issued.load_lanes += lanes;
      for (const LaneInput& lane : instr.lanes)
        if (lane.exec) {
          ++issued.load_active_lanes;
          issued.load_bytes += lane.load_bytes();
        }
    } else {
      issued.intersect_lanes += lanes;
    }
    ++issued.instructions;
    h.feeder.push(w % 2 == 0 ? w / 2 % 2 : (w / 2 + 1) % 2, std::move(instr));
  }
  return issued;
}

// Watches what comes back: per TD in issue order, each load lane as the
// memory's bytes say (inactive lanes writing nothing).
struct Watch {
  std::map<uint32_t, uint64_t> last_id;
  bool in_order = true;
  uint64_t load_lanes_seen = 0, load_lanes_wrong = 0, inactive_lanes_written = 0;
  std::vector<uint64_t> load_latencies;

  void attach(Harness& h) {
    h.feeder.set_completion([this, &h](uint32_t td, const WaveInstr& instr, const WaveResult& r) {
      in_order = in_order && instr.id > last_id[td];
      last_id[td] = instr.id;
      if (instr.kind != InstrKind::kLoad) return;
      load_latencies.push_back(r.complete_cycle - r.accept_cycle);
      for (size_t l = 0; l < instr.lanes.size() && l < r.lanes.size(); ++l) {
        ++load_lanes_seen;
        if (!instr.lanes[l].exec && r.lanes[l].written) ++inactive_lanes_written;
        const LaneResult expected = expected_load(h.memory, instr.lanes[l]);
        if (!r.lanes[l].same_value(expected) || (expected.written && r.lanes[l].outcome != LaneOutcome::kLoad)) {
          ++load_lanes_wrong;
          ADD_FAILURE() << "wave " << instr.id << " lane " << l << ": " << std::hex << r.lanes[l].dwords[0]
                        << " for " << expected.dwords[0];
        }
      }
    });
  }
};

void expect_all_returned_correctly(Harness& h, uint64_t waves) {
  EXPECT_EQ(h.feeder.waves_completed(), waves);
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  for (const std::string& line : h.feeder.scoreboard().reports()) ADD_FAILURE() << line;
}

// The counters a stream of `issued` must leave: loads counted apart, and
// not as box or triangle work.
void expect_counted(const Harness& h, const Issued& issued) {
  EXPECT_EQ(h.td_stat("waves"), issued.instructions);
  EXPECT_EQ(h.td_stat("loads"), issued.loads);
  EXPECT_EQ(h.td_stat("load_lanes"), issued.load_active_lanes);
  EXPECT_EQ(h.td_stat("load_bytes"), issued.load_bytes);
  EXPECT_EQ(h.td_stat("box_nodes") + h.td_stat("tri_tests"), issued.intersect_lanes);
  EXPECT_EQ(h.td_stat("busy_cycles"), issued.intersect_lanes);
  EXPECT_EQ(h.td_stat("active_lanes"), issued.intersect_lanes + issued.load_active_lanes);
  EXPECT_EQ(h.td_stat("inactive_lanes"), issued.load_lanes - issued.load_active_lanes);
  EXPECT_EQ(std::stod(reported(h.stats, "chip.load_lanes")), issued.load_active_lanes);
  EXPECT_EQ(std::stod(reported(h.stats, "chip.loads")), issued.loads);
}

void run_mixed_stream(const cfg::Config& config, uint32_t count, uint32_t seed_step, uint32_t refuse_percent = 0) {
  Harness h(config, nullptr, true);
  h.write_nodes(64);
  h.write_load_data(kLoadLines);
  if (refuse_percent) h.feeder.refuse_results(refuse_percent, seed_step);
  Watch watch;
  watch.attach(h);
  const Issued issued = push_mixed(h, count, seed_step);
  h.run();
  expect_all_returned_correctly(h, count);
  EXPECT_TRUE(watch.in_order);
  EXPECT_EQ(static_cast<double>(watch.load_lanes_seen), issued.load_lanes);
  EXPECT_EQ(static_cast<double>(h.feeder.scoreboard().load_lanes_checked()), issued.load_lanes);
  EXPECT_EQ(watch.load_lanes_wrong, 0u);
  EXPECT_EQ(watch.inactive_lanes_written, 0u);
  expect_counted(h, issued);
  if (refuse_percent) {
    EXPECT_GT(h.feeder.results_refused(), 0u);
    EXPECT_EQ(h.td_stat("stall_cycles.result_refused"), static_cast<double>(h.feeder.results_refused()));
  }
}

TEST(Load, MixedWithIntersectsOnWave32AndWave64ReturnsTheMemoryInIssueOrder) {
  run_mixed_stream(small_config(), 24, 5);
}

TEST(Load, UnderRefusedResultsIsHeldInOrderAndOfferedAgain) { run_mixed_stream(small_config(), 24, 7, 33); }

TEST(Load, ThroughFewMshrsAndAOneEntryReturnBufferNeitherDeadlocksNorLosesLanes) {
  cfg::Config config = small_config();
  config.l0.mshrs = 1;
  config.td.return_buffer_entries = 1;
  config.td.fetch_queue_depth = 1;
  run_mixed_stream(config, 12, 3);
}

// Four lanes on four lines no cache holds yet, then the same four again:
// the first misses to DRAM, the second hits L0 and is faster, and no
// faster than an L0 hit allows.
TEST(Load, ASecondLoadOfTheSameLinesHitsL0AndAMissToDramTakesLonger) {
  const cfg::Config config = small_config();
  Harness h(config, nullptr, true);
  h.write_load_data(kLoadLines);
  Watch watch;
  watch.attach(h);
  WaveInstr instr = load_wave(32, 0, kLoadLines);
  for (uint32_t l = 0; l < 32; ++l) instr.lanes[l] = LaneInput::load(Harness::kLoadBase + 256 * l, 1 + l % 4, l < 4);
  h.feeder.push(0, instr);
  h.run();
  // Each level counts the loads' line accesses apart: all four missed L0,
  // L1 and L2. The TD waited for nothing but them.
  EXPECT_EQ(h.td_stat("l0.load_hits"), 0);
  EXPECT_EQ(h.td_stat("l0.load_misses"), 4);
  EXPECT_EQ(h.td_stat("l0.misses"), 4);
  EXPECT_EQ(h.stats.value("chip.sa0.l1.load_misses"), 4u);
  EXPECT_EQ(h.stats.value("chip.sa0.l1.load_hits"), 0u);
  double l2_load_misses = 0;
  for (uint32_t s = 0; s < config.l2.slices; ++s)
    l2_load_misses += static_cast<double>(h.stats.value("chip.l2.slice" + std::to_string(s) + ".load_misses"));
  EXPECT_EQ(l2_load_misses, 4);
  EXPECT_GT(h.td_stat("stall_cycles.waiting_loads"), 0);
  EXPECT_EQ(h.td_stat("stall_cycles.waiting_loads"), h.td_stat("stall_cycles.waiting_memory"));
  const double dram_requests = static_cast<double>(h.stats.value("chip.dram.requests"));
  EXPECT_GT(dram_requests, 0);
  h.feeder.push(0, instr);
  h.run();
  EXPECT_EQ(h.td_stat("l0.load_hits"), 4);
  EXPECT_EQ(h.td_stat("l0.load_misses"), 4);
  EXPECT_EQ(h.td_stat("l0.misses"), 4);
  EXPECT_EQ(h.stats.value("chip.sa0.l1.load_misses"), 4u);  // the hits went no further
  EXPECT_EQ(static_cast<double>(h.stats.value("chip.dram.requests")), dram_requests);
  ASSERT_EQ(watch.load_latencies.size(), 2u);
  // Sequenced a clock after acceptance, fetched after the fetch queue's
  // clock, an L0 hit, the load port's clock, the return latency.
  EXPECT_GE(watch.load_latencies[1], config.l0.hit_latency_cycles + config.td.return_latency_cycles);
  EXPECT_GT(watch.load_latencies[0], watch.load_latencies[1] + config.l1.hit_latency_cycles);
  expect_all_returned_correctly(h, 2);
  EXPECT_EQ(watch.load_lanes_wrong, 0u);
}

TEST(Load, TakesNoDatapathClockAndCountsInItsOwnStats) {
  Harness h(small_config(), nullptr, true);
  h.write_load_data(kLoadLines);
  Issued issued;
  for (uint32_t w = 0; w < 6; ++w) {
    WaveInstr instr = load_wave(w % 2 ? 32 : 64, w * 11, kLoadLines);
    ++issued.loads;
    ++issued.instructions;
    issued.load_lanes += static_cast<double>(instr.lanes.size());
    for (const LaneInput& lane : instr.lanes)
      if (lane.exec) {
        ++issued.load_active_lanes;
        issued.load_bytes += lane.load_bytes();
      }
    h.feeder.push(w % 4, std::move(instr));
  }
  h.run();
  expect_all_returned_correctly(h, 6);
  expect_counted(h, issued);
  EXPECT_EQ(h.td_stat("busy_cycles"), 0);
  EXPECT_EQ(h.td_stat("box_tests"), 0);
  EXPECT_EQ(h.td_stat("tri_tests"), 0);
  // One L0 request a lane, each inside one line: one line access each.
  EXPECT_EQ(h.td_stat("l0.hits") + h.td_stat("l0.misses"), issued.load_active_lanes);
  // Only loads: every line access is a load's, and every wait is for loads.
  EXPECT_EQ(h.td_stat("l0.load_hits"), h.td_stat("l0.hits"));
  EXPECT_EQ(h.td_stat("l0.load_misses"), h.td_stat("l0.misses"));
  EXPECT_GT(h.td_stat("l0.load_hits"), 0);
  EXPECT_EQ(h.td_stat("stall_cycles.waiting_loads"), h.td_stat("stall_cycles.waiting_memory"));
}

TEST(Load, CountersExistOnlyWhereTheClientIssuesLoads) {
  Harness h(small_config());
  h.write_nodes(8);
  h.feeder.push(0, mixed_wave(32, 0, 8));
  h.run();
  expect_all_returned_correctly(h, 1);
  const std::string td = h.chip->td(0).name();
  EXPECT_THROW(h.stats.value(td + ".loads"), std::out_of_range);
  EXPECT_THROW(h.stats.value(td + ".load_lanes"), std::out_of_range);
  EXPECT_EQ(reported(h.stats, "chip.load_lanes"), "");
  EXPECT_EQ(reported(h.stats, "chip.stall_cycles.waiting_loads"), "");
  EXPECT_THROW(h.stats.value(td + ".l0.load_hits"), std::out_of_range);
  EXPECT_THROW(h.stats.value("chip.sa0.l1.load_misses"), std::out_of_range);
  EXPECT_NE(reported(h.stats, "chip.waves"), "");
  // And such a feeder refuses a load.
  EXPECT_THROW(h.feeder.push(0, load_wave(32, 0, kLoadLines)), std::invalid_argument);
}

TEST(Load, AFeederRefusesALoadThatCrossesItsUnit) {
  Harness h(small_config(), nullptr, true);
  WaveInstr instr = load_wave(32, 0, kLoadLines);
  instr.lanes[5] = LaneInput::load(Harness::kLoadBase + 60, 2);  // bytes 60..67
  EXPECT_THROW(h.feeder.push(0, instr), std::invalid_argument);
  instr.lanes[5] = LaneInput::load(Harness::kLoadBase + 60, 2, false);  // EXEC off: its operands are not read
  EXPECT_NO_THROW(h.feeder.push(0, instr));
  instr.lanes[5] = LaneInput::load(Harness::kLoadBase, 5);
  EXPECT_THROW(h.feeder.push(0, instr), std::invalid_argument);
}

// A client that hands the TD one instruction as it is, unchecked.
class OneInstruction : public timing::WaveClient {
 public:
  OneInstruction(WaveInstr instr, bool issues_loads) : instr_(std::move(instr)), issues_loads_(issues_loads) {}
  bool issues_loads() const override { return issues_loads_; }
  bool next_wave(uint32_t td, uint64_t, WaveInstr& out, uint64_t&) override {
    if (td != 0 || issued_) return false;
    issued_ = true;
    out = instr_;
    return true;
  }
  bool wave_completed(uint32_t, WaveResult&) override { return true; }

 private:
  WaveInstr instr_;
  bool issues_loads_;
  bool issued_ = false;
};

void expect_td_refuses(const WaveInstr& instr, bool issues_loads, const std::string& message) {
  OneInstruction client(instr, issues_loads);
  Harness h(small_config(), &client);
  h.chip->wake_all();
  try {
    (void)h.chip->run_until_idle([] { return false; }, 1000);
    ADD_FAILURE() << "the TD took the load";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("chip.wgp0.td0"), std::string::npos) << e.what();
  }
}

TEST(Load, ATdRefusesALoadThatCrossesItsUnit) {
  WaveInstr instr = load_wave(32, 0, kLoadLines);
  instr.id = 9;
  instr.lanes[5] = LaneInput::load(Harness::kLoadBase + 62, 1);
  expect_td_refuses(instr, true, "wave 9 lane 5: load of 4 bytes at 0x400003e crosses a 64-byte unit");
}

TEST(Load, ATdRefusesALoadFromAClientThatSaidItIssuesNone) {
  WaveInstr instr = load_wave(32, 0, kLoadLines);
  instr.id = 4;
  expect_td_refuses(instr, false, "wave 4 is a load, but the wave client said it issues none");
}

// Runs the same mixed stream from cold caches on one chip, first as it is,
// then changed by `change` (traced, on threads): each instruction's latency
// and the counters must come out the same.
void expect_same_as_untraced_single_thread(const std::function<void(Harness&)>& change) {
  Harness h(small_config(), nullptr, true);
  h.write_nodes(64);
  h.write_load_data(kLoadLines);
  std::vector<uint64_t> latencies;
  h.feeder.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
    latencies.push_back(r.complete_cycle - r.accept_cycle);
  });
  const std::vector<std::string> counters = {"loads",         "load_lanes",     "load_bytes",
                                             "l0.load_hits",  "l0.load_misses", "stall_cycles.waiting_loads",
                                             "box_nodes",     "tri_tests",      "busy_cycles",
                                             "active_lanes",  "stall_cycles.issue_port_busy",
                                             "stall_cycles.waiting_memory", "l0.hits", "l0.misses"};
  std::vector<double> first;
  for (int run = 0; run < 2; ++run) {
    if (run == 1) change(h);
    h.chip->invalidate_caches();
    push_mixed(h, 16, 5, 4);  // four units, two L0 lines: loads hit too
    h.run();
    std::vector<double> now;
    for (const std::string& c : counters) now.push_back(h.td_stat(c));
    if (run == 0) {
      first = now;
      EXPECT_GT(h.td_stat("l0.load_hits"), 0);
    } else {
      for (size_t i = 0; i < counters.size(); ++i) EXPECT_EQ(now[i], 2 * first[i]) << counters[i];
    }
  }
  ASSERT_EQ(latencies.size(), 32u);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(latencies[i], latencies[16 + i]) << "instruction " << i;
  expect_all_returned_correctly(h, 32);
}

TEST(Load, TracedRunGivesTheSameLatenciesAndCounters) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / "load_test_trace.vcd").string();
  sim::VcdWriter vcd(path, 1000);
  expect_same_as_untraced_single_thread([&](Harness& h) { h.chip->attach_trace(vcd); });
  vcd.close();
  EXPECT_GT(std::filesystem::file_size(path), 0u);
  std::filesystem::remove(path);
}

TEST(Load, OnTwoThreadsGivesTheSameLatenciesAndCounters) {
  expect_same_as_untraced_single_thread([](Harness& h) { h.chip->set_threads(2); });
}

}  // namespace
}  // namespace td::test

#if TDSIM_HAVE_RTL
namespace td::test {
namespace {

// The Verilated datapaths: loads pass them by, intersects go through them.
TEST(Load, WithRtlDatapathsMixedWithIntersectsReturnsTheMemoryInIssueOrder) {
  run_mixed_stream(small_rtl_config(), 24, 5, 20);
}

}  // namespace
}  // namespace td::test
#endif

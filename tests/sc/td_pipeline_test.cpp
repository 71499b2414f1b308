// The TD pipeline under the conditions that break pipelines: back-pressure
// from memory and from a full return buffer, wave32 and wave64, all-inactive
// instructions, mixed node types in one instruction. In every test the
// scoreboard checks each lane against the golden reference and the feeder
// proves each instruction came back exactly once.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tests/sc/chip_harness.h"

namespace td::test {
namespace {


// Every instruction came back once, in order per TD, every lane right.
void expect_all_returned_correctly(Harness& h, uint64_t waves) {
  EXPECT_EQ(h.feeder.waves_completed(), waves);
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  for (const std::string& line : h.feeder.scoreboard().reports()) ADD_FAILURE() << line;
}

TEST(TdPipeline, MixedBoxAndTriangleLanesInOneInstruction) {
  Harness h(small_config());
  h.write_nodes(64);
  for (uint32_t w = 0; w < 8; ++w) h.feeder.push(w % h.config.td_count(), mixed_wave(64, w * 5, 64));
  h.run();
  expect_all_returned_correctly(h, 8);
  EXPECT_EQ(h.feeder.scoreboard().lanes_checked(), 8u * 64u);
  EXPECT_GT(h.td_stat("box_nodes"), 0);
  EXPECT_GT(h.td_stat("tri_tests"), 0);
  EXPECT_EQ(h.td_stat("box_nodes") + h.td_stat("tri_tests"), 8.0 * 64.0);
}

TEST(TdPipeline, Wave32AndWave64Interleaved) {
  Harness h(small_config());
  h.write_nodes(32);
  for (uint32_t w = 0; w < 12; ++w) h.feeder.push(0, mixed_wave(w % 2 ? 32 : 64, w, 32));
  h.run();
  expect_all_returned_correctly(h, 12);
  EXPECT_EQ(h.feeder.scoreboard().lanes_checked(), 6u * 32u + 6u * 64u);
}

TEST(TdPipeline, InstructionsReturnInAcceptanceOrderPerTd) {
  Harness h(small_config());
  h.write_nodes(64);
  std::map<uint32_t, uint64_t> last_id;
  bool in_order = true;
  h.feeder.set_completion([&](uint32_t td, const WaveInstr& instr, const WaveResult&) {
    in_order = in_order && instr.id > last_id[td];
    last_id[td] = instr.id;
  });
  // Alternate cheap (all-inactive) and expensive instructions on one TD: the
  // cheap ones finish first inside the TD but must not overtake.
  for (uint32_t w = 0; w < 10; ++w) {
    WaveInstr instr = mixed_wave(64, w, 64);
    if (w % 2) for (LaneInput& lane : instr.lanes) lane.exec = false;
    h.feeder.push(0, std::move(instr));
  }
  h.run();
  expect_all_returned_correctly(h, 10);
  EXPECT_TRUE(in_order);
}

TEST(TdPipeline, AllInactiveInstructionCostsNoDatapathCycle) {
  Harness h(small_config());
  h.write_nodes(4);
  uint64_t returned_lanes_written = 0;
  h.feeder.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
    for (const LaneResult& lane : r.lanes) returned_lanes_written += lane.written;
  });
  for (uint32_t w = 0; w < 5; ++w) {
    WaveInstr instr = mixed_wave(64, w, 4);
    for (uint32_t l = 0; l < 64; ++l) {
      // EXEC off, NaN operand, infinite origin: every way of being inactive.
      if (l % 3 == 0) instr.lanes[l].exec = false;
      if (l % 3 == 1) instr.lanes[l].ray_dwords[5] = 0x7fc00000u;
      if (l % 3 == 2) instr.lanes[l].ray_dwords[2] = 0xff800000u;
    }
    h.feeder.push(0, std::move(instr));
  }
  h.run();
  expect_all_returned_correctly(h, 5);
  EXPECT_EQ(returned_lanes_written, 0u);
  EXPECT_EQ(h.td_stat("busy_cycles"), 0);
  EXPECT_EQ(h.td_stat("inactive_lanes"), 5.0 * 64.0);
  EXPECT_EQ(h.td_stat("l0.hits") + h.td_stat("l0.misses"), 0) << "inactive lanes must fetch nothing";
}

TEST(TdPipeline, FaultsAndOutOfBoundsTakeNoFetch) {
  Harness h(small_config());
  h.write_nodes(8);
  WaveInstr bad_descriptor = mixed_wave(64, 0, 8);
  bad_descriptor.descriptor.type = 7;
  h.feeder.push(0, std::move(bad_descriptor));
  WaveInstr out_of_bounds = mixed_wave(64, 1, 8);
  out_of_bounds.descriptor.size_units = 16;  // every node lies past it
  h.feeder.push(1, std::move(out_of_bounds));
  h.run();
  expect_all_returned_correctly(h, 2);
  EXPECT_EQ(h.td_stat("descriptor_faults"), 64);
  EXPECT_EQ(h.td_stat("out_of_bounds"), 64);
  EXPECT_EQ(h.td_stat("l0.hits") + h.td_stat("l0.misses"), 0);
}

TEST(TdPipeline, FullReturnBufferBackPressuresWithoutLoss) {
  cfg::Config config = small_config();
  config.td.return_buffer_entries = 1;
  config.td.fetch_queue_depth = 1;
  Harness h(config);
  h.write_nodes(16);
  for (uint32_t w = 0; w < 6; ++w) h.feeder.push(w % 2, mixed_wave(64, w * 3, 16));
  h.run();
  expect_all_returned_correctly(h, 6);
  EXPECT_GT(h.td_stat("stall_cycles.return_buffer_full"), 0);
  // One lane in flight: each lane waits a whole L0 hit, so the datapath runs
  // at most once per hit latency.
  const double lanes = 6.0 * 64.0;
  EXPECT_GE(static_cast<double>(h.feeder.last_complete_cycle()),
            lanes / 2.0 * static_cast<double>(config.l0.hit_latency_cycles));
}

TEST(TdPipeline, MemoryStallsWhenMshrsRunOutWithoutLoss) {
  cfg::Config config = small_config();
  config.l0.mshrs = 1;
  config.l1.mshrs = 1;
  Harness h(config);
  h.write_nodes(256);  // far more distinct lines than one MSHR covers
  for (uint32_t w = 0; w < 8; ++w) h.feeder.push(w % config.td_count(), mixed_wave(64, w * 64, 256));
  h.run();
  expect_all_returned_correctly(h, 8);
  EXPECT_GT(h.td_stat("stall_cycles.l0_mshrs_full"), 0);
  EXPECT_GT(h.td_stat("l0.misses"), 0);
}

TEST(TdPipeline, InactiveLanesBeforeTheOnlyActiveOneCostNothing) {
  // One active lane at index 0, then one at index 63 behind 63 inactive
  // ones: the same latency, from the same warm L0.
  Harness h(small_config());
  h.write_nodes(1);
  std::vector<uint64_t> latency;
  h.feeder.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
    latency.push_back(r.complete_cycle - r.accept_cycle);
  });
  for (uint32_t active : {0u, 0u, 63u}) {  // the first run warms the L0
    WaveInstr instr = mixed_wave(64, 0, 1);
    for (uint32_t l = 0; l < 64; ++l) {
      instr.lanes[l].node_ptr = NodePtr::make(Harness::box32_unit(0), NodeType::kBox32).raw;
      instr.lanes[l].exec = l == active;
    }
    h.feeder.push(0, std::move(instr));
    h.run();
  }
  ASSERT_EQ(latency.size(), 3u);
  EXPECT_EQ(latency[2], latency[1]);
  expect_all_returned_correctly(h, 3);
}

TEST(TdPipeline, AllInactiveInstructionReturnsAfterTheReturnLatencyOnly) {
  cfg::Config config = small_config();
  config.td.return_latency_cycles = 50;
  Harness h(config);
  h.write_nodes(1);
  uint64_t latency = 0;
  h.feeder.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
    latency = r.complete_cycle - r.accept_cycle;
  });
  WaveInstr instr = mixed_wave(64, 0, 1);
  for (LaneInput& lane : instr.lanes) lane.exec = false;
  h.feeder.push(0, std::move(instr));
  h.run();
  // Accepted, passed over by the sequencer the next clock, back after the
  // return latency: nothing else in between.
  EXPECT_EQ(latency, 1u + config.td.return_latency_cycles);
}

TEST(TdPipeline, ClientMayIssueFromItsCompletionHandler) {
  // A traversal shader issues its next step when a result returns; the TD,
  // which found nothing to do in between, must take it.
  Harness h(small_config());
  h.write_nodes(8);
  int issued = 1;
  h.feeder.set_completion([&](uint32_t td, const WaveInstr&, const WaveResult&) {
    if (issued < 5) {
      h.feeder.push(td, mixed_wave(32, static_cast<uint32_t>(issued), 8));
      ++issued;
    }
  });
  h.feeder.push(1, mixed_wave(32, 0, 8));
  h.run();
  expect_all_returned_correctly(h, 5);
}

TEST(TdPipeline, MixedLineSizesAndFewMshrsNeitherDeadlockNorLoseLanes) {
  // L0 lines larger than L1's, L1's larger than L2's, slices with one MSHR:
  // fills split across lines and slices, requesters wait to be told.
  cfg::Config config = small_config();
  config.l1.line_bytes = 64;
  config.l1.mshrs = 2;
  config.l2.slice.line_bytes = 32;
  config.l2.slice.mshrs = 1;
  config.l0.mshrs = 2;
  Harness h(config);
  h.write_nodes(256);
  for (uint32_t w = 0; w < 16; ++w) h.feeder.push(w % config.td_count(), mixed_wave(64, w * 17, 256));
  h.run();
  expect_all_returned_correctly(h, 16);
  EXPECT_GT(h.td_stat("stall_cycles.l0_mshrs_full"), 0);
}

TEST(TdPipeline, SameInputsGiveTheSameCyclesAndResults) {
  // Two chips cannot be elaborated in one process; run the same program twice
  // on one chip from cold caches and compare what it measured.
  Harness h(small_config());
  h.write_nodes(64);
  std::vector<uint64_t> latencies;
  h.feeder.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
    latencies.push_back(r.complete_cycle - r.accept_cycle);
  });
  for (int run = 0; run < 2; ++run) {
    h.chip->invalidate_caches();
    for (uint32_t w = 0; w < 8; ++w) h.feeder.push(w % h.config.td_count(), mixed_wave(64, w, 64));
    h.run();
  }
  ASSERT_EQ(latencies.size(), 16u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(latencies[i], latencies[8 + i]) << "instruction " << i;
}

}  // namespace
}  // namespace td::test

namespace td::test {
namespace {

// Back-pressure on results (MatchLib's stall-injecting sink): the wave
// refuses its results on a third of the clocks they are offered. Every
// instruction still returns once, in acceptance order, with the reference's
// results, and the refused clocks are counted.
void expect_refused_results_held_in_order(const cfg::Config& config, uint64_t refusal_seed, uint32_t wave_seed_step) {
  Harness h(config);
  h.write_nodes(64);
  h.feeder.refuse_results(33, refusal_seed);
  std::map<uint32_t, uint64_t> last_id;
  bool in_order = true;
  h.feeder.set_completion([&](uint32_t td, const WaveInstr& instr, const WaveResult&) {
    in_order = in_order && instr.id > last_id[td];
    last_id[td] = instr.id;
  });
  for (uint32_t w = 0; w < 24; ++w) h.feeder.push(w % 2, mixed_wave(w % 3 ? 64 : 32, w * wave_seed_step, 64));
  h.run();
  expect_all_returned_correctly(h, 24);
  EXPECT_TRUE(in_order);
  EXPECT_GT(h.feeder.results_refused(), 0u);
  EXPECT_EQ(h.td_stat("stall_cycles.result_refused"), static_cast<double>(h.feeder.results_refused()));
  EXPECT_GT(h.td_stat("box_nodes"), 0);
  EXPECT_GT(h.td_stat("tri_tests"), 0);
}

TEST(TdPipeline, RefusedResultsAreHeldInOrderAndOfferedAgain) {
  expect_refused_results_held_in_order(small_config(), 7, 3);
}

}  // namespace
}  // namespace td::test

#if TDSIM_HAVE_RTL
namespace td::test {
namespace {

// The same stall injection on a chip whose datapaths are the Verilated
// units: lanes wait in the RTL pipelines while results are refused and the
// small return buffer fills, and everything still returns right, in order.
TEST(TdPipeline, RtlDatapathsUnderRefusedResultsReturnInOrderAndRight) {
  expect_refused_results_held_in_order(small_rtl_config(), 11, 5);
}

}  // namespace
}  // namespace td::test
#endif

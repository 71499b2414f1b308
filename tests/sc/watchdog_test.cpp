// The no-progress watchdog of Chip::run_until_idle: a run that keeps moving
// finishes however slowly it moves (DRAM at its minimum bandwidth, one fill
// longer than the quiet limit), a run that is really stuck stops with a
// report of what waits on what, and an interrupt stops a run between chunks.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>

#include "model/sim/interrupt.h"
#include "tb/microbench/microbench.h"
#include "tests/sc/chip_harness.h"

namespace td::test {
namespace {

cfg::Config with_slowest_dram(cfg::Config c) {
  c.dram.bandwidth_gb_per_s = 0.001;  // the documented minimum
  return c;
}

// One FP32 box node per lane: nodes first .. first + lanes - 1.
WaveInstr box32_wave(uint32_t first, uint32_t lanes) {
  WaveInstr instr;
  instr.descriptor = Harness::descriptor();
  for (uint32_t l = 0; l < lanes; ++l)
    instr.lanes.push_back(
        LaneInput::from_ray(test_ray(l), NodePtr::make(Harness::box32_unit(first + l), NodeType::kBox32).raw));
  return instr;
}

// Cycles one 128-byte line takes on one DRAM channel of `c`.
double line_cycles_per_channel(const cfg::Config& c) {
  const double bytes_per_clock = c.dram.bandwidth_gb_per_s * 1e9 / (c.chip.clock_mhz * 1e6) / c.dram.channels;
  return 128.0 / bytes_per_clock;
}

double wall_seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every TD streams 64 FP32 nodes from DRAM at 0.001 GB/s: no instruction
// comes back for far longer than the quiet limit (the old watchdog, which
// counted returns only, called this a deadlock), but lines arrive all along.
TEST(Watchdog, SlowDramRunThatKeepsMovingFinishes) {
  Harness h(with_slowest_dram(small_config()));
  h.write_nodes(64 * 4);
  for (uint32_t t = 0; t < h.config.td_count(); ++t) h.feeder.push(t, box32_wave(64 * t, 64));
  constexpr uint64_t kQuiet = 2'000'000;
  ASSERT_GT(line_cycles_per_channel(h.config), 100'000.0);
  const auto start = std::chrono::steady_clock::now();
  h.run(kQuiet);
  EXPECT_LT(wall_seconds_since(start), 10.0);
  EXPECT_EQ(h.feeder.waves_completed(), h.config.td_count());
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  uint64_t first_return = UINT64_MAX;
  for (const auto& r : h.feeder.completions()) first_return = std::min(first_return, r.cycle);
  EXPECT_GT(first_return, kQuiet);  // no instruction returned within the quiet limit
}

// A single fill that takes longer than the quiet limit is progress when it
// lands: its cycle is known as soon as DRAM takes the request.
TEST(Watchdog, OneFillLongerThanTheQuietLimitIsNotADeadlock) {
  Harness h(with_slowest_dram(small_config()));
  h.write_nodes(1);
  h.feeder.push(0, box32_wave(0, 1));
  constexpr uint64_t kQuiet = 100'000;
  ASSERT_GT(line_cycles_per_channel(h.config), 2.0 * kQuiet);
  h.run(kQuiet);
  ASSERT_EQ(h.feeder.waves_completed(), 1u);
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  EXPECT_GT(h.feeder.last_complete_cycle() - h.feeder.first_accept_cycle(), kQuiet);
}

// Series X with DRAM at its minimum bandwidth: `tdsim peak` used to stop
// with "timing model deadlock" although lines kept arriving.
TEST(Watchdog, SeriesXPeakAtMinimumDramBandwidthFinishes) {
  const cfg::Config config =
      with_slowest_dram(cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/xbox_series_x.yaml"));
  tb::MicrobenchOptions options;
  options.waves_per_td = 2;
  options.bandwidth = false;
  sim::StatsRegistry stats;
  const auto start = std::chrono::steady_clock::now();
  tb::MicrobenchReport report;
  ASSERT_NO_THROW(report = tb::run_microbenchmarks(config, options, stats, nullptr));
  EXPECT_LT(wall_seconds_since(start), 15.0);
  EXPECT_EQ(report.mismatches, 0u);
  EXPECT_EQ(report.rates.size(), 3u);
  EXPECT_EQ(report.latencies.size(), 4u);
  EXPECT_GT(report.total_cycles, 50'000'000u);  // more than the quiet limit in all
}

// A fill lost on its way up (the L1 forgets a miss it had taken, as an
// invalidate in mid-run does) leaves the TD waiting for ever: a real
// deadlock. It stops at the quiet limit — in no wall time, since nothing is
// due — and the report names the TD, its lane and the L0 MSHR waiting.
TEST(Watchdog, LostFillStopsWithAReportOfWhatWaits) {
  Harness h(small_config());
  h.write_nodes(1);
  h.feeder.push(0, box32_wave(0, 1));
  h.chip->wake_all();
  const sc_core::sc_time period(static_cast<double>(h.config.period_ps()), sc_core::SC_PS);
  // Clock by clock until the L1 has taken the L0's miss and asked below.
  for (int i = 0; i < 1000 && h.chip->l1(0).fills_not_known() == 0; ++i) sc_core::sc_start(period);
  ASSERT_EQ(h.chip->l1(0).fills_not_known(), 1u);
  h.chip->l1(0).invalidate();

  constexpr uint64_t kQuiet = 1'000'000;
  const auto start = std::chrono::steady_clock::now();
  const chip::RunOutcome outcome = h.chip->run_until_idle([&] { return h.feeder.done(); }, kQuiet);
  EXPECT_LT(wall_seconds_since(start), 5.0);
  ASSERT_EQ(outcome, chip::RunOutcome::kDeadlock);
  EXPECT_GT(h.chip->current_cycle() - h.chip->last_progress_cycle(), kQuiet);
  EXPECT_LT(h.chip->current_cycle() - h.chip->last_progress_cycle(), kQuiet + 300);

  const std::string report = h.chip->deadlock_report();
  std::printf("%s", report.c_str());
  const auto has = [&report](const std::string& text) {
    EXPECT_NE(report.find(text), std::string::npos) << "missing '" << text << "' in\n" << report;
  };
  has("timing model state at cycle ");
  has("wave client: not done (instructions to hand out or in flight)");
  has("memory event queue: empty");
  has("chip.wgp0.td0: 1 of 2 instructions in flight; the oldest, wave 1 (accepted at cycle 1), has 1 of 1 active "
      "lanes sequenced and 0 written; ticks again only when told");
  has("chip.wgp0.td0.node_fetch: return buffer 1 of 8 (0 ready, 1 waiting for a fill whose cycle is not known)");
  has("chip.wgp0.td0.l0: 1 of 4 MSHRs busy (fill not known: line 0x400000 asked of the next level, no answer yet, "
      "1 request waiting on it)");
  has("1 of 4 TDs with instructions in flight");
  has("0 of 3 L1s and L2 slices with MSHRs busy");
  has("chip.dram: no transfer queued");
  EXPECT_EQ(report.find("chip.wgp0.td1"), std::string::npos) << report;  // idle TDs are not listed
}

// SIGINT sets the flag; the run stops at the next chunk boundary and can be
// resumed once the flag is cleared.
TEST(Watchdog, InterruptStopsTheRunAtAChunkBoundary) {
  sim::install_interrupt_handlers();
  Harness h(small_config());
  h.write_nodes(8);
  for (uint32_t t = 0; t < h.config.td_count(); ++t) h.feeder.push(t, box32_wave(2 * t, 8));
  h.chip->wake_all();
  std::raise(SIGINT);
  ASSERT_TRUE(sim::interrupted());
  const uint64_t before = h.chip->current_cycle();
  EXPECT_EQ(h.chip->run_until_idle([&] { return h.feeder.done(); }, 1'000'000), chip::RunOutcome::kInterrupted);
  EXPECT_EQ(h.chip->current_cycle(), before);
  sim::clear_interrupt();
  h.run();
  EXPECT_EQ(h.feeder.waves_completed(), h.config.td_count());
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
}

}  // namespace
}  // namespace td::test

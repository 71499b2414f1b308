// The peak microbenchmark on the small configuration: with nodes resident in
// L0 a TD starts one lane a clock, so the chip reaches 4 box tests (or 1
// triangle test) per TD per clock, less the pipeline's fill and drain. The
// expected figures are computed from the configuration, never typed in.
#include <gtest/gtest.h>

#include "model/sim/stats.h"
#include "tb/microbench/microbench.h"
#include "tests/sc/chip_harness.h"

namespace td::test {
namespace {

TEST(Peak, SmallChipReachesOneLanePerTdPerClock) {
  const cfg::Config config = small_config();
  tb::MicrobenchOptions options;
  options.waves_per_td = 64;
  options.bandwidth = false;
  sim::StatsRegistry stats;
  const tb::MicrobenchReport report = tb::run_microbenchmarks(config, options, stats, nullptr);

  const double clock_hz = config.chip.clock_mhz * 1e6;
  const double lanes_per_td = 64.0 * options.waves_per_td;
  // Fill and drain: one instruction's latency through an L0 hit, bounded
  // generously by every pipeline depth added up.
  const double fill = 8.0 + config.l0.hit_latency_cycles + config.td.box_latency_cycles +
                      config.td.sort_latency_cycles + config.td.triangle_latency_cycles +
                      config.td.return_latency_cycles;
  for (const char* name : {"box_fp16", "box_fp32", "triangle"}) {
    const tb::RateResult* rate = report.rate(name);
    ASSERT_NE(rate, nullptr) << name;
    const double tests_per_lane = std::string(name) == "triangle" ? 1.0 : 4.0;
    EXPECT_DOUBLE_EQ(rate->peak_per_s, tests_per_lane * config.td_count() * clock_hz) << name;
    EXPECT_EQ(rate->tests, static_cast<uint64_t>(tests_per_lane * lanes_per_td * config.td_count())) << name;
    EXPECT_LE(rate->tests_per_s, rate->peak_per_s * (1 + 1e-12)) << name;       // never above peak
    EXPECT_GE(rate->tests_per_s, rate->peak_per_s * 0.995) << name;             // steady state at peak
    EXPECT_LE(rate->with_fill_per_s, rate->tests_per_s) << name;
    EXPECT_GE(rate->cycles, static_cast<uint64_t>(lanes_per_td)) << name;       // one lane a clock at most
    EXPECT_LE(static_cast<double>(rate->cycles), lanes_per_td + fill) << name;  // and no bubbles
  }
  EXPECT_EQ(report.mismatches, 0u);
  EXPECT_GT(report.lanes_checked, 0u);
}

// The source documents' peak table (seeds/000: "125,0 / 31,26 giga testes"
// for Series S, "379,6 / 94,9" for Series X), reproduced within 0.5%.
void expect_source_table(const std::string& config_file, double box_g, double tri_g) {
  const cfg::Config config = cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/" + config_file);
  tb::MicrobenchOptions options;
  options.waves_per_td = 16;
  options.latency = options.bandwidth = false;
  sim::StatsRegistry stats;
  const tb::MicrobenchReport report = tb::run_microbenchmarks(config, options, stats, nullptr);
  EXPECT_NEAR(report.rate("box_fp16")->tests_per_s / 1e9, box_g, box_g * 0.005);
  EXPECT_NEAR(report.rate("box_fp32")->tests_per_s / 1e9, box_g, box_g * 0.005);
  EXPECT_NEAR(report.rate("triangle")->tests_per_s / 1e9, tri_g, tri_g * 0.005);
  EXPECT_EQ(report.mismatches, 0u);
}

TEST(Peak, SeriesXReproducesTheSourceTable) { expect_source_table("xbox_series_x.yaml", 379.6, 94.9); }
TEST(Peak, SeriesSReproducesTheSourceTable) { expect_source_table("xbox_series_s.yaml", 125.0, 31.26); }

TEST(Peak, LatencyGrowsWithEachLevelMissed) {
  const cfg::Config config = small_config();
  tb::MicrobenchOptions options;
  options.waves_per_td = 1;
  options.bandwidth = false;
  sim::StatsRegistry stats;
  const tb::MicrobenchReport report = tb::run_microbenchmarks(config, options, stats, nullptr);
  ASSERT_EQ(report.latencies.size(), 4u);
  const auto cycles = [&](const std::string& level) {
    for (const tb::LatencyResult& l : report.latencies)
      if (l.level == level) return l.cycles;
    ADD_FAILURE() << "no latency for " << level;
    return uint64_t{0};
  };
  EXPECT_GT(cycles("dram"), cycles("l2"));
  EXPECT_GT(cycles("l2"), cycles("l1"));
  EXPECT_GT(cycles("l1"), cycles("l0"));
  // An L0 hit: the hit latency plus the pipeline, at least.
  EXPECT_GE(cycles("l0"), uint64_t{config.l0.hit_latency_cycles} + config.td.box_latency_cycles +
                              config.td.sort_latency_cycles + config.td.return_latency_cycles);
}

TEST(Peak, BandwidthFallsAsTheWorkingSetOverflowsEachLevel) {
  const cfg::Config config = small_config();
  tb::MicrobenchOptions options;
  options.waves_per_td = 1;
  options.bandwidth_waves_per_td = 8;
  options.latency = false;
  sim::StatsRegistry stats;
  const tb::MicrobenchReport report = tb::run_microbenchmarks(config, options, stats, nullptr);
  ASSERT_EQ(report.bandwidth.size(), 4u);
  EXPECT_GT(report.bandwidth[0].l0_hit_rate, 0.9);  // fits L0
  EXPECT_LT(report.bandwidth[1].l0_hit_rate, report.bandwidth[0].l0_hit_rate);
  EXPECT_GT(report.bandwidth[0].box_tests_per_s, report.bandwidth[3].box_tests_per_s);
  EXPECT_EQ(report.bandwidth[0].limited_by, "datapath");
  for (const tb::BandwidthResult& b : report.bandwidth) {
    EXPECT_LE(b.fraction_of_peak, 1.0);
    // A port cannot be busy more than every clock of the window.
    for (double busy : {b.l0_port, b.l1_port, b.l2_port}) EXPECT_LE(busy, 1.0 + 1e-9) << b.bound;
  }
  for (size_t i = 1; i < report.bandwidth.size(); ++i) EXPECT_NE(report.bandwidth[i].limited_by, "datapath");
  EXPECT_EQ(report.mismatches, 0u);
}

}  // namespace
}  // namespace td::test

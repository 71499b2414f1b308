// run_report.h — what `tdsim run` tells an architect: how fast the chip
// traced the scene and what limited it. Every timing figure is read from
// the simulation's counters (never a formula of the configuration), beside
// the peak it is a share of, and compared with public RDNA2 measurements
// (shared/research/rdna2-measurements.md) where one exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/chip/config.h"
#include "model/sim/stats.h"
#include "tb/scene/bvh_report.h"
#include "tb/traversal/functional_trace.h"

namespace td::run {

// One cache level summed over its instances (all L0s, all L1s, all L2 slices).
struct LevelFigures {
  std::string name;
  uint64_t hits = 0, misses = 0, bytes = 0, mshr_full = 0;
  double hit_rate() const;  // NaN without accesses
};

// From the timing model's counters at the end of a run.
struct TimingFigures {
  uint64_t cycles = 0;
  double seconds = 0;
  uint64_t box_tests = 0, tri_tests = 0;
  double box_peak_per_s = 0, tri_peak_per_s = 0;
  double td_utilisation = 0;                              // TD-cycles a lane entered a datapath / all TD-cycles
  std::vector<std::pair<std::string, double>> stalls;     // cause -> share of all TD-cycles
  std::vector<LevelFigures> levels;                       // L0, L1, L2
  uint64_t dram_bytes = 0;
  double dram_peak_bytes_per_s = 0;
  double box_tests_per_s() const { return seconds > 0 ? box_tests / seconds : 0; }
  double tri_tests_per_s() const { return seconds > 0 ? tri_tests / seconds : 0; }
};

// Sums the chip's counters (`chip.wgp*.td*.*`, `chip.sa*.l1.*`, `chip.l2.slice*.*`, `chip.dram.*`).
TimingFigures timing_figures(const sim::StatsRegistry& stats, const cfg::Config& config, uint64_t cycles);

struct RunReport {
  std::string chip_name, config_source;
  uint32_t tds = 0;
  double clock_mhz = 0;
  std::string scene_name;
  uint64_t triangles = 0;
  scene::BvhReport bvh;
  std::string workload;
  std::string engine;
  unsigned threads = 1;
  traversal::TraceTotals totals;
  double wall_s = 0;          // tracing only (scene and BVH build excluded)
  double setup_wall_s = 0;    // scene load, BVH build, ray generation
  std::optional<TimingFigures> timing;
  bool partial = false;       // interrupted: figures cover the rays that finished
};

std::string format_run_report(const RunReport& report);
std::string run_report_json(const RunReport& report);
// `name,unit,value` rows, one per figure (spreadsheets).
std::string run_report_csv(const RunReport& report);

}  // namespace td::run

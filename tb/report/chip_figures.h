// chip_figures.h — the chip's counters summed into the figures an architect
// reads: tests and their peaks, TD utilisation, stall causes, hit rates per
// cache level, DRAM bytes. Shared by `tdsim run`'s report and the headline
// of every report (tb/report/headline.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/config/config.h"
#include "model/sim/stats.h"

namespace td::report {

// One cache level summed over its instances (all L0s, all L1s, all L2 slices).
struct LevelFigures {
  std::string name;
  uint64_t hits = 0, misses = 0, bytes = 0, mshr_full = 0;
  double hit_rate() const;  // NaN without accesses
};

// The share of the requests reaching levels[0] that the first `count`
// levels serve, each level's hit rate applied to what passes the ones
// before: 1 - (1 - h0)(1 - h1)... (the "L0+L1" of a GPU profiler, which
// reports each level's hit rate; counting the levels' hits instead would
// miss the L0 misses an MSHR merged into one L1 request). NaN without
// accesses at levels[0]; a level without accesses serves nothing.
double served_within(const std::vector<LevelFigures>& levels, size_t count);

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
  // Vector loads (two-level runs: the instance steps'), when the TDs count
  // them: lanes, bytes, and each level's line accesses of theirs (hits and
  // misses only; counted in `levels` too).
  bool counts_loads = false;
  uint64_t load_lanes = 0, load_bytes = 0;
  std::vector<LevelFigures> load_levels;  // L0, L1, L2
  double box_tests_per_s() const { return seconds > 0 ? box_tests / seconds : 0; }
  double tri_tests_per_s() const { return seconds > 0 ? tri_tests / seconds : 0; }
};

// Sums the chip's counters (`chip.wgp*.td*.*`, `chip.sa*.l1.*`, `chip.l2.slice*.*`, `chip.dram.*`).
TimingFigures timing_figures(const sim::StatsRegistry& stats, const cfg::Config& config, uint64_t cycles);

}  // namespace td::report

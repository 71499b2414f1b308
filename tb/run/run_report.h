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

#include "model/config/config.h"
#include "model/sim/host_time.h"
#include "model/sim/stats.h"
#include "tb/report/chip_figures.h"
#include "tb/report/headline.h"
#include "tb/scene/bvh_report.h"
#include "tb/traversal/functional_trace.h"
#include "tb/traversal/hit_shading.h"

namespace td::run {

// The chip's counters summed (tb/report/chip_figures.h).
using report::LevelFigures;
using report::TimingFigures;
using report::timing_figures;

struct RunReport {
  std::string chip_name, config_source;
  std::string effective_config;  // cfg::to_yaml of what ran (the file with every --set applied)
  uint32_t tds = 0;
  double clock_mhz = 0;
  std::string scene_name;
  uint64_t triangles = 0;  // placed (instanced) triangles
  scene::BvhReport bvh;  // two levels: the TLAS's
  std::optional<scene::SceneReport> scene_report;  // two levels
  std::string workload;
  std::string engine;
  unsigned threads = 1;
  traversal::TraceTotals totals;
  double wall_s = 0;          // tracing only (scene and BVH build excluded)
  double setup_wall_s = 0;    // scene load, BVH build, ray generation
  std::optional<sim::HostTime> host_time;  // timed: the chip's parts of wall_s
  std::optional<TimingFigures> timing;
  bool partial = false;       // interrupted: figures cover the rays that finished
  traversal::Overflow overflow = traversal::Overflow::kParentPointers;  // the walks'

  cfg::Occupancy occupancy;   // timed: the waves per SIMD the shader ran at, and why
  uint32_t vgprs = 0;         // timed: the shader's VGPRs per lane
  traversal::HitShading shading;  // timed: what the shader did per lane that hit (off: none)
};

std::string format_run_report(const RunReport& report);
// The figures a sweep tabulates: rays/s first (timed engines), then tests/s,
// TD utilisation, hit rates, DRAM bandwidth; stall causes; the limit.
report::Headline run_headline(const RunReport& report);
std::string run_report_json(const RunReport& report);
// `name,unit,value` rows, one per figure (spreadsheets).
std::string run_report_csv(const RunReport& report);

}  // namespace td::run

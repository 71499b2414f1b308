#include "tb/report/chip_figures.h"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "model/td/td_stats.h"

namespace td::report {

double LevelFigures::hit_rate() const {
  const double accesses = static_cast<double>(hits + misses);
  return accesses > 0 ? static_cast<double>(hits) / accesses : std::nan("");
}

double served_within(const std::vector<LevelFigures>& levels, size_t count) {
  if (levels.empty() || levels[0].hits + levels[0].misses == 0) return std::nan("");
  double passing = 1;
  for (size_t k = 0; k < count && k < levels.size(); ++k) {
    const double rate = levels[k].hit_rate();
    if (!std::isnan(rate)) passing *= 1 - rate;
  }
  return 1 - passing;
}

namespace {

uint64_t counter(const sim::StatsRegistry& stats, const std::string& name) { return stats.value(name); }


}  // namespace

TimingFigures timing_figures(const sim::StatsRegistry& stats, const cfg::Config& config, uint64_t cycles) {
  TimingFigures t;
  t.cycles = cycles;
  const double clock_hz = config.chip.clock_mhz * 1e6;
  t.seconds = static_cast<double>(cycles) / clock_hz;
  const uint32_t tds = config.td_count();
  t.box_peak_per_s = 4.0 * tds * clock_hz;
  t.tri_peak_per_s = 1.0 * tds * clock_hz;
  LevelFigures l0{"L0"}, l1{"L1"}, l2{"L2"};
  LevelFigures load_l0{"L0"}, load_l1{"L1"}, load_l2{"L2"};
  t.counts_loads = stats.has("chip.wgp0.td0.load_lanes");
  const auto add_level = [&](LevelFigures& level, LevelFigures& loads, const std::string& prefix) {
    level.hits += counter(stats, prefix + "hits");
    level.misses += counter(stats, prefix + "misses");
    level.bytes += counter(stats, prefix + "bytes");
    level.mshr_full += counter(stats, prefix + "mshr_full");
    if (!t.counts_loads) return;
    loads.hits += counter(stats, prefix + "load_hits");
    loads.misses += counter(stats, prefix + "load_misses");
  };
  uint64_t busy = 0;
  // The stall causes a report shows, in the pipeline's order: (label, statistic).
  std::vector<std::pair<const char*, std::string>> causes;
  for (size_t c = 0; c < timing::kStallCauses; ++c) {
    const auto cause = static_cast<timing::Stall>(c);
    if (cause == timing::Stall::kResultRefused || (cause == timing::Stall::kWaitingLoads && !t.counts_loads)) continue;
    causes.emplace_back(timing::stall_causes()[c].label, std::string("stall_cycles.") + timing::stall_causes()[c].subname);
  }
  std::vector<uint64_t> stall_cycles(causes.size(), 0);
  for (uint32_t w = 0; w < config.chip.wgps; ++w)
    for (uint32_t d = 0; d < config.chip.tds_per_wgp; ++d) {
      const std::string td = fmt::format("chip.wgp{}.td{}.", w, d);
      t.box_tests += counter(stats, td + "box_tests");
      t.tri_tests += counter(stats, td + "tri_tests");
      busy += counter(stats, td + "busy_cycles");
      for (size_t s = 0; s < causes.size(); ++s) stall_cycles[s] += counter(stats, td + causes[s].second);
      add_level(l0, load_l0, td + "l0.");
      if (t.counts_loads) {
        t.load_lanes += counter(stats, td + "load_lanes");
        t.load_bytes += counter(stats, td + "load_bytes");
      }
    }
  for (uint32_t a = 0; a < config.chip.shader_arrays; ++a) add_level(l1, load_l1, fmt::format("chip.sa{}.l1.", a));
  for (uint32_t s = 0; s < config.l2.slices; ++s) add_level(l2, load_l2, fmt::format("chip.l2.slice{}.", s));
  t.levels = {l0, l1, l2};
  if (t.counts_loads) t.load_levels = {load_l0, load_l1, load_l2};
  t.dram_bytes = counter(stats, "chip.dram.bytes");
  t.dram_peak_bytes_per_s = config.dram.bandwidth_gb_per_s * 1e9;
  const double td_cycles = static_cast<double>(cycles) * tds;
  t.td_utilisation = td_cycles > 0 ? busy / td_cycles : 0;
  for (size_t s = 0; s < causes.size(); ++s)
    t.stalls.emplace_back(causes[s].first, td_cycles > 0 ? stall_cycles[s] / td_cycles : 0);
  return t;
}

}  // namespace td::report

// sweep_results.h — a sweep's points merged into one table:
//   DIR/results.csv   one row per point: point, the swept keys, status,
//                     exit code, the headline figures (the headline rate
//                     first), limited_by, stall:<cause>, hit_rate:<level>;
//                     no wall times, so a rerun or a cluster run of the same
//                     sweep gives the same bytes;
//   DIR/results.json  the same with units, fixed keys, the chip and the
//                     workload, wall times and failed points' output tails
//                     (scripts/plot reads it).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tb/sweep/point_result.h"
#include "tb/sweep/sweep_plan.h"

namespace td::sweep {

// Every point of `plan` as its folder under dir/points holds it ("not run" without one).
std::vector<PointResult> read_results(const SweepPlan& plan, const std::filesystem::path& dir);

std::string results_csv(const SweepPlan& plan, const std::vector<PointResult>& results);
std::string results_json(const SweepPlan& plan, const std::vector<PointResult>& results);
// For people: one line per point, its swept values, the headline rate, its
// change against point `base` (the one with the configuration's own values,
// marked "base"; point 0 when no point has them) and the limit.
std::string results_table(const SweepPlan& plan, const std::vector<PointResult>& results,
                          std::optional<size_t> base = std::nullopt);

// The point whose every swept value is the base configuration's own
// (`config_value(key)`, std::nullopt for a key it lacks); std::nullopt when none is.
template <typename ConfigValue>
std::optional<size_t> base_point(const SweepPlan& plan, ConfigValue config_value) {
  for (size_t k = 0; k < plan.point_count(); ++k) {
    bool all = true;
    for (const auto& [key, value] : plan.point(k).values) all = all && config_value(key) == std::optional(value);
    if (all) return k;
  }
  return std::nullopt;
}

}  // namespace td::sweep

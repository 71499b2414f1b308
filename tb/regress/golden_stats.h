// golden_stats.h — `tdsim regress`: statistics of fixed workloads kept as
// CSV files (StatsRegistry::to_csv) and compared statistic by statistic, so
// a change to the timing model shows as the exact statistics it moved.
#pragma once

#include <string>
#include <vector>

namespace td::tb {

struct Statistic {
  std::string name, unit, value;
};

// The rows of a stats CSV (header name,unit,value,description). Throws
// std::runtime_error naming `source` and the line of a malformed one.
std::vector<Statistic> read_stats_csv(const std::string& text, const std::string& source);

// One statistic that differs: added (old_value empty), removed (new_value
// empty) or changed.
struct StatChange {
  std::string name, unit, old_value, new_value;
};
// The statistics of `actual` that differ from `expected`: the chip's own
// first (fewest name parts: chip.cycles before chip.sa0.l1.hits before
// chip.wgp3.td1.stall_cycles.l0_mshrs_full), each level in `expected`'s order, then
// those only `actual` has.
std::vector<StatChange> diff_stats(const std::vector<Statistic>& expected, const std::vector<Statistic>& actual);

// For people: "chip.cycles: 1200 -> 1210 cycles (+0.83%)", "... (added)".
std::string format_change(const StatChange& change);

}  // namespace td::tb

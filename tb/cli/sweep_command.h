// sweep_command.h — `tdsim sweep [--config BASE] --set KEY=V1,V2,... [--set
// ...] [--zip] [--out DIR] [-j N] [--list | --point K | --merge] -- run|peak
// ARGS...`: runs the command once per point of the grid (tb/sweep/
// sweep_plan.h), each in a process of its own (SystemC elaborates once per
// process), at most N at once. Each point's report, statistics, effective
// configuration and output land in DIR/points/NNNN, renamed into place when
// the point ends, so an interrupted sweep run again skips the points it
// finished. The points are merged into DIR/results.csv and results.json.
//
// --list and --point K let another engine run the points (scripts/sweep-
// parallel, scripts/sweep-slurm); --merge then writes the results.
// Exit 0 when every point ran cleanly, 1 when any failed or has not run,
// 2 for bad input, 130/143 when interrupted.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace td::tb {

struct SweepOptions {
  std::string config;
  std::vector<std::string> sets;
  bool zip = false;
  std::string out = "out/sweep";
  unsigned jobs = 0;                // 0: one per core
  bool list = false, merge = false;
  std::optional<size_t> point;
  std::vector<std::string> command;  // after `--`: run|peak and its flags
};

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options, const std::string& default_config);
int run_sweep_command(const CLI::App* command, const SweepOptions& options);

}  // namespace td::tb

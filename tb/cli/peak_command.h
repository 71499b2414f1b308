// peak_command.h — `tdsim peak [--config FILE]`: the microbenchmarks on the
// timing model (tb/microbench): peak box and triangle rates, one lane's
// latency through each level, bandwidth points.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tb/cli/common_options.h"
#include "tb/microbench/microbench.h"

namespace td::tb {

struct PeakCommandOptions {
  std::string config;  // add_peak_command sets the default
  MicrobenchOptions bench;
  std::string json;
  std::vector<std::string> stats;
  cli::TraceOptions trace;
  std::string scoreboard = "all";
  std::vector<std::string> sets;
  bool dry_run = false;
};

CLI::App* add_peak_command(CLI::App& app, PeakCommandOptions& options, const std::string& default_config);
int run_peak_command(const CLI::App* command, PeakCommandOptions options);

}  // namespace td::tb

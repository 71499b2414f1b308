// bench_command.h — `tdsim bench [--config FILE]`: the simulator's own speed
// on the peak and memory-bound microbenchmarks, on threads and in check,
// each against the golden reference on the same lanes (tb/microbench/check_speed.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tb/microbench/microbench.h"

namespace td::tb {

struct BenchCommandOptions {
  std::string config;  // add_bench_command sets the default
  bool single_td = false;
  std::string datapath;  // "": the config's td.datapath
  SpeedOptions speed;
  std::string paths;     // comma-separated; "": all
  std::string json;
  std::vector<std::string> sets;
};

CLI::App* add_bench_command(CLI::App& app, BenchCommandOptions& options, const std::string& default_config);
int run_bench_command(const CLI::App* command, BenchCommandOptions options);

}  // namespace td::tb

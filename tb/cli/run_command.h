// run_command.h — `tdsim run`: a scene traced through an engine, with its
// report, hits, picture, statistics and waves.
#pragma once

#include <CLI/CLI.hpp>

#include "tb/cli/common_options.h"

#include <cstdint>
#include <string>
#include <vector>

namespace td::tb {

struct RunCommandOptions {
  std::string config;
  std::vector<std::string> sets;  // --set KEY=VALUE
  std::string scene = "level";
  bool flatten = false;
  unsigned instance_mask = 0xff;
  std::string rays = "primary";
  std::string rays_in;
  uint32_t width = 640, height = 360;
  uint32_t ao_rays = 4;
  std::string engine = "model";
  std::string scoreboard = "all";
  unsigned threads = 0;  // 0: all cores
  uint64_t seed = 1;
  std::string hits_out, report, image;
  std::vector<std::string> stats;
  cli::TraceOptions trace;
  bool dry_run = false;  // check flags, configuration and outputs; run nothing
};

// Declares the command and its flags on `app`; returns it.
CLI::App* add_run_command(CLI::App& app, RunCommandOptions& options, const std::string& default_config);

// Runs it (after parsing). Returns the exit code; throws for bad input
// (std::invalid_argument, cfg::ConfigError, scene::SceneError: exit 2).
int run_run_command(const CLI::App* command, const RunCommandOptions& options);

}  // namespace td::tb

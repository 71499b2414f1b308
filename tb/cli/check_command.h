// check_command.h — `tdsim check FILES... [--engine functional|model|rtl]`: runs
// reference-vector files (.tdv) through an engine, one line per mismatching
// lane, then 'N passed, M failed'. Every file is validated before any runs.
// --coverage FILE.json counts the contract's bins the cases reach (coverage.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tb/engines/engine.h"
#include "tb/vectors/check.h"

namespace td::tb {

struct CheckCommandOptions {
  std::vector<std::string> files;
  std::string engine = kReferenceEngineName;
  EngineOptions engine_options{"", {}, 1};  // config_path: add_check_command sets the default
  CheckOptions check;
  std::vector<std::string> stats;
  std::vector<std::string> sets;
  std::string coverage;  // --coverage FILE.json: the contract's bins the cases reach
};

CLI::App* add_check_command(CLI::App& app, CheckCommandOptions& options, const std::string& default_config);
int run_check_command(const CLI::App* command, CheckCommandOptions options);

}  // namespace td::tb

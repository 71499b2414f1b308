#include "tb/cli/check_command.h"

#include <fmt/format.h>

#include <iostream>

#include "model/config/config.h"
#include "model/sim/interrupt.h"
#include "tb/cli/common_options.h"
#include "tb/cli/output_paths.h"
#include "tb/common/atomic_file.h"
#include "tb/run/engines.h"
#include "tb/vectors/tdv.h"

namespace td::tb {

using namespace cli;

CLI::App* add_check_command(CLI::App& app, CheckCommandOptions& options, const std::string& default_config) {
  options.engine_options.config_path = default_config;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Run reference-vector files through an engine; one line per mismatch, then 'N passed, M failed'");
  check_cmd->add_option("files", options.files, "Vector files (.tdv)")->required();
  check_cmd->add_option("--engine", options.engine, "Engine to check: " + run::engines().describe())
      ->check(CLI::IsMember(run::engines().names()))
      ->capture_default_str();
  check_cmd->add_option("--config", options.engine_options.config_path,
                        "Chip configuration, a YAML file or a shipped one's name (engines model, rtl)")
      ->capture_default_str();
  check_cmd->add_option("--lanes-per-wave", options.check.lanes_per_wave,
                        "Lanes per wave instruction: 32 or 64 (engines model, rtl)")
      ->check(CLI::IsMember({32u, 64u}))
      ->capture_default_str();
  add_stats_option(check_cmd, options.stats, "Write the timing model's statistics (engines model, rtl)");
  check_cmd->add_option("--coverage", options.coverage,
                        "Count the contract's coverage bins the cases reach and write them to FILE.json; prints "
                        "'coverage: H of B bins hit' and the bins never hit");
  add_chip_threads_option(check_cmd, options.engine_options.threads);
  add_set_option(check_cmd, options.sets);
  add_debug_option(check_cmd);
  return check_cmd;
}

int run_check_command(const CLI::App* command, CheckCommandOptions options) {
  const run::EngineEntry& entry = *run::engines().find(options.engine);
  if (!entry.timed) {
    const std::string why = "with --engine " + options.engine + " (no chip, no timing); use --engine model";
    for (const char* flag : {"--config", "--set", "--lanes-per-wave", "--stats", "--debug", "--threads"})
      refuse_if_given(command, flag, why);
  } else {
    // The chip's configuration, checked now: a bad one runs nothing.
    options.engine_options.config_path = resolve_config(options.engine_options.config_path);
    options.engine_options.overrides = overrides_of(options.sets);
    const cfg::Config config =
        cfg::load_config(options.engine_options.config_path, options.engine_options.overrides);
    const std::string& datapath = entry.datapath;
    check_chip_threads(options.engine_options.threads,
                       datapath.empty() ? config : cfg::with_datapath(config, datapath));
  }
  check_stats_names(options.stats);
  if (!options.coverage.empty() && !ends_with(options.coverage, ".json"))
    throw UsageError(fmt::format("--coverage {}: the file name must end in .json", options.coverage));
  // Read and validate everything first: a malformed file runs nothing.
  bool malformed = false;
  try {
    for (const std::string& path : options.files) {
      const TdvValidation validation = validate_tdv_file(path);
      for (const TdvError& error : validation.errors) std::cerr << "error: " << error.to_string() << "\n";
      malformed = malformed || !validation.ok();
    }
  } catch (const sim::Interrupted&) {
    // The same summary line as an interrupt later on: scripts read one form.
    std::cout << "0 passed, 0 failed (partial: interrupted)\n";
    return sim::interrupt_exit_code();
  }
  if (malformed) return kExitBadInput;
  OutputPaths outputs;
  for (const std::string& path : options.stats) outputs.add("--stats", path);
  outputs.add("--coverage", options.coverage);
  outputs.prepare();
  ContractCoverage coverage;
  if (!options.coverage.empty()) options.check.coverage = &coverage;

  const std::unique_ptr<Engine> engine = entry.make_for_vectors(options.engine_options);
  const CheckSummary summary = check_files(options.files, *engine, std::cout, options.check);
  if (summary.interrupted) {
    std::cout << fmt::format("{} passed, {} failed (partial: interrupted)\n", summary.passed, summary.failed);
    return sim::interrupt_exit_code();
  }
  if (engine->stats()) write_stats(options.stats, *engine->stats());
  if (!options.coverage.empty()) {
    write_file_atomically(options.coverage, coverage.to_json());
    std::cout << coverage.summary();
  }
  std::cout << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
  return summary.failed == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace td::tb

// tdsim — command-line front end. Exit codes: 0 success, 1 a check failed,
// 2 bad input (flag, config, vector file) with an error naming it, 128+N on
// signal N (130 for SIGINT, 143 for SIGTERM).
//
// Every command follows the same order: parse flags; refuse combinations in
// which a flag would have no effect; read and validate every input; prepare
// every output (parent directories made, writability proved, no two flags
// naming one file); only then run. So bad input costs nothing, and a run is
// never lost to an output it cannot write.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "model/sim/interrupt.h"
#include "tb/cli/bench_command.h"
#include "tb/cli/calibrate_command.h"
#include "tb/cli/check_command.h"
#include "tb/cli/common_options.h"
#include "tb/cli/gen_vectors_command.h"
#include "tb/cli/keys_command.h"
#include "tb/cli/peak_command.h"
#include "tb/cli/regress_command.h"
#include "tb/cli/run_command.h"
#include "tb/cli/sweep_command.h"

namespace {

using namespace td::tb::cli;

#ifndef TDSIM_DEFAULT_CONFIG
#define TDSIM_DEFAULT_CONFIG "configs/xbox_series_x.yaml"
#endif
#ifndef TDSIM_VERSION
#define TDSIM_VERSION "unknown"
#endif

std::string subcommand_list(const std::vector<CLI::App*>& commands) {
  std::string names;
  for (const CLI::App* command : commands) names += (names.empty() ? "" : ", ") + command->get_name();
  return names;
}

const CLI::App* find_command(const std::vector<CLI::App*>& commands, const std::string& name) {
  for (const CLI::App* command : commands)
    if (command->get_name() == name) return command;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep stdout to our own output
  td::sim::install_interrupt_handlers();
  CLI::App app{"tdsim: cycle-level model of the RDNA2 TD ray-intersection hardware"};
  app.set_version_flag("--version", std::string("tdsim ") + TDSIM_VERSION);
  app.require_subcommand(1);

  td::tb::CheckCommandOptions check;
  CLI::App* check_cmd = td::tb::add_check_command(app, check, TDSIM_DEFAULT_CONFIG);
  td::tb::PeakCommandOptions peak;
  CLI::App* peak_cmd = td::tb::add_peak_command(app, peak, TDSIM_DEFAULT_CONFIG);
  td::tb::BenchCommandOptions bench;
  CLI::App* bench_cmd = td::tb::add_bench_command(app, bench, TDSIM_DEFAULT_CONFIG);
  td::tb::GenVectorsOptions gen;
  CLI::App* gen_cmd = td::tb::add_gen_vectors_command(app, gen);

  td::tb::RunCommandOptions run;
  CLI::App* run_cmd = td::tb::add_run_command(app, run, TDSIM_DEFAULT_CONFIG);

  // `tdsim help [COMMAND]` prints help; an unknown command is named.
  td::tb::RegressOptions regress;
  CLI::App* regress_cmd = td::tb::add_regress_command(
      app, regress,
      (std::filesystem::path(TDSIM_DEFAULT_CONFIG).parent_path().parent_path() / "tests" / "regress").string());

  td::tb::SweepOptions sweep;
  CLI::App* sweep_cmd = td::tb::add_sweep_command(app, sweep, TDSIM_DEFAULT_CONFIG);

  td::tb::CalibrateOptions calibrate;
  CLI::App* calibrate_cmd = td::tb::add_calibrate_command(app, calibrate, TDSIM_DEFAULT_CONFIG);

  td::tb::KeysOptions keys;
  CLI::App* keys_cmd = td::tb::add_keys_command(app, keys);

  const std::vector<CLI::App*> commands{run_cmd, check_cmd,   peak_cmd,  bench_cmd,     gen_cmd,
                                        regress_cmd, sweep_cmd, calibrate_cmd, keys_cmd};
  if (argc >= 2 && argv[1][0] != '-' && !find_command(commands, argv[1])) {
    const std::string first = argv[1];
    if (first == "help") {
      const CLI::App* topic = argc >= 3 ? find_command(commands, argv[2]) : nullptr;
      std::cout << (topic ? topic->help() : app.help());
      return kExitOk;
    }
    std::cerr << fmt::format("error: unknown command '{}' (commands: {}; tdsim --help for more)\n", first,
                             subcommand_list(commands));
    return kExitBadInput;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*run_cmd) return td::tb::run_run_command(run_cmd, run);
    if (*check_cmd) return td::tb::run_check_command(check_cmd, check);
    if (*gen_cmd) return td::tb::run_gen_vectors_command(gen_cmd, gen);
    if (*peak_cmd) return td::tb::run_peak_command(peak_cmd, peak);
    if (*bench_cmd) return td::tb::run_bench_command(bench_cmd, bench);
    if (*regress_cmd) return td::tb::run_regress_command(regress_cmd, regress);
    if (*sweep_cmd) return td::tb::run_sweep_command(sweep_cmd, sweep);
    if (*calibrate_cmd) return td::tb::run_calibrate_command(calibrate_cmd, calibrate);
    if (*keys_cmd) return td::tb::run_keys_command(keys);
  } catch (const td::sim::Interrupted&) {
    std::cerr << "tdsim: interrupted; nothing written\n";
    return td::sim::interrupt_exit_code();
  } catch (const std::exception& error) {
    if (td::sim::interrupted()) return td::sim::interrupt_exit_code();
    std::cerr << "error: " << error.what() << "\n";
    return kExitBadInput;
  }
  return kExitBadInput;
}

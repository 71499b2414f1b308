#include "tb/cli/peak_command.h"

#include <iostream>
#include <memory>

#include "model/sim/interrupt.h"
#include "model/sim/stats.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/trace_output.h"
#include "tb/cli/unsigned_option.h"
#include "tb/common/atomic_file.h"

namespace td::tb {

using namespace cli;

CLI::App* add_peak_command(CLI::App& app, PeakCommandOptions& options, const std::string& default_config) {
  options.config = default_config;
  CLI::App* peak_cmd = app.add_subcommand(
      "peak", "Microbenchmarks on the timing model: peak box/triangle rates, latency per level, bandwidth limits");
  add_config_option(peak_cmd, options.config);
  peak_cmd->add_option("--json", options.json, "Write the measured figures to FILE as JSON");
  peak_cmd->add_option("--waves", options.bench.waves_per_td, "Measured wave64 instructions per TD in each peak phase")
      ->check(unsigned_in(1, 1000000))
      ->capture_default_str();
  peak_cmd->add_option("--bandwidth-waves", options.bench.bandwidth_waves_per_td,
                       "Measured wave64 instructions per TD per bandwidth point")
      ->check(unsigned_in(1, 1000000))
      ->capture_default_str();
  peak_cmd->add_option("--seed", options.bench.seed, "Seed of rays and nodes")
      ->check(unsigned_in(0, UINT64_MAX))
      ->capture_default_str();
  add_chip_threads_option(peak_cmd, options.bench.threads);
  add_set_option(peak_cmd, options.sets);
  peak_cmd
      ->add_option("--scoreboard", options.scoreboard,
                   "Check lanes against the golden reference: all, off, or sample:N (every Nth instruction)")
      ->capture_default_str();
  peak_cmd->add_flag("!--no-latency", options.bench.latency, "Skip the latency microbenchmark");
  peak_cmd->add_flag("!--no-bandwidth", options.bench.bandwidth, "Skip the bandwidth microbenchmarks");
  add_stats_option(peak_cmd, options.stats, "Write every statistic");
  add_trace_options(peak_cmd, options.trace);
  add_debug_option(peak_cmd);
  peak_cmd->add_flag("--dry-run", options.dry_run, "Check the flags, configuration and outputs, then stop (nothing runs)");
  return peak_cmd;
}

int run_peak_command(const CLI::App* command, PeakCommandOptions options) {
  options.bench.check_every = parse_scoreboard(options.scoreboard);
  if (!options.bench.bandwidth) refuse_if_given(command, "--bandwidth-waves", "with --no-bandwidth");
  check_stats_names(options.stats);
  check_trace_options(command, options.trace);
  const cfg::Config config = load_chip_config(options.config, options.sets);
  check_chip_threads(options.bench.threads, config);
  OutputPaths outputs;
  outputs.add("--json", options.json);
  for (const std::string& path : options.stats) outputs.add("--stats", path);
  outputs.add("--trace", options.trace.path);
  outputs.prepare();
  if (options.dry_run) return kExitOk;

  sim::StatsRegistry stats;
  const std::unique_ptr<TraceOutput> trace = open_trace(options.trace, config.period_ps());
  const MicrobenchReport report =
      run_microbenchmarks(config, options.bench, stats, trace ? &trace->vcd() : nullptr);
  std::cout << format_report(report);
  if (report.partial) return sim::interrupt_exit_code();  // outputs of an unfinished run are not written
  if (trace) trace->close();
  if (!options.json.empty()) write_file_atomically(options.json, report_json(report));
  write_stats(options.stats, stats);
  return report.mismatches == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace td::tb

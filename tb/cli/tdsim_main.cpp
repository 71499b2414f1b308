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

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/chip/config.h"
#include "model/sim/debug.h"
#include "model/sim/interrupt.h"
#include "model/sim/output_file.h"
#include "model/sim/stats.h"
#include "tb/common/atomic_file.h"
#include "tb/vectors/check.h"
#include "tb/cli/common_options.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/calibrate_command.h"
#include "tb/cli/regress_command.h"
#include "tb/cli/run_command.h"
#include "tb/cli/sweep_command.h"
#include "tb/cli/trace_output.h"
#include "tb/cli/unsigned_option.h"
#include "tb/engines/engine.h"
#include "tb/microbench/microbench.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace {

using namespace td::tb::cli;

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;

#ifndef TDSIM_DEFAULT_CONFIG
#define TDSIM_DEFAULT_CONFIG "configs/xbox_series_x.yaml"
#endif
#ifndef TDSIM_VERSION
#define TDSIM_VERSION "unknown"
#endif

// ---- check ----------------------------------------------------------------

struct CheckOptions {
  std::vector<std::string> files;
  std::string engine = "ref";
  td::tb::EngineOptions engine_options{TDSIM_DEFAULT_CONFIG, {}, 1};
  td::tb::CheckOptions check;
  std::vector<std::string> stats;
  std::vector<std::string> sets;
};

int run_check(const CLI::App* command, CheckOptions options) {
  if (!td::tb::check_engines().find(options.engine)->timed) {
    const std::string why = "with --engine " + options.engine + " (no chip, no timing); use --engine model";
    for (const char* flag : {"--config", "--set", "--lanes-per-wave", "--stats", "--debug", "--threads"})
      refuse_if_given(command, flag, why);
  } else {
    // The chip's configuration, checked now: a bad one runs nothing.
    options.engine_options.config_path = resolve_config(options.engine_options.config_path);
    options.engine_options.overrides = overrides_of(options.sets);
    const td::cfg::Config config =
        td::cfg::load_config(options.engine_options.config_path, options.engine_options.overrides);
    const std::string& datapath = td::tb::check_engines().find(options.engine)->datapath;
    check_chip_threads(options.engine_options.threads,
                       datapath.empty() ? config : td::cfg::with_datapath(config, datapath));
  }
  check_stats_names(options.stats);
  // Read and validate everything first: a malformed file runs nothing.
  bool malformed = false;
  try {
    for (const std::string& path : options.files) {
      const td::tb::TdvValidation validation = td::tb::validate_tdv_file(path);
      for (const td::tb::TdvError& error : validation.errors) std::cerr << "error: " << error.to_string() << "\n";
      malformed = malformed || !validation.ok();
    }
  } catch (const td::sim::Interrupted&) {
    // The same summary line as an interrupt later on: scripts read one form.
    std::cout << "0 passed, 0 failed (partial: interrupted)\n";
    return td::sim::interrupt_exit_code();
  }
  if (malformed) return kExitBadInput;
  td::tb::OutputPaths outputs;
  for (const std::string& path : options.stats) outputs.add("--stats", path);
  outputs.prepare();

  auto engine = td::tb::make_engine(options.engine, options.engine_options);
  const td::tb::CheckSummary summary = td::tb::check_files(options.files, *engine, std::cout, options.check);
  if (summary.interrupted) {
    std::cout << fmt::format("{} passed, {} failed (partial: interrupted)\n", summary.passed, summary.failed);
    return td::sim::interrupt_exit_code();
  }
  if (engine->stats()) write_stats(options.stats, *engine->stats());
  std::cout << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
  return summary.failed == 0 ? kExitOk : kExitCheckFailed;
}

// ---- peak -----------------------------------------------------------------

struct PeakOptions {
  std::string config = TDSIM_DEFAULT_CONFIG;
  td::tb::MicrobenchOptions bench;
  std::string json;
  std::vector<std::string> stats;
  TraceOptions trace;
  std::string scoreboard = "all";
  std::vector<std::string> sets;
  bool dry_run = false;
};

int run_peak(const CLI::App* command, PeakOptions options) {
  options.bench.check_every = parse_scoreboard(options.scoreboard);
  if (!options.bench.bandwidth) refuse_if_given(command, "--bandwidth-waves", "with --no-bandwidth");
  check_stats_names(options.stats);
  check_trace_options(command, options.trace);
  const td::cfg::Config config = load_chip_config(options.config, options.sets);
  check_chip_threads(options.bench.threads, config);
  td::tb::OutputPaths outputs;
  outputs.add("--json", options.json);
  for (const std::string& path : options.stats) outputs.add("--stats", path);
  outputs.add("--trace", options.trace.path);
  outputs.prepare();
  if (options.dry_run) return kExitOk;

  td::sim::StatsRegistry stats;
  const std::unique_ptr<td::tb::TraceOutput> trace = open_trace(options.trace, config.period_ps());
  const td::tb::MicrobenchReport report =
      td::tb::run_microbenchmarks(config, options.bench, stats, trace ? &trace->vcd() : nullptr);
  std::cout << td::tb::format_report(report);
  if (report.partial) return td::sim::interrupt_exit_code();  // outputs of an unfinished run are not written
  if (trace) trace->close();
  if (!options.json.empty()) td::tb::write_file_atomically(options.json, td::tb::report_json(report));
  write_stats(options.stats, stats);
  return report.mismatches == 0 ? kExitOk : kExitCheckFailed;
}

// ---- bench ----------------------------------------------------------------

struct BenchOptions {
  std::string config = TDSIM_DEFAULT_CONFIG;
  bool single_td = false;
  std::string datapath;  // "": the config's td.datapath
  td::tb::SpeedOptions speed;
  std::string paths;     // comma-separated; "": all
  std::string json;
  std::vector<std::string> sets;
};

int run_bench(const CLI::App* command, BenchOptions options) {
  td::cfg::Config config = load_chip_config(options.config, options.sets);
  if (!options.datapath.empty()) config = td::cfg::with_datapath(config, options.datapath);
  const bool rtl = config.td.datapath == "rtl";
  for (size_t start = 0; start < options.paths.size();) {
    const size_t comma = std::min(options.paths.find(',', start), options.paths.size());
    const std::string name = options.paths.substr(start, comma - start);
    const auto& names = td::tb::speed_path_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw UsageError(fmt::format("--paths: unknown path '{}' (paths: {})", name, fmt::join(names, ", ")));
    options.speed.paths.push_back(name);
    start = comma + 1;
  }
  if (rtl) {
    // The rtl datapaths run on one thread: no threads path unless asked for (then refused).
    refuse_if_given(command, "--threads", "with td.datapath: rtl (its datapaths run on one thread)");
    const auto& asked = options.speed.paths;
    if (std::find(asked.begin(), asked.end(), "peak_threads") != asked.end())
      throw UsageError("--paths peak_threads: the rtl datapaths (td.datapath: rtl) run on one thread");
    if (asked.empty())
      for (const std::string& name : td::tb::speed_path_names())
        if (name != "peak_threads") options.speed.paths.push_back(name);
  }
  td::tb::OutputPaths outputs;
  outputs.add("--json", options.json);
  outputs.prepare();
  if (options.single_td) {
    config.chip.wgps = config.chip.tds_per_wgp = config.chip.shader_arrays = 1;
    config.chip.name += " (one TD)";
  }
  const td::tb::SpeedReport report = td::tb::run_speed_benchmark(config, options.speed);
  std::cout << td::tb::format_speed_report(report);
  if (!options.json.empty()) td::tb::write_file_atomically(options.json, td::tb::speed_report_json(report));
  return kExitOk;
}

// ---- gen-vectors ----------------------------------------------------------

struct GenOptions {
  std::string kind;
  uint64_t seed = 1;
  size_t count = 1000;
  std::string output;
};

int run_gen_vectors(const CLI::App* command, const GenOptions& options) {
  if (options.kind == "edge") {
    const std::string why = "with --kind edge (the edge set is fixed: one case per rule)";
    refuse_if_given(command, "--seed", why);
    refuse_if_given(command, "--count", why);
  }
  td::tb::OutputPaths outputs;
  outputs.add("--output", options.output);
  outputs.prepare();
  const std::vector<std::string> comments{
      options.kind == "edge"
          ? std::string("tdsim gen-vectors --kind edge: one case per rule of contract v1 and its boundaries")
          : fmt::format("tdsim gen-vectors --kind random --seed {} --count {}", options.seed, options.count),
      "expectations from tdsim's golden reference (model/ref)"};
  // Written as made, through a temporary file: millions of cases never sit
  // in memory, and an interrupted run leaves nothing.
  td::sim::OutputFile file(options.output);
  std::string text = td::tb::format_tdv_header(comments);
  size_t written = 0;
  const auto add = [&](const td::tb::TdvCase& c) {
    text += td::tb::format_case(c);
    text += '\n';
    ++written;
    if (text.size() < (size_t{1} << 20)) return;
    td::sim::throw_if_interrupted();
    file.write(text);
    text.clear();
  };
  if (options.kind == "edge") {
    for (const td::tb::TdvCase& c : td::tb::edge_vectors()) add(c);
  } else {
    td::tb::RandomVectorStream stream(options.seed, options.count);
    for (td::tb::TdvCase c; stream.next(c);) add(c);
  }
  file.write(text);
  file.commit();
  std::cerr << fmt::format("wrote {} cases to {}\n", written, options.output);
  return kExitOk;
}

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

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Run reference-vector files through an engine; one line per mismatch, then 'N passed, M failed'");
  check_cmd->add_option("files", check.files, "Vector files (.tdv)")->required();
  check_cmd->add_option("--engine", check.engine, "Engine to check: " + td::tb::check_engines().describe())
      ->check(CLI::IsMember(td::tb::check_engines().names()))
      ->capture_default_str();
  check_cmd->add_option("--config", check.engine_options.config_path,
                        "Chip configuration, a YAML file or a shipped one's name (engines model, rtl)")
      ->capture_default_str();
  check_cmd->add_option("--lanes-per-wave", check.check.lanes_per_wave,
                        "Lanes per wave instruction: 32 or 64 (engines model, rtl)")
      ->check(CLI::IsMember({32u, 64u}))
      ->capture_default_str();
  add_stats_option(check_cmd, check.stats, "Write the timing model's statistics (engines model, rtl)");
  add_chip_threads_option(check_cmd, check.engine_options.threads);
  add_set_option(check_cmd, check.sets);
  add_debug_option(check_cmd);

  PeakOptions peak;
  CLI::App* peak_cmd = app.add_subcommand(
      "peak", "Microbenchmarks on the timing model: peak box/triangle rates, latency per level, bandwidth limits");
  add_config_option(peak_cmd, peak.config);
  peak_cmd->add_option("--json", peak.json, "Write the measured figures to FILE as JSON");
  peak_cmd->add_option("--waves", peak.bench.waves_per_td, "Measured wave64 instructions per TD in each peak phase")
      ->check(td::tb::unsigned_in(1, 1000000))
      ->capture_default_str();
  peak_cmd->add_option("--bandwidth-waves", peak.bench.bandwidth_waves_per_td,
                       "Measured wave64 instructions per TD per bandwidth point")
      ->check(td::tb::unsigned_in(1, 1000000))
      ->capture_default_str();
  peak_cmd->add_option("--seed", peak.bench.seed, "Seed of rays and nodes")
      ->check(td::tb::unsigned_in(0, UINT64_MAX))
      ->capture_default_str();
  add_chip_threads_option(peak_cmd, peak.bench.threads);
  add_set_option(peak_cmd, peak.sets);
  peak_cmd
      ->add_option("--scoreboard", peak.scoreboard,
                   "Check lanes against the golden reference: all, off, or sample:N (every Nth instruction)")
      ->capture_default_str();
  peak_cmd->add_flag("!--no-latency", peak.bench.latency, "Skip the latency microbenchmark");
  peak_cmd->add_flag("!--no-bandwidth", peak.bench.bandwidth, "Skip the bandwidth microbenchmarks");
  add_stats_option(peak_cmd, peak.stats, "Write every statistic");
  add_trace_options(peak_cmd, peak.trace);
  add_debug_option(peak_cmd);
  peak_cmd->add_flag("--dry-run", peak.dry_run, "Check the flags, configuration and outputs, then stop (nothing runs)");

  BenchOptions bench;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench",
      "Simulation speed: the timing model on the peak and memory-bound microbenchmarks, on threads and in check, "
      "each against the golden reference on the same lanes");
  add_config_option(bench_cmd, bench.config);
  bench_cmd->add_flag("--single-td", bench.single_td, "Simulate one TD (1 WGP x 1 TD) of that configuration");
  bench_cmd->add_option("--datapath", bench.datapath,
                        "The TD's datapaths: cpp (the reference's maths) or rtl (the Verilated units); default: "
                        "the config's td.datapath")
      ->check(CLI::IsMember({"cpp", "rtl"}));
  bench_cmd->add_option("--paths", bench.paths,
                        "Paths to time, comma-separated (default: all): " +
                            fmt::format("{}", fmt::join(td::tb::speed_path_names(), ", ")));
  bench_cmd->add_option("--waves", bench.speed.waves_per_td, "Wave64 instructions per TD in each peak phase")
      ->check(td::tb::unsigned_in(1, 1000000))
      ->capture_default_str();
  bench_cmd->add_option("--bandwidth-waves", bench.speed.bandwidth_waves_per_td,
                        "Wave64 instructions per TD per bandwidth point (path memory_bound)")
      ->check(td::tb::unsigned_in(1, 1000000))
      ->capture_default_str();
  bench_cmd->add_option("--check-cases", bench.speed.check_cases, "Random vector cases of the check path")
      ->check(td::tb::unsigned_in(1, 10000000))
      ->capture_default_str();
  bench_cmd->add_option("--threads", bench.speed.threads, "Threads of the peak_threads path")
      ->check(td::tb::unsigned_in(2, kMaxChipThreads))
      ->capture_default_str();
  bench_cmd->add_option("--json", bench.json, "Write the figures to FILE as JSON");
  add_set_option(bench_cmd, bench.sets);

  GenOptions gen;
  CLI::App* gen_cmd =
      app.add_subcommand("gen-vectors", "Write reference vectors with expectations from the golden reference");
  gen_cmd->add_option("--kind", gen.kind, "edge: one case per contract rule; random: seeded random cases")
      ->required()
      ->check(CLI::IsMember({"edge", "random"}));
  gen_cmd->add_option("--seed", gen.seed, "Random seed (kind random)")
      ->check(td::tb::unsigned_in(0, UINT64_MAX))
      ->capture_default_str();
  gen_cmd->add_option("--count", gen.count, "Number of cases (kind random)")
      ->check(td::tb::unsigned_in(1, 10000000))
      ->capture_default_str();
  gen_cmd->add_option("-o,--output", gen.output, "Output .tdv file")->required();

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

  const std::vector<CLI::App*> commands{run_cmd,     check_cmd, peak_cmd,  bench_cmd,
                                        gen_cmd,     regress_cmd, sweep_cmd, calibrate_cmd};
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
    if (*check_cmd) return run_check(check_cmd, check);
    if (*gen_cmd) return run_gen_vectors(gen_cmd, gen);
    if (*peak_cmd) return run_peak(peak_cmd, peak);
    if (*bench_cmd) return run_bench(bench_cmd, bench);
    if (*regress_cmd) return td::tb::run_regress_command(regress_cmd, regress);
    if (*sweep_cmd) return td::tb::run_sweep_command(sweep_cmd, sweep);
    if (*calibrate_cmd) return td::tb::run_calibrate_command(calibrate_cmd, calibrate);
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

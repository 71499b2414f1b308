// tdsim — command-line front end. Exit codes: 0 success, 1 a check failed,
// 2 bad input (flag, config, vector file) with an error naming it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/chip/config.h"
#include "model/sim/debug.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "tb/atomic_file.h"
#include "tb/check.h"
#include "tb/engine.h"
#include "tb/microbench.h"
#include "tb/tdv.h"
#include "tb/vector_gen.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;

#ifndef TDSIM_DEFAULT_CONFIG
#define TDSIM_DEFAULT_CONFIG "configs/xbox_series_x.yaml"
#endif

struct CheckOptions {
  std::vector<std::string> files;
  std::string engine = "ref";
  td::tb::EngineOptions engine_options{TDSIM_DEFAULT_CONFIG, 64};
  std::vector<std::string> stats;
};

// Output files named on the command line, checked before anything runs.
struct OutputOptions {
  std::string json;
  std::vector<std::string> stats;  // .json or .csv each
  std::string trace;               // .vcd
  uint64_t trace_start = 0;
  uint64_t trace_cycles = td::sim::VcdWriter::kForever;
};

void validate_outputs(const OutputOptions& outputs) {
  const auto ends_with = [](const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  for (const std::string& path : outputs.stats)
    if (!ends_with(path, ".json") && !ends_with(path, ".csv"))
      throw std::invalid_argument(fmt::format("--stats {}: the file name must end in .json or .csv", path));
  if (!outputs.trace.empty() && !ends_with(outputs.trace, ".vcd"))
    throw std::invalid_argument(fmt::format("--trace {}: the file name must end in .vcd", outputs.trace));
}

void write_stats(const OutputOptions& outputs, const td::sim::StatsRegistry& stats) {
  for (const std::string& path : outputs.stats) {
    const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    td::tb::write_file_atomically(path, json ? stats.to_json() : stats.to_csv());
  }
}

int run_check(const CheckOptions& options) {
  // Read and validate everything first: a malformed file runs nothing.
  std::vector<td::tb::TdvFile> files;
  bool malformed = false;
  for (const std::string& path : options.files) {
    td::tb::TdvParse parse = td::tb::read_tdv_file(path);
    for (const td::tb::TdvError& error : parse.errors) std::cerr << "error: " << error.to_string() << "\n";
    malformed = malformed || !parse.ok();
    files.push_back(std::move(parse.file));
  }
  if (malformed) return kExitBadInput;
  OutputOptions outputs;
  outputs.stats = options.stats;
  validate_outputs(outputs);
  if (!outputs.stats.empty() && options.engine == "ref")
    throw std::invalid_argument("--stats: the ref engine has no timing statistics (use --engine model)");

  auto engine = td::tb::make_engine(options.engine, options.engine_options);
  if (!engine) {
    std::cerr << fmt::format("error: --engine: unknown engine '{}'\n", options.engine);
    return kExitBadInput;
  }
  const td::tb::CheckSummary summary = td::tb::check_files(files, *engine, std::cout);
  if (engine->stats()) write_stats(outputs, *engine->stats());
  std::cout << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
  return summary.failed == 0 ? kExitOk : kExitCheckFailed;
}

struct PeakOptions {
  std::string config = TDSIM_DEFAULT_CONFIG;
  td::tb::MicrobenchOptions bench;
  OutputOptions outputs;
};

int run_peak(const PeakOptions& options) {
  validate_outputs(options.outputs);
  const td::cfg::Config config = td::cfg::load_config(options.config);
  td::sim::StatsRegistry stats;
  std::unique_ptr<td::sim::VcdWriter> vcd;
  if (!options.outputs.trace.empty())
    vcd = std::make_unique<td::sim::VcdWriter>(options.outputs.trace, config.period_ps(),
                                               options.outputs.trace_start, options.outputs.trace_cycles);
  const td::tb::MicrobenchReport report = td::tb::run_microbenchmarks(config, options.bench, stats, vcd.get());
  if (vcd) vcd->close();
  std::cout << td::tb::format_report(report);
  if (!options.outputs.json.empty()) td::tb::write_file_atomically(options.outputs.json, td::tb::report_json(report));
  write_stats(options.outputs, stats);
  return report.mismatches == 0 ? kExitOk : kExitCheckFailed;
}

void add_output_options(CLI::App* command, OutputOptions& outputs) {
  command->add_option("--stats", outputs.stats, "Write every statistic to FILE (.json or .csv); repeatable");
  command->add_option("--trace", outputs.trace, "Write a VCD trace of the TD pipelines to FILE.vcd");
  command->add_option("--trace-start", outputs.trace_start, "First traced cycle")->capture_default_str();
  command->add_option("--trace-cycles", outputs.trace_cycles, "Number of traced cycles (default: to the end)");
}

struct BenchOptions {
  std::string config = TDSIM_DEFAULT_CONFIG;
  bool single_td = false;
  bool scoreboard = true;
  uint32_t waves_per_td = 256;
  std::string json;
};

int run_bench(const BenchOptions& options) {
  td::cfg::Config config = td::cfg::load_config(options.config);
  if (options.single_td) {
    config.chip.wgps = config.chip.tds_per_wgp = config.chip.shader_arrays = 1;
    config.chip.name += " (one TD)";
  }
  const td::tb::SpeedReport report = td::tb::run_speed_benchmark(config, options.waves_per_td, options.scoreboard);
  std::cout << td::tb::format_speed_report(report);
  if (!options.json.empty()) td::tb::write_file_atomically(options.json, td::tb::speed_report_json(report));
  return kExitOk;
}

struct GenOptions {
  std::string kind;
  uint64_t seed = 1;
  size_t count = 1000;
  std::string output;
};

int run_gen_vectors(const GenOptions& options) {
  std::vector<td::tb::TdvCase> cases = options.kind == "edge" ? td::tb::edge_vectors()
                                                             : td::tb::random_vectors(options.seed, options.count);
  std::vector<std::string> comments{
      options.kind == "edge"
          ? std::string("tdsim gen-vectors --kind edge: one case per rule of contract v1 and its boundaries")
          : fmt::format("tdsim gen-vectors --kind random --seed {} --count {}", options.seed, options.count),
      "expectations from tdsim's golden reference (model/ref)"};
  td::tb::write_file_atomically(options.output, td::tb::format_tdv(cases, comments));
  std::cerr << fmt::format("wrote {} cases to {}\n", cases.size(), options.output);
  return kExitOk;
}

}  // namespace

// `--debug td,mem`: named debug lines on stderr (see model/sim/debug.h).
void add_debug_option(CLI::App* command) {
  command->add_option_function<std::string>(
      "--debug",
      [](const std::string& names) {
        const std::string unknown = td::sim::enable_debug(names);
        if (!unknown.empty())
          throw CLI::ValidationError("--debug", fmt::format("unknown category '{}' (known: {})", unknown,
                                                            td::sim::debug_category_names()));
      },
      fmt::format("Print debug lines of the named parts on stderr: {}", td::sim::debug_category_names()));
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep stdout to our own output
  CLI::App app{"tdsim: cycle-level model of the RDNA2 TD ray-intersection hardware"};
  app.require_subcommand(1);

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Run reference-vector files through an engine; one line per mismatch, then 'N passed, M failed'");
  check_cmd->add_option("files", check.files, "Vector files (.tdv)")->required();
  check_cmd->add_option("--engine", check.engine, "Engine to check: ref (golden reference) or model (SystemC timing model)")
      ->check(CLI::IsMember(td::tb::engine_names()))
      ->capture_default_str();
  check_cmd->add_option("--config", check.engine_options.config_path, "Chip configuration (engine model)")
      ->capture_default_str();
  check_cmd->add_option("--lanes-per-wave", check.engine_options.lanes_per_wave, "Lanes per wave instruction: 32 or 64")
      ->check(CLI::IsMember({32u, 64u}))
      ->capture_default_str();
  check_cmd->add_option("--stats", check.stats, "Write the timing model's statistics to FILE (.json or .csv)");
  add_debug_option(check_cmd);

  PeakOptions peak;
  CLI::App* peak_cmd = app.add_subcommand(
      "peak", "Microbenchmarks on the timing model: peak box/triangle rates, latency per level, bandwidth limits");
  peak_cmd->add_option("--config", peak.config, "Chip configuration (YAML)")->capture_default_str();
  peak_cmd->add_option("--json", peak.outputs.json, "Write the measured figures to FILE as JSON");
  peak_cmd->add_option("--waves", peak.bench.waves_per_td, "Measured wave64 instructions per TD in each peak phase")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  peak_cmd->add_option("--bandwidth-waves", peak.bench.bandwidth_waves_per_td,
                       "Measured wave64 instructions per TD per bandwidth point")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  peak_cmd->add_option("--seed", peak.bench.seed, "Seed of rays and nodes")->capture_default_str();
  peak_cmd->add_flag("!--no-latency", peak.bench.latency, "Skip the latency microbenchmark");
  peak_cmd->add_flag("!--no-bandwidth", peak.bench.bandwidth, "Skip the bandwidth microbenchmarks");
  add_output_options(peak_cmd, peak.outputs);
  add_debug_option(peak_cmd);

  BenchOptions bench;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench", "Simulation speed: the timing model on the peak microbenchmark vs the reference on the same lanes");
  bench_cmd->add_option("--config", bench.config, "Chip configuration (YAML)")->capture_default_str();
  bench_cmd->add_flag("--single-td", bench.single_td, "Simulate one TD (1 WGP x 1 TD) of that configuration");
  bench_cmd->add_flag("!--no-scoreboard", bench.scoreboard, "Do not check lanes against the reference while timing");
  bench_cmd->add_option("--waves", bench.waves_per_td, "Wave64 instructions per TD in each phase")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  bench_cmd->add_option("--json", bench.json, "Write the figures to FILE as JSON");

  GenOptions gen;
  CLI::App* gen_cmd =
      app.add_subcommand("gen-vectors", "Write reference vectors with expectations from the golden reference");
  gen_cmd->add_option("--kind", gen.kind, "edge: one case per contract rule; random: seeded random cases")
      ->required()
      ->check(CLI::IsMember({"edge", "random"}));
  gen_cmd->add_option("--seed", gen.seed, "Random seed (kind random)")->capture_default_str();
  gen_cmd->add_option("--count", gen.count, "Number of cases (kind random)")
      ->check(CLI::Range(size_t{1}, size_t{10000000}))
      ->capture_default_str();
  gen_cmd->add_option("-o,--output", gen.output, "Output .tdv file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*check_cmd) return run_check(check);
    if (*gen_cmd) return run_gen_vectors(gen);
    if (*peak_cmd) return run_peak(peak);
    if (*bench_cmd) return run_bench(bench);
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return kExitBadInput;
  }
  return kExitBadInput;
}

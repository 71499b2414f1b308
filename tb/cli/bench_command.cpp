#include "tb/cli/bench_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "model/config/config.h"
#include "tb/cli/common_options.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/unsigned_option.h"
#include "tb/common/atomic_file.h"

namespace td::tb {

using namespace cli;

CLI::App* add_bench_command(CLI::App& app, BenchCommandOptions& options, const std::string& default_config) {
  options.config = default_config;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench",
      "Simulation speed: the timing model on the peak and memory-bound microbenchmarks, on threads and in check, "
      "each against the golden reference on the same lanes");
  add_config_option(bench_cmd, options.config);
  bench_cmd->add_flag("--single-td", options.single_td, "Simulate one TD (1 WGP x 1 TD) of that configuration");
  bench_cmd->add_option("--datapath", options.datapath,
                        "The TD's datapaths: cpp (the reference's maths) or rtl (the Verilated units); default: "
                        "the config's td.datapath")
      ->check(CLI::IsMember(cfg::datapath_words()));
  bench_cmd->add_option("--paths", options.paths,
                        "Paths to time, comma-separated (default: all): " +
                            fmt::format("{}", fmt::join(speed_path_names(), ", ")));
  bench_cmd->add_option("--waves", options.speed.waves_per_td, "Wave64 instructions per TD in each peak phase")
      ->check(unsigned_in(1, 1000000))
      ->capture_default_str();
  bench_cmd->add_option("--bandwidth-waves", options.speed.bandwidth_waves_per_td,
                        "Wave64 instructions per TD per bandwidth point (path memory_bound)")
      ->check(unsigned_in(1, 1000000))
      ->capture_default_str();
  bench_cmd->add_option("--check-cases", options.speed.check_cases, "Random vector cases of the check path")
      ->check(unsigned_in(1, 10000000))
      ->capture_default_str();
  bench_cmd->add_option("--threads", options.speed.threads, "Threads of the peak_threads path")
      ->check(unsigned_in(2, kMaxChipThreads))
      ->capture_default_str();
  bench_cmd->add_option("--json", options.json, "Write the figures to FILE as JSON");
  add_set_option(bench_cmd, options.sets);
  return bench_cmd;
}

int run_bench_command(const CLI::App* command, BenchCommandOptions options) {
  cfg::Config config = load_chip_config(options.config, options.sets);
  if (!options.datapath.empty()) config = cfg::with_datapath(config, options.datapath);
  const bool rtl = config.td.datapath == "rtl";
  for (size_t start = 0; start < options.paths.size();) {
    const size_t comma = std::min(options.paths.find(',', start), options.paths.size());
    const std::string name = options.paths.substr(start, comma - start);
    const auto& names = speed_path_names();
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
      for (const std::string& name : speed_path_names())
        if (name != "peak_threads") options.speed.paths.push_back(name);
  }
  OutputPaths outputs;
  outputs.add("--json", options.json);
  outputs.prepare();
  if (options.single_td) {
    config.chip.wgps = config.chip.tds_per_wgp = config.chip.shader_arrays = 1;
    config.chip.name += " (one TD)";
  }
  const SpeedReport report = run_speed_benchmark(config, options.speed);
  std::cout << format_speed_report(report);
  if (!options.json.empty()) write_file_atomically(options.json, speed_report_json(report));
  return kExitOk;
}

}  // namespace td::tb

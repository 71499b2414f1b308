#include "tb/cli/calibrate_command.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>

#include "model/config/config.h"
#include "model/sim/json_writer.h"
#include "tb/cli/common_options.h"
#include "tb/cli/output_paths.h"
#include "tb/common/atomic_file.h"
#include "tb/common/self_process.h"
#include "tb/common/text_file.h"
#include "tb/report/chip_figures.h"

namespace td::tb {
namespace {

namespace fs = std::filesystem;

// The fixed workloads, each a tdsim command run in a process of its own
// (one chip per process). The passes trace the default level at 640x360.
struct Workload {
  const char* name;
  std::vector<std::string> arguments;  // after the command's --config and --set
  const char* what;                    // for the report
};

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> list = {
      {"latency", {"peak", "--waves", "1", "--no-bandwidth"},
       "tdsim peak's one-lane latencies: a node fetched from each level, accept to return"},
      {"rt_pass",
       {"run", "--scoreboard", "off", "--rays", "diffuse", "--width", "640", "--height", "360", "--set",
        "shader.waves_per_simd=0", "--set", "shader.vgprs=96"},
       "a game's RT pass: diffuse rays from the level's primary hits, closest hit, 96 VGPRs (Cyberpunk 2077's)"},
      {"path_tracing",
       {"run", "--scoreboard", "off", "--rays", "diffuse", "--width", "640", "--height", "360", "--set",
        "shader.waves_per_simd=0", "--set", "shader.vgprs=253"},
       "a path tracer's bounce: the same rays at 253 VGPRs (Cyberpunk 2077's path tracing)"},
      {"dxr_test",
       {"run", "--scoreboard", "off", "--width", "640", "--height", "360"},
       "the 3DMark DXR feature test's stand-in: the level's primary rays at the config's occupancy (coherent "
       "rays, the test's own camera-ray workload)"},
  };
  return list;
}

// What the workloads reported: each one's report.json and, for runs, its stats.
struct Results {
  std::map<std::string, YAML::Node> report, stats;
  double clock_mhz = 0;

  double number(const std::string& workload, const std::vector<std::string>& path) const {
    YAML::Node node = report.at(workload);
    for (const std::string& key : path) {
      const YAML::Node& parent = node;  // (const: a lookup adds nothing)
      const YAML::Node child = parent[key];
      if (!child) throw std::runtime_error(fmt::format("calibrate: the {} workload's report has no {}", workload, key));
      node.reset(child);  // (not =, which would assign the child's value into the report)
    }
    return node.as<double>();
  }
  double stat(const std::string& workload, const std::string& name) const {
    const YAML::Node node = stats.at(workload)["stats"][name];
    return node ? node["value"].as<double>() : 0.0;
  }
  double latency_ns(const std::string& level) const {
    return number("latency", {"latency_cycles", level}) / clock_mhz * 1e3;
  }
  // Of the L0's requests, the share its first `levels` levels serve (as the run report counts it).
  double served_within(const std::string& workload, size_t levels) const {
    std::vector<report::LevelFigures> figures;
    for (const char* level : {"L0", "L1", "L2"}) {
      report::LevelFigures f;
      f.hits = static_cast<uint64_t>(number(workload, {"caches", level, "hits"}));
      f.misses = static_cast<uint64_t>(number(workload, {"caches", level, "misses"}));
      figures.push_back(f);
    }
    return report::served_within(figures, levels);
  }
  // Wave-cycles one wait for the TD took (an intersect's results, or a group of loads': one s_waitcnt).
  double wait_per_result(const std::string& workload) const {
    const double waits = stat(workload, "chip.shader.waits");
    return waits > 0 ? stat(workload, "chip.shader.td_wait_cycles") / waits : 0.0;
  }
};

// One published figure. The band is the figure as published: a range as
// given; "~X" as X +-10% (a latency) or +-2 points (a rate); "just under /
// above X" as 5 points or 10% on that side; a figure we derived, +-25%.
struct Row {
  const char* figure;
  const char* source;    // card, title or test, and where it was published
  const char* measured;  // as published
  double low, high;      // the band, in `unit`
  const char* unit;      // "ns", "%" (shown x100), "waves", "cycles", ":1"
  std::function<double(const Results&)> model;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      {"L2 hit, load-to-use", "RX 6800 XT / 6900 XT, pointer chasing (Chips and Cheese, raytracing on RDNA 2/3)",
       "just above 80 ns", 80, 88, "ns", [](const Results& r) { return r.latency_ns("l2"); }},
      {"L2 hit beyond an L0 hit", "same (measuring GPU memory latency)", "~66 ns", 59.4, 72.6, "ns",
       [](const Results& r) { return r.latency_ns("l2") - r.latency_ns("l0"); }},
      {"DRAM, load-to-use", "RX 6900 XT 226 ns, desktop RDNA2 over 250 ns, an Infinity Cache lookup included "
       "(Chips and Cheese; Series X has no Infinity Cache)",
       "226-250 ns", 226, 250, "ns", [](const Results& r) { return r.latency_ns("dram"); }},
      {"RT pass: occupancy", "Cyberpunk 2077 RT, RX 6900 XT, RGP (shooting for the top): 96 VGPRs",
       "10 waves per SIMD", 10, 10, "waves", [](const Results& r) { return r.number("rt_pass", {"waves_per_simd"}); }},
      {"RT pass: L0 hit rate", "same, the longest DispatchRays", "just under 55%", 0.50, 0.55, "%",
       [](const Results& r) { return r.served_within("rt_pass", 1); }},
      {"RT pass: L0+L1 hit rate", "same, two DispatchRays (shooting for the top; raytracing on RDNA 2/3)",
       "< 73%, 78.6%", 0.70, 0.79, "%", [](const Results& r) { return r.served_within("rt_pass", 2); }},
      {"RT pass: served by L2 or closer", "same (shooting for the top)", "up to 95.4%", 0.934, 0.974, "%",
       [](const Results& r) { return r.served_within("rt_pass", 3); }},
      {"RT pass: RT unit busy", "same, a DispatchRays (raytracing on RDNA 2/3)", "7.2-29%", 0.072, 0.29, "%",
       [](const Results& r) { return r.number("rt_pass", {"td_utilisation"}); }},
      {"RT pass: box to triangle tests", "Cyberpunk 2077 28.7 G box/s to 3.21 G tri/s, its frame 580 M to 109.5 M; "
       "3DMark DXR 38.8 G to 10.76 G (derived ratios)",
       "3.6-8.9 : 1", 3.6, 8.9, ":1",
       [](const Results& r) { return r.number("rt_pass", {"box_tests"}) / r.number("rt_pass", {"tri_tests"}); }},
      {"RT pass: box tests, share of peak", "Cyberpunk 2077 28.7 G box/s of an RX 6900 XT's ~720 G/s (derived: 80 CUs "
       "x 4 boxes x ~2.25 GHz)",
       "~4.0%", 0.030, 0.050, "%",
       [](const Results& r) {
         return r.number("rt_pass", {"box_tests_per_s"}) / r.number("rt_pass", {"box_peak_per_s"});
       }},
      {"Path tracing: occupancy", "Cyberpunk 2077 path tracing, 1920x1080, RX 6900 XT, RGP (Chips and Cheese): 253 "
       "VGPRs",
       "4 waves per SIMD", 4, 4, "waves",
       [](const Results& r) { return r.number("path_tracing", {"waves_per_simd"}); }},
      {"Path tracing: L0 hit rate", "same", "65.9%", 0.639, 0.679, "%",
       [](const Results& r) { return r.served_within("path_tracing", 1); }},
      {"Path tracing: L0+L1 hit rate", "same", "79.4%", 0.774, 0.814, "%",
       [](const Results& r) { return r.served_within("path_tracing", 2); }},
      {"Path tracing: served by L2 or closer", "same", "96.5%", 0.945, 0.985, "%",
       [](const Results& r) { return r.served_within("path_tracing", 3); }},
      {"Path tracing: wait for one memory result", "same: 553 clocks at one s_waitcnt vmcnt (here: the mean "
       "wave-cycles of a wait for the TD, an intersect's or a group of loads')",
       "553 cycles", 442, 664, "cycles", [](const Results& r) { return r.wait_per_result("path_tracing"); }},
      {"DXR feature test: box tests, share of peak", "3DMark DXR feature test, 38.8 G box/s (Chips and Cheese, RDNA "
       "4's raytracing improvements)",
       "~10% of peak", 0.08, 0.12, "%",
       [](const Results& r) {
         return r.number("dxr_test", {"box_tests_per_s"}) / r.number("dxr_test", {"box_peak_per_s"});
       }},
  };
  return table;
}

std::string shown(double value, const std::string& unit) {
  if (unit == "%") return fmt::format("{:.1f}%", 100 * value);
  if (unit == ":1") return fmt::format("{:.1f} : 1", value);
  if (unit == "waves") return fmt::format("{:.0f}", value);
  return fmt::format("{:.1f} {}", value, unit);
}
std::string band(const Row& row) {
  if (row.low == row.high) return shown(row.low, row.unit);
  if (std::string(row.unit) == "%") return fmt::format("{:.1f}-{:.1f}%", 100 * row.low, 100 * row.high);
  if (std::string(row.unit) == ":1") return fmt::format("{:g}-{:g} : 1", row.low, row.high);
  return fmt::format("{:g}-{:g} {}", row.low, row.high, row.unit);
}
// An error as the table shows it: whole percent, a tenth below one percent.
std::string error_text(double error) {
  return error != 0 && std::abs(error) < 0.01 ? fmt::format("{:+.1f}%", 100 * error)
                                               : fmt::format("{:+.0f}%", 100 * error);
}
// 0 inside the band, else how far past its nearer edge, relative to it.
double error_of(const Row& row, double model) {
  if (model < row.low) return (model - row.low) / row.low;
  if (model > row.high) return (model - row.high) / row.high;
  return 0;
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options, const std::string& default_config) {
  options.config = default_config;
  CLI::App* calibrate = app.add_subcommand(
      "calibrate", "Run fixed workloads and set the chip's figures beside public RDNA2 measurements");
  cli::add_config_option(calibrate, options.config);
  cli::add_set_option(calibrate, options.sets);
  calibrate->add_option("--json", options.json, "Write the rows to FILE as JSON");
  calibrate->add_option("--markdown", options.markdown, "Write the table to FILE as Markdown (docs/calibration.md's)");
  return calibrate;
}

int run_calibrate_command(const CLI::App* /*command*/, const CalibrateOptions& options) {
  const cfg::Config config = cli::load_chip_config(options.config, options.sets);  // a bad one is refused first
  OutputPaths outputs;
  outputs.add("--json", options.json);
  outputs.add("--markdown", options.markdown);
  outputs.prepare();
  const std::string config_path = cli::resolve_config(options.config);
  std::cout << fmt::format("tdsim calibrate: {} ({}) against public RDNA2 measurements\n", config.chip.name,
                           options.config);
  const ScratchFolder scratch("tdsim-calibrate");
  Results results;
  results.clock_mhz = config.chip.clock_mhz;
  for (const Workload& w : workloads()) {
    std::vector<std::string> arguments{w.arguments.front(), "--config", config_path};
    for (const std::string& set : options.sets) arguments.insert(arguments.end(), {"--set", set});
    arguments.insert(arguments.end(), w.arguments.begin() + 1, w.arguments.end());
    const fs::path report = scratch.path() / (std::string(w.name) + ".json");
    const fs::path stats = scratch.path() / (std::string(w.name) + ".stats.json");
    arguments.insert(arguments.end(), {w.arguments.front() == "run" ? "--report" : "--json", report.string()});
    if (w.arguments.front() == "run") arguments.insert(arguments.end(), {"--stats", stats.string()});
    std::cout << fmt::format("  {}: {}\n", w.name, w.what);
    const SelfRun run = run_self(arguments, (scratch.path() / (std::string(w.name) + ".log")).string());
    if (run.exit_code != 0) {
      std::cout << fmt::format("calibrate: workload {} exited {}\n{}", w.name, run.exit_code, run.output);
      return run.exit_code == 2 ? 2 : 1;
    }
    results.report[w.name] = YAML::Load(read_text_file(report));
    if (fs::exists(stats)) results.stats[w.name] = YAML::Load(read_text_file(stats));
  }

  std::cout << fmt::format("\n{:<44} {:>18} {:>14} {:>12} {:>8}  {}\n", "figure", "measured", "band", "model",
                           "error", "in band");
  sim::JsonWriter json;
  json.begin_object().key("chip").value(config.chip.name).key("config").value(config_path).key("rows").begin_array();
  std::string markdown = fmt::format(
      "| figure | measured on | published | band | {} | error | in band |\n|---|---|---|---|---:|---:|---|\n",
      config.chip.name);
  size_t in_band = 0;
  for (const Row& row : rows()) {
    const double model = row.model(results);
    const double error = error_of(row, model);
    const bool inside = error == 0 && std::isfinite(model);
    in_band += inside;
    std::cout << fmt::format("{:<44} {:>18} {:>14} {:>12} {:>8}  {}\n", row.figure, row.measured, band(row),
                             shown(model, row.unit), error_text(error), inside ? "yes" : "no");
    json.begin_object()
        .key("figure").value(row.figure)
        .key("source").value(row.source)
        .key("measured").value(row.measured)
        .key("band").begin_array().value(row.low).value(row.high).end_array()
        .key("unit").value(std::string(row.unit) == "%" ? "fraction" : row.unit)
        .key("model").value(model)
        .key("error").value(error)
        .key("in_band").value(inside)
        .end_object();
    markdown += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.figure, row.source, row.measured,
                            band(row), shown(model, row.unit), error_text(error), inside ? "yes" : "**no**");
  }
  json.end_array().key("in_band").value(uint64_t{in_band}).key("rows_total").value(uint64_t{rows().size()});
  json.end_object();
  std::cout << fmt::format("calibrate: {} of {} figures in their band\n", in_band, rows().size());
  if (!options.json.empty()) write_file_atomically(options.json, json.text());
  if (!options.markdown.empty()) write_file_atomically(options.markdown, markdown);
  return 0;
}

}  // namespace td::tb

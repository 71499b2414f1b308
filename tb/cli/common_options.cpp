#include "tb/cli/common_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "model/sim/debug.h"
#include "tb/common/atomic_file.h"
#include "tb/cli/unsigned_option.h"

namespace td::tb::cli {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void refuse_if_given(const CLI::App* command, const std::string& flag, const std::string& reason) {
  if (command->count(flag) > 0) throw UsageError(fmt::format("{} has no effect {}", flag, reason));
}

void add_stats_option(CLI::App* command, std::vector<std::string>& stats, const std::string& what) {
  command->add_option("--stats", stats, what + " to FILE (.json or .csv); repeatable");
}

void check_stats_names(const std::vector<std::string>& stats) {
  for (const std::string& path : stats)
    if (!ends_with(path, ".json") && !ends_with(path, ".csv"))
      throw UsageError(fmt::format("--stats {}: the file name must end in .json or .csv", path));
}

void write_stats(const std::vector<std::string>& paths, const sim::StatsRegistry& stats) {
  for (const std::string& path : paths)
    write_file_atomically(path, ends_with(path, ".json") ? stats.to_json() : stats.to_csv());
}

void add_trace_options(CLI::App* command, TraceOptions& trace) {
  command->add_option("--trace", trace.path,
                      "Write a waveform of the TD pipelines to FILE.vcd, or FILE.fst (compressed, via GTKWave's vcd2fst)");
  command->add_option("--trace-start", trace.start, "First traced cycle")
      ->check(unsigned_in(0, UINT64_MAX / 1000000))  // stays within VCD picoseconds at any clock
      ->capture_default_str();
  command->add_option("--trace-cycles", trace.cycles,
                      fmt::format("Cycles to trace: N or 'all' (default {})", kDefaultTraceCycles));
}

void check_trace_options(const CLI::App* command, const TraceOptions& trace) {
  if (trace.path.empty()) {
    refuse_if_given(command, "--trace-start", "without --trace");
    refuse_if_given(command, "--trace-cycles", "without --trace");
    return;
  }
  check_trace_path(trace.path);
  if (!trace.cycles.empty()) parse_trace_cycles(trace.cycles);
}

std::unique_ptr<TraceOutput> open_trace(const TraceOptions& trace, uint64_t period_ps) {
  if (trace.path.empty()) return nullptr;
  const uint64_t cycles = trace.cycles.empty() ? kDefaultTraceCycles : parse_trace_cycles(trace.cycles);
  auto output = std::make_unique<TraceOutput>(trace.path, period_ps, trace.start, cycles);
  std::cerr << fmt::format("trace: {} to {} (--trace-start, --trace-cycles N|all to change)\n",
                           output->window_text(), trace.path);
  return output;
}

void add_debug_option(CLI::App* command) {
  command->add_option_function<std::string>(
      "--debug",
      [](const std::string& names) {
        const std::string unknown = sim::enable_debug(names);
        if (!unknown.empty())
          throw CLI::ValidationError("--debug", fmt::format("unknown category '{}' (known: {})", unknown,
                                                            sim::debug_category_names()));
      },
      fmt::format("Print debug lines of the named parts on stderr: {}", sim::debug_category_names()));
}

void add_set_option(CLI::App* command, std::vector<std::string>& sets) {
  command->add_option("--set", sets,
                      "Give one configuration key another value, e.g. --set l1.mshrs=128 (repeatable; checked like "
                      "the file)");
}

void add_config_option(CLI::App* command, std::string& config, const std::string& what) {
  command->add_option("--config", config, what + ": a YAML file, or a shipped one's name")->capture_default_str();
}

std::string resolve_config(const std::string& file_or_name) {
  namespace fs = std::filesystem;
  if (fs::exists(file_or_name) || file_or_name.find('/') != std::string::npos ||
      ends_with(file_or_name, ".yaml"))
    return file_or_name;
  const fs::path shipped = fs::path(TDSIM_DEFAULT_CONFIG).parent_path();
  const fs::path named = shipped / (file_or_name + ".yaml");
  if (fs::exists(named)) return named.string();
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(shipped))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  throw cfg::ConfigError(file_or_name, "",
                         fmt::format("no such file, and no shipped configuration of that name (shipped: {})",
                                     fmt::join(names, ", ")));
}

std::vector<cfg::Override> overrides_of(const std::vector<std::string>& sets) {
  std::vector<cfg::Override> overrides;
  for (const std::string& text : sets) {
    overrides.push_back(cfg::parse_override(text));
    for (size_t i = 0; i + 1 < overrides.size(); ++i)
      if (overrides[i].key == overrides.back().key)
        throw cfg::ConfigError(overrides.back().text(), "", fmt::format("{} is set twice", overrides.back().key));
  }
  return overrides;
}

cfg::Config load_chip_config(const std::string& file_or_name, const std::vector<std::string>& sets) {
  return cfg::load_config(resolve_config(file_or_name), overrides_of(sets));
}

uint64_t parse_scoreboard(const std::string& text) {
  if (text == "all") return 1;
  if (text == "off") return 0;
  const std::string prefix = "sample:";
  if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size() && text.size() <= prefix.size() + 9 &&
      text.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
    const uint64_t every = std::stoull(text.substr(prefix.size()));
    if (every >= 1) return every;
  }
  throw UsageError(fmt::format("--scoreboard: expected all, off or sample:N with N >= 1, got '{}'", text));
}

void add_chip_threads_option(CLI::App* command, unsigned& threads) {
  command
      ->add_option("--threads", threads,
                   "Threads that tick the chip's TDs within a clock; any number gives the same results")
      ->check(unsigned_in(1, kMaxChipThreads))
      ->capture_default_str();
}

void check_chip_threads(unsigned threads, const cfg::Config& config) {
  if (threads > 1 && config.td.datapath == "rtl")
    throw UsageError(fmt::format("--threads {}: the rtl datapaths (td.datapath: rtl) run on one thread", threads));
}

}  // namespace td::tb::cli

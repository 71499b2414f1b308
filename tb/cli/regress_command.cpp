#include "tb/cli/regress_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "model/config/config.h"
#include "tb/cli/common_options.h"
#include "tb/common/atomic_file.h"
#include "tb/common/self_process.h"
#include "tb/common/text_file.h"
#include "tb/regress/golden_stats.h"

namespace td::tb {
namespace {

namespace fs = std::filesystem;
using cli::UsageError;

// A workload: NAME.args holds its arguments on one line ('#' lines are comments).
struct Workload {
  std::string name;
  std::vector<std::string> arguments;
};

std::vector<Workload> read_workloads(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw UsageError(fmt::format("--dir {}: not a folder", dir.string()));
  std::vector<Workload> workloads;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".args") continue;
    Workload w{entry.path().stem().string(), {}};
    std::istringstream lines(read_text_file(entry.path()));
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      for (std::string word; words >> word;) w.arguments.push_back(word);
    }
    if (w.arguments.empty()) throw UsageError(entry.path().string() + ": no arguments");
    workloads.push_back(std::move(w));
  }
  if (workloads.empty()) throw UsageError(fmt::format("--dir {}: no workloads (NAME.args files)", dir.string()));
  std::sort(workloads.begin(), workloads.end(), [](const Workload& a, const Workload& b) { return a.name < b.name; });
  return workloads;
}

}  // namespace

CLI::App* add_regress_command(CLI::App& app, RegressOptions& options, const std::string& default_dir) {
  options.dir = default_dir;
  CLI::App* regress = app.add_subcommand(
      "regress", "Run the fixed workloads of tests/regress and compare every statistic with the expected one");
  regress->add_option("--dir", options.dir, "Folder of workloads (NAME.args) and their statistics (NAME.csv)")
      ->capture_default_str();
  regress->add_flag("--update", options.update, "Write the statistics as they are now instead of comparing");
  cli::add_set_option(regress, options.sets);
  return regress;
}

int run_regress_command(const CLI::App* /*command*/, const RegressOptions& options) {
  const fs::path dir = options.dir;
  const std::vector<Workload> workloads = read_workloads(dir);
  (void)cli::overrides_of(options.sets);  // malformed --set: refused before anything runs
  const ScratchFolder scratch("tdsim-regress");
  size_t changed = 0, missing = 0;
  for (const Workload& w : workloads) {
    const fs::path stats = scratch.path() / (w.name + ".csv");
    std::vector<std::string> arguments = w.arguments;
    for (const std::string& set : options.sets) arguments.insert(arguments.end(), {"--set", set});
    arguments.insert(arguments.end(), {"--stats", stats.string()});
    const std::string shown = fmt::format("{}", fmt::join(w.arguments, " "));
    const SelfRun run = run_self(arguments, (scratch.path() / (w.name + ".log")).string());
    if (run.exit_code != 0) {
      std::cout << fmt::format("regress {} (tdsim {}): exit {}\n{}", w.name, shown, run.exit_code, run.output);
      return run.exit_code == 2 ? 2 : 1;
    }
    const std::string now = read_text_file(stats);
    const std::vector<Statistic> actual = read_stats_csv(now, stats.string());
    const fs::path golden = dir / (w.name + ".csv");
    if (options.update) {
      write_file_atomically(golden.string(), now);
      std::cout << fmt::format("regress {}: {} statistics written to {}\n", w.name, actual.size(), golden.string());
      continue;
    }
    if (!fs::exists(golden)) {
      ++missing;
      std::cout << fmt::format("regress {}: no expected statistics ({} is missing: tdsim regress --update)\n", w.name,
                               golden.string());
      continue;
    }
    const std::vector<StatChange> changes = diff_stats(read_stats_csv(read_text_file(golden), golden.string()), actual);
    if (changes.empty()) {
      std::cout << fmt::format("regress {} (tdsim {}): {} statistics as expected\n", w.name, shown, actual.size());
      continue;
    }
    ++changed;
    std::cout << fmt::format("regress {} (tdsim {}): {} of {} statistics changed\n", w.name, shown, changes.size(),
                             actual.size());
    for (const StatChange& change : changes) std::cout << "  " << format_change(change) << "\n";
  }
  if (options.update) return 0;
  if (changed + missing == 0) {
    std::cout << fmt::format("regress: all {} workloads as expected\n", workloads.size());
    return 0;
  }
  std::cout << fmt::format("regress: {} of {} workloads changed{} (tdsim regress --update accepts them)\n",
                           changed + missing, workloads.size(), missing ? ", or have no expected statistics" : "");
  return 1;
}

}  // namespace td::tb

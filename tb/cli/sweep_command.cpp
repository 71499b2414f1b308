#include "tb/cli/sweep_command.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include "model/config/config.h"
#include "model/sim/interrupt.h"
#include "tb/cli/common_options.h"
#include "tb/cli/unsigned_option.h"
#include "tb/common/atomic_file.h"
#include "tb/common/self_process.h"
#include "tb/common/text_file.h"
#include "tb/sweep/point_result.h"
#include "tb/sweep/sweep_plan.h"
#include "tb/sweep/sweep_results.h"

namespace td::tb {
namespace {

namespace fs = std::filesystem;
using cli::UsageError;
using Clock = std::chrono::steady_clock;

// Flags the sweep gives each point itself.
constexpr const char* kOwnedFlags[] = {"--config", "--set",     "--report", "--json",   "--stats",
                                       "--trace",  "--hits-out", "--image",  "--dry-run"};

sweep::SweepPlan make_plan(const SweepOptions& options) {
  if (options.command.empty())
    throw UsageError("sweep: no command; put it after '--', e.g. tdsim sweep --set l1.mshrs=32,64 -- run");
  sweep::SweepPlan plan;
  plan.command = options.command.front();
  if (plan.command != "run" && plan.command != "peak")
    throw UsageError(fmt::format("sweep: cannot sweep '{}' (commands: run, peak)", plan.command));
  plan.arguments.assign(options.command.begin() + 1, options.command.end());
  for (const std::string& argument : plan.arguments)
    for (const char* flag : kOwnedFlags)
      if (argument == flag || argument.rfind(std::string(flag) + "=", 0) == 0)
        throw UsageError(fmt::format(
            "sweep: {} after '--': {}", flag,
            std::string(flag) == "--config" || std::string(flag) == "--set"
                ? "give --config and --set to the sweep, before '--'"
                : "the sweep writes each point's report, statistics and output itself (under --out)"));
  plan.config = options.config;
  plan.sets = options.sets;
  plan.zip = options.zip;
  plan.axes = sweep::parse_axes(options.sets, options.zip);
  return plan;
}

// Every value of every axis, each beside the first values of the others,
// through the configuration reader: a bad key or value stops the sweep
// before it starts, named by its --set.
void check_values(const sweep::SweepPlan& plan) {
  const std::string path = cli::resolve_config(plan.config);
  std::vector<cfg::Override> first;
  for (const sweep::Axis& axis : plan.axes) first.push_back({axis.key, axis.values.front()});
  const auto load = [&](const std::vector<cfg::Override>& overrides, const std::string& set) {
    try {
      (void)cfg::load_config(path, overrides);
    } catch (const cfg::ConfigError& error) {
      throw UsageError(fmt::format("--set {}: {}", set, error.what()));
    }
  };
  for (size_t a = 0; a < plan.axes.size(); ++a)
    for (const std::string& value : plan.axes[a].values) {
      std::vector<cfg::Override> overrides = first;
      overrides[a].value = value;
      load(overrides, plan.axes[a].key + "=" + value);
    }
  if (plan.axes.empty()) load({}, "(none)");
}

std::vector<std::string> point_command(const sweep::SweepPlan& plan, const sweep::Point& point, const fs::path& folder) {
  std::vector<std::string> arguments{plan.command};
  arguments.insert(arguments.end(), plan.arguments.begin(), plan.arguments.end());
  arguments.insert(arguments.end(), {"--config", plan.config});
  const std::vector<std::string> sets = point.set_arguments();
  arguments.insert(arguments.end(), sets.begin(), sets.end());
  arguments.insert(arguments.end(), {plan.command == "run" ? "--report" : "--json", (folder / "report.json").string(),
                                     "--stats", (folder / "stats.csv").string()});
  return arguments;
}

// The first point's command line with --dry-run: flags the command refuses
// stop the sweep before any point runs.
void check_command_line(const sweep::SweepPlan& plan) {
  const ScratchFolder scratch("tdsim-sweep");
  std::vector<std::string> arguments = point_command(plan, plan.point(0), scratch.path());
  arguments.push_back("--dry-run");
  const SelfRun run = run_self(arguments, (scratch.path() / "output.txt").string());
  if (run.exit_code == 0) return;
  // The command's one-line error comes first (CLI11 may add a "Run with --help" line).
  std::string error = run.output.substr(0, run.output.find('\n'));
  if (error.rfind("error: ", 0) == 0) error = error.substr(7);
  throw UsageError(fmt::format("sweep: tdsim {} {}: {}", plan.command, fmt::join(plan.arguments, " "), error));
}

// DIR/sweep.json names the sweep a folder holds: another sweep's folder is refused, not mixed.
void claim_folder(const sweep::SweepPlan& plan, const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir / "points", error);
  if (error) throw UsageError(fmt::format("--out {}: cannot create it ({})", dir.string(), error.message()));
  const fs::path identity = dir / "sweep.json";
  const std::string wanted = plan.to_json();
  if (fs::exists(identity)) {
    if (read_text_file(identity) != wanted)
      throw UsageError(fmt::format("--out {}: holds another sweep ({}); give another --out or remove it",
                                   dir.string(), identity.string()));
    return;
  }
  write_file_atomically(identity.string(), wanted);
}

bool finished_cleanly(const fs::path& dir, size_t index) {
  const std::optional<sweep::PointResult> result = sweep::read_point_result(dir / "points" / sweep::point_folder_name(index));
  return result && result->status == "ok";
}

// A point running in its own process, in a temporary folder beside its final one.
struct RunningPoint {
  sweep::Point point;
  fs::path temp, final;
  Clock::time_point start;
};

RunningPoint start_point(const sweep::SweepPlan& plan, const sweep::Point& point, const fs::path& dir, pid_t& pid) {
  RunningPoint running;
  running.point = point;
  running.final = dir / "points" / sweep::point_folder_name(point.index);
  running.temp = dir / "points" / fmt::format(".{}.tmp-{}", sweep::point_folder_name(point.index), getpid());
  fs::remove_all(running.temp);
  fs::create_directories(running.temp);
  running.start = Clock::now();
  pid = start_self(point_command(plan, point, running.temp), (running.temp / "output.txt").string());
  return running;
}

// Records the point and renames its folder into place. Returns true when it ran cleanly.
bool finish_point(const RunningPoint& running, int exit_code) {
  const double wall_s = std::chrono::duration<double>(Clock::now() - running.start).count();
  const fs::path log = running.temp / "output.txt";
  const std::string output = fs::exists(log) ? read_text_file(log) : std::string();
  if (exit_code == 0) {
    // The effective configuration, from the report, as a YAML file of its
    // own. (A report that does not read is named when the results merge.)
    try {
      const YAML::Node report = YAML::Load(read_text_file(running.temp / "report.json"));
      if (report.IsMap() && report["effective_config"])
        write_file_atomically((running.temp / "config.yaml").string(), report["effective_config"].as<std::string>());
    } catch (const std::exception&) {  // YAML::Exception, or no report at all
    }
  }
  sweep::write_point_record(running.temp, running.point, exit_code, wall_s, sweep::tail_lines(output, 5));
  fs::remove_all(running.final);
  fs::rename(running.temp, running.final);
  return exit_code == 0;
}

std::string duration_text(double seconds) {
  const long s = std::lround(seconds);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

// Points done / running / failed and an ETA on stderr: one bar redrawn in a
// terminal, else a line per finished point.
class SweepProgress {
 public:
  SweepProgress(size_t total, unsigned jobs) : total_(total), jobs_(jobs), terminal_(isatty(STDERR_FILENO)) {}
  void finished(const std::string& label, bool ok, int exit_code, double wall_s, size_t running) {
    ++done_;
    running_ = running;
    failed_ += ok ? 0 : 1;
    wall_sum_ += wall_s;
    if (!terminal_)
      std::cerr << fmt::format("sweep: [{}/{}] {} {} in {:.1f} s; {}\n", done_, total_, label,
                               ok ? std::string("ok") : fmt::format("FAILED (exit {})", exit_code), wall_s, counts());
    else if (!ok)
      std::cerr << fmt::format("\r\033[Ksweep: {} FAILED (exit {})\n", label, exit_code);
  }
  void show(size_t running) {
    running_ = running;
    if (!terminal_) return;
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    std::cerr << fmt::format("\r\033[K  [{}{}] {}", std::string(filled, '#'), std::string(width - filled, '.'), counts())
              << std::flush;
  }
  void clear() {
    if (terminal_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  std::string counts() const {
    std::string text = fmt::format("{}/{} done, {} running, {} failed", done_, total_, running_, failed_);
    if (done_ > 0 && done_ < total_) {
      const double per_point = wall_sum_ / done_;
      const double waves = std::ceil(static_cast<double>(total_ - done_) / jobs_);
      text += ", ETA " + duration_text(per_point * waves);
    }
    return text;
  }
  size_t total_, done_ = 0, failed_ = 0, running_ = 0;
  unsigned jobs_;
  bool terminal_;
  double wall_sum_ = 0;
};

// Sends SIGTERM to each running point, waits for them, removes their folders.
void stop_points(std::map<pid_t, RunningPoint>& running) {
  for (const auto& [pid, point] : running) kill(pid, SIGTERM);
  for (const auto& [pid, point] : running) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::error_code ignored;
    fs::remove_all(point.temp, ignored);
  }
  running.clear();
}

// The point that has the base configuration's own values, if one does.
// The scalar at `key` ("l1.mshrs") in a configuration's YAML, if there is one.
std::optional<std::string> config_scalar(const YAML::Node& node, const std::string& key) {
  if (!node.IsMap()) return std::nullopt;
  const size_t dot = key.find('.');
  const YAML::Node child = node[key.substr(0, dot)];
  if (!child) return std::nullopt;
  if (dot == std::string::npos) return child.IsScalar() ? std::optional(child.Scalar()) : std::nullopt;
  return config_scalar(child, key.substr(dot + 1));
}

// The point that has the base configuration's own values, if one does.
std::optional<size_t> base_point(const sweep::SweepPlan& plan) {
  const YAML::Node config = YAML::LoadFile(cli::resolve_config(plan.config));  // loaded cleanly by check_values
  std::map<std::string, std::optional<std::string>> base_values;  // looked up once per key, not per point
  for (const sweep::Axis& axis : plan.axes) base_values[axis.key] = config_scalar(config, axis.key);
  return sweep::base_point(plan, [&](const std::string& key) { return base_values.at(key); });
}

int merge(const sweep::SweepPlan& plan, const fs::path& dir, bool print_table) {
  const std::vector<sweep::PointResult> results = sweep::read_results(plan, dir);
  write_file_atomically((dir / "results.csv").string(), sweep::results_csv(plan, results));
  write_file_atomically((dir / "results.json").string(), sweep::results_json(plan, results));
  if (print_table) std::cout << sweep::results_table(plan, results, base_point(plan));
  const size_t clean = std::count_if(results.begin(), results.end(),
                                     [](const sweep::PointResult& r) { return r.status == "ok"; });
  std::cout << fmt::format("sweep: {} of {} points ran cleanly; results in {} and {}\n", clean, results.size(),
                           (dir / "results.csv").string(), (dir / "results.json").string());
  return clean == results.size() ? 0 : 1;
}

int run_one_point(const sweep::SweepPlan& plan, const fs::path& dir, size_t index) {
  const sweep::Point point = plan.point(index);
  const std::string label = point.label(plan.swept_keys());
  if (finished_cleanly(dir, index)) {
    std::cout << fmt::format("sweep: point {} ({}) already done\n", index, label);
    return 0;
  }
  pid_t pid = -1;
  RunningPoint running = start_point(plan, point, dir, pid);
  std::map<pid_t, RunningPoint> all{{pid, running}};
  for (;;) {
    const std::optional<ChildExit> exit = wait_any_child();
    if (sim::interrupted()) {
      stop_points(all);
      return sim::interrupt_exit_code();
    }
    if (!exit || exit->pid != pid) continue;
    const bool ok = finish_point(running, exit->exit_code);
    std::cout << fmt::format("sweep: point {} ({}) {}\n", index, label,
                             ok ? std::string("ok") : fmt::format("failed (exit {})", exit->exit_code));
    return ok ? 0 : 1;
  }
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options, const std::string& default_config) {
  options.config = default_config;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run `run` or `peak` over a grid of --set values, a process per point, and merge the results "
      "(tdsim sweep [flags] -- run|peak [its flags])");
  cli::add_config_option(sweep, options.config, "Base chip configuration");
  sweep->add_option("--set", options.sets,
                    "KEY=V1,V2,...: an axis of the grid (one value: fixed for every point); repeatable");
  sweep->add_flag("--zip", options.zip, "Pair the values one to one instead of taking every combination");
  sweep->add_option("--out", options.out, "Folder of the points and results (a rerun resumes it)")
      ->capture_default_str();
  sweep->add_option("-j,--jobs", options.jobs, "Points at once (default: one per core)")
      ->check(unsigned_in(1, 1024));
  sweep->add_flag("--list", options.list, "Print the points, one per line (index, tab, values), and stop");
  sweep->add_option("--point", options.point, "Run point K only (a cluster job array's task)")
      ->check(unsigned_in(0, sweep::kMaxPoints - 1));
  sweep->add_flag("--merge", options.merge, "Merge the points' results into results.csv and results.json only");
  sweep->add_option("command", options.command, "After '--': run or peak, and its flags");
  return sweep;
}

int run_sweep_command(const CLI::App* command, const SweepOptions& options) {
  const int modes = (options.list ? 1 : 0) + (options.point ? 1 : 0) + (options.merge ? 1 : 0);
  if (modes > 1) throw UsageError("sweep: give one of --list, --point and --merge");
  const sweep::SweepPlan plan = make_plan(options);
  check_values(plan);
  const size_t count = plan.point_count();
  const std::vector<std::string> swept = plan.swept_keys();
  if (options.list) {
    cli::refuse_if_given(command, "--jobs", "with --list");
    for (size_t k = 0; k < count; ++k) std::cout << k << '\t' << plan.point(k).label(swept) << '\n';
    return 0;
  }
  const fs::path dir = options.out;
  if (options.merge) {
    cli::refuse_if_given(command, "--jobs", "with --merge");
    claim_folder(plan, dir);
    return merge(plan, dir, true);
  }
  if (options.point) {
    cli::refuse_if_given(command, "--jobs", "with --point (one point runs)");
    if (*options.point >= count)
      throw UsageError(fmt::format("--point {}: the sweep has {} points (0 to {})", *options.point, count, count - 1));
    claim_folder(plan, dir);
    return run_one_point(plan, dir, *options.point);
  }

  check_command_line(plan);
  claim_folder(plan, dir);
  std::vector<size_t> todo;
  for (size_t k = 0; k < count; ++k)
    if (!finished_cleanly(dir, k)) todo.push_back(k);
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::cout << fmt::format("tdsim sweep: {} points of `tdsim {}{}{}` on {} ({}), {} at once, into {}{}\n", count,
                           plan.command, plan.arguments.empty() ? "" : " ", fmt::join(plan.arguments, " "),
                           plan.config, swept.empty() ? std::string("nothing swept") : fmt::format("{}", fmt::join(swept, " x ")),
                           jobs, dir.string(),
                           todo.size() < count ? fmt::format("; {} already done, skipped", count - todo.size()) : "");
  std::cout << std::flush;

  SweepProgress progress(todo.size(), jobs);
  std::map<pid_t, RunningPoint> running;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < jobs && !sim::interrupted()) {
      pid_t pid = -1;
      RunningPoint point = start_point(plan, plan.point(todo[next++]), dir, pid);
      running.emplace(pid, std::move(point));
    }
    progress.show(running.size());
    const std::optional<ChildExit> exit = wait_any_child();
    if (sim::interrupted()) {
      stop_points(running);
      progress.clear();
      std::cout << fmt::format("sweep: interrupted; the finished points stay in {}; the same command resumes\n",
                               dir.string());
      (void)merge(plan, dir, false);
      return sim::interrupt_exit_code();
    }
    if (!exit) continue;
    const auto found = running.find(exit->pid);
    if (found == running.end()) continue;
    const RunningPoint point = found->second;
    running.erase(found);
    const bool ok = finish_point(point, exit->exit_code);
    progress.finished(fmt::format("point {} ({})", point.point.index, point.point.label(swept)), ok, exit->exit_code,
                      std::chrono::duration<double>(Clock::now() - point.start).count(), running.size());
  }
  progress.clear();
  return merge(plan, dir, true);
}

}  // namespace td::tb

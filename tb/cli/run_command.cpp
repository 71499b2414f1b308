#include "tb/cli/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "model/config/config.h"
#include "model/sim/interrupt.h"
#include "tb/common/atomic_file.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/unsigned_option.h"
#include "tb/report/trace_picture.h"
#include "tb/run/config_params.h"
#include "tb/run/engines.h"
#include "tb/run/hit_sink.h"
#include "tb/run/run_report.h"
#include "tb/run/trace_engine.h"
#include "tb/run/workload.h"

namespace td::tb {

namespace {

using namespace cli;

// A one-line bar on stderr, redrawn at most ten times a second; only when
// both stdout and stderr are terminals (never in logs or pipes).
class ProgressBar {
 public:
  explicit ProgressBar(uint64_t total) : total_(total), enabled_(isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {}
  void update(uint64_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done != total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    if (total_ == 0) {
      std::cerr << fmt::format("\r  {} rays", done) << std::flush;
      return;
    }
    const int width = 40;
    const int filled = static_cast<int>(width * done / total_);
    std::cerr << fmt::format("\r  [{}{}] {:>5.1f}%  {}/{} rays", std::string(filled, '#'),
                             std::string(width - filled, '.'), 100.0 * done / total_, done, total_)
              << std::flush;
  }
  ~ProgressBar() {
    if (enabled_) std::cerr << "\r" << std::string(79, ' ') << "\r" << std::flush;
  }

 private:
  uint64_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunCommandOptions& options, const std::string& default_config) {
  options.config = default_config;
  CLI::App* run = app.add_subcommand(
      "run", "Trace a scene through the chip: rays/s, box and triangle tests/s against peak, stalls, cache hit rates");
  // A flag given twice keeps its last value, so scripts/run's defaults can be overridden.
  run->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli::add_config_option(run, options.config);
  add_set_option(run, options.sets);
  run->add_option("--scene", options.scene,
                  "'level' (built in: a game-like level, a TLAS over 5448 instances of 31 BLASes), 'basic' (built in: "
                  "one level, 114 k triangles) or a mesh file (OBJ, PLY, OFF, glTF, ...: its node graph as instances)")
      ->capture_default_str();
  run->add_flag("--flatten", options.flatten,
                "Trace the scene as one BVH over its placed triangles (no TLAS, no instances)");
  run->add_option("--instance-mask", options.instance_mask,
                  "The rays' instance mask: an instance is entered when its mask AND this is non-zero (two levels)")
      ->check(unsigned_in(0, 255))
      ->capture_default_str();
  run->add_option("--rays", options.rays, "primary, shadow, ao or diffuse (secondary rays start at the primary hits)")
      ->check(CLI::IsMember(run::ray_kind_words()))
      ->capture_default_str();
  run->add_option("--rays-in", options.rays_in, "Trace the rays of a CSV file (header ox,oy,oz,dx,dy,dz,tmax)")
      ->excludes("--rays");
  run->add_option("--width", options.width, "Camera frame width in pixels")
      ->check(unsigned_in(1, 16384))
      ->capture_default_str();
  run->add_option("--height", options.height, "Camera frame height in pixels")
      ->check(unsigned_in(1, 16384))
      ->capture_default_str();
  run->add_option("--ao-rays", options.ao_rays, "Ambient-occlusion rays per primary hit (--rays ao)")
      ->check(unsigned_in(1, 64))
      ->capture_default_str();
  run->add_option("--engine", options.engine, run::engines().describe())
      ->check(CLI::IsMember(run::engines().names()))
      ->capture_default_str();
  run->add_option("--scoreboard", options.scoreboard,
                  "Check the model's lanes against the golden reference: all, off, or sample:N (every Nth instruction)")
      ->capture_default_str();
  run->add_option("-j,--threads", options.threads,
                  "Threads: the functional engine's (default: all cores); the model's, ticking the chip's TDs within "
                  "a clock with the same results for any number (default: 1)")
      ->check(unsigned_in(1, 1024));
  run->add_option("--seed", options.seed, "Seed of the random rays (ao, diffuse)")
      ->check(unsigned_in(0, UINT64_MAX))
      ->capture_default_str();
  run->add_option("--hits-out", options.hits_out, "Write every ray's hit to FILE.csv: ray,hit,t,inst,prim,u,v");
  run->add_option("--report", options.report, "Write the report to FILE.json or FILE.csv");
  run->add_option("--image", options.image, "Write FILE.png: shaded hits beside a heat map of tests per pixel (primary rays)");
  add_stats_option(run, options.stats, "Write every statistic (engines model, rtl)");
  add_trace_options(run, options.trace);
  add_debug_option(run);
  run->add_flag("--dry-run", options.dry_run, "Check the flags, configuration and outputs, then stop (nothing runs)");
  return run;
}

int run_run_command(const CLI::App* command, const RunCommandOptions& options) {
  const auto setup_start = std::chrono::steady_clock::now();
  // Flags that would do nothing, then names, then the config: before any work.
  const run::EngineEntry& engine_entry = *run::engines().find(options.engine);
  const bool timed = engine_entry.timed;
  const std::string with_engine = "with --engine " + options.engine;
  if (!timed)
    for (const char* flag : {"--stats", "--trace", "--debug"})
      refuse_if_given(command, flag, with_engine + " (no timing); use --engine model");
  if (!timed) refuse_if_given(command, "--scoreboard", with_engine + " (it is the reference)");
  const uint64_t check_every = parse_scoreboard(options.scoreboard);
  if (options.rays != "ao") refuse_if_given(command, "--ao-rays", "without --rays ao");
  if (options.rays != "primary" || !options.rays_in.empty())
    refuse_if_given(command, "--image", "without primary rays (the picture is of the camera frame)");
  if (!options.rays_in.empty()) {
    refuse_if_given(command, "--width", "with --rays-in (the rays come from the file)");
    refuse_if_given(command, "--height", "with --rays-in (the rays come from the file)");
  }
  if (!options.report.empty() && !ends_with(options.report, ".json") && !ends_with(options.report, ".csv"))
    throw UsageError(fmt::format("--report {}: the file name must end in .json or .csv", options.report));
  if (!options.image.empty() && !ends_with(options.image, ".png"))
    throw UsageError(fmt::format("--image {}: the file name must end in .png", options.image));
  check_stats_names(options.stats);
  check_trace_options(command, options.trace);
  run::WorkloadSpec spec;
  spec.scene = options.scene;
  spec.flatten = options.flatten;
  if (spec.scene == run::kBasicSceneName) refuse_if_given(command, "--flatten", "with --scene basic (one level already)");
  if (!run::is_two_level(spec)) refuse_if_given(command, "--instance-mask", "on a one-level BVH (no instances)");
  const cfg::Config config = engine_entry.datapath.empty()
                                 ? load_chip_config(options.config, options.sets)
                                 : cfg::with_datapath(load_chip_config(options.config, options.sets),
                                                      engine_entry.datapath);
  if (timed && options.threads > kMaxChipThreads)
    throw UsageError(fmt::format("--threads {}: the chip takes 1 to {} threads", options.threads, kMaxChipThreads));
  if (timed) check_chip_threads(options.threads, config);
  OutputPaths outputs;
  outputs.add("--hits-out", options.hits_out);
  outputs.add("--report", options.report);
  outputs.add("--image", options.image);
  for (const std::string& path : options.stats) outputs.add("--stats", path);
  outputs.add("--trace", options.trace.path);
  outputs.prepare();
  if (options.dry_run) return 0;

  if (!options.rays_in.empty()) {
    spec.rays = run::RayKind::kFile;
    spec.rays_file = options.rays_in;
  } else {
    spec.rays = *run::parse_ray_kind(options.rays);
  }
  spec.width = options.width;
  spec.height = options.height;
  spec.ao_rays_per_hit = options.ao_rays;
  spec.seed = options.seed;
  // The functional passes (the engine, or the primary pass of secondary
  // rays) take every core unless told; the chip one thread unless told.
  const unsigned host_threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = timed ? std::max(1u, options.threads) : host_threads;
  spec.threads = host_threads;
  spec.bvh = run::bvh_options(config);
  traversal::TraversalOptions traversal_options = run::traversal_options(config);
  traversal_options.instance_mask = static_cast<uint8_t>(options.instance_mask);
  run::Workload workload = run::make_workload(spec, traversal_options);
  traversal_options.mode = workload.mode;

  run::HitSink sink;
  if (!options.hits_out.empty()) sink.write_hits_to(options.hits_out);
  if (workload.primary_frame) sink.keep_pixels(workload.scene, options.width, options.height);
  ProgressBar progress(workload.rays->count());
  sink.on_count([&](uint64_t delivered) { progress.update(delivered); });

  run::RunReport report;
  report.chip_name = config.chip.name;
  report.config_source = config.source;
  report.overflow = traversal_options.overflow;
  report.effective_config = cfg::to_yaml(config);
  report.tds = config.td_count();
  report.clock_mhz = config.chip.clock_mhz;
  report.scene_name = workload.scene.name;
  report.triangles = workload.scene.instanced_triangles();
  report.bvh = workload.bvh.report;
  if (workload.bvh.two_level()) report.scene_report = workload.bvh.scene_report;
  report.workload = workload.description;
  report.setup_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();

  sim::StatsRegistry stats;
  const std::unique_ptr<TraceOutput> trace = open_trace(options.trace, config.period_ps());
  run::TraceEngineSetup setup;
  setup.config = &config;
  setup.check_every = check_every;
  setup.stats = &stats;
  setup.vcd = trace ? &trace->vcd() : nullptr;
  setup.threads = threads;
  const std::unique_ptr<run::TraceEngine> engine = engine_entry.make_for_rays(setup);
  report.engine = engine->name();
  report.threads = threads;
  const auto trace_start = std::chrono::steady_clock::now();
  try {
    engine->trace(workload.bvh, *workload.rays, traversal_options, sink);
  } catch (const sim::Interrupted&) {
    report.partial = true;
  }
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - trace_start).count();
  report.totals = sink.totals();
  report.host_time = engine->host_time();
  const run::ScoreboardCounts scoreboard = engine->scoreboard();
  if (timed) {
    report.timing = run::timing_figures(stats, config, engine->cycles());
    report.occupancy = cfg::shader_occupancy(config.shader);
    report.vgprs = config.shader.vgprs;
    report.shading = run::hit_shading(config.shader);
  }
  std::cout << run::format_run_report(report);
  if (timed)
    std::cout << fmt::format("scoreboard ({}): {} lanes checked against the golden reference, {} mismatches\n",
                             options.scoreboard, scoreboard.lanes_checked, scoreboard.mismatches);
  if (scoreboard.mismatches > 0) {
    std::cout << fmt::format("scoreboard: {} lanes differ from the golden reference\n", scoreboard.mismatches);
    for (const std::string& line : scoreboard.reports) std::cout << "  " << line << "\n";
  }
  if (report.partial) return sim::interrupt_exit_code();  // outputs of an unfinished run are not written

  if (trace) trace->close();
  write_stats(options.stats, stats);
  sink.commit();
  if (!options.report.empty())
    write_file_atomically(options.report, ends_with(options.report, ".json") ? run::run_report_json(report)
                                                                             : run::run_report_csv(report));
  if (!options.image.empty())
    write_file_atomically(options.image, report::encode_png(report::render_trace_picture(
                                             sink.width(), sink.height(), sink.pixels())));
  const bool clean = report.totals.faults == 0 && scoreboard.mismatches == 0;
  return clean ? 0 : 1;
}

}  // namespace td::tb

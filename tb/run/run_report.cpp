#include "tb/run/run_report.h"

#include <fmt/format.h>

#include <cmath>

#include "model/sim/json_writer.h"

namespace td::run {

namespace {

std::string percent(double fraction) {
  return std::isnan(fraction) ? std::string("-") : fmt::format("{:.1f}%", 100.0 * fraction);
}

std::string rate(double per_s) {
  if (per_s >= 1e9) return fmt::format("{:.2f} G/s", per_s / 1e9);
  if (per_s >= 1e6) return fmt::format("{:.2f} M/s", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.2f} k/s", per_s / 1e3);
  return fmt::format("{:.2f} /s", per_s);
}

double per_ray(uint64_t total, uint64_t rays) { return rays ? static_cast<double>(total) / rays : 0.0; }

}  // namespace

std::string format_run_report(const RunReport& r) {
  std::string out = fmt::format("tdsim run: {} ({}), {} TDs at {} MHz\n", r.chip_name, r.config_source, r.tds,
                                r.clock_mhz);
  if (r.partial) out += "PARTIAL REPORT: interrupted; the figures cover the rays that finished\n";
  if (r.scene_report) {
    out += fmt::format("scene: {}, {} instances of {} BLASes, {} unique and {} placed triangles\nworkload: {}\n\n",
                       r.scene_name, r.scene_report->instances, r.scene_report->blases,
                       r.scene_report->unique_triangles, r.triangles, r.workload);
    out += "BVH (hardware formats, two levels)\n" + scene::format_report(*r.scene_report, r.bvh) + "\n";
  } else {
    out += fmt::format("scene: {}, {} triangles\nworkload: {}\n\n", r.scene_name, r.triangles, r.workload);
    out += "BVH (hardware formats)\n" + scene::format_report(r.bvh) + "\n";
  }
  const traversal::TraceTotals& n = r.totals;
  out += fmt::format("rays: {} traced, {} hit ({})\n", n.rays, n.hits, percent(per_ray(n.hits, n.rays)));
  out += fmt::format("per ray: {:.2f} instructions ({:.2f} box nodes = {:.2f} box tests, {:.2f} triangle tests",
                     per_ray(n.box_steps + n.triangle_steps + n.instance_steps, n.rays), per_ray(n.box_steps, n.rays),
                     4 * per_ray(n.box_steps, n.rays), per_ray(n.triangle_steps, n.rays));
  if (r.scene_report)
    out += fmt::format(", {:.2f} instance nodes", per_ray(n.instance_steps, n.rays));
  if (r.overflow == traversal::Overflow::kParentPointers)
    out += fmt::format("); {} dropped stack entries, {} parent links loaded, {} parents re-issued, max stack {}\n",
                       n.dropped_entries, n.parent_loads, n.reissues, n.max_stack);
  else
    out += fmt::format("); {} restarts, max stack {}\n", n.restarts, n.max_stack);
  if (r.scene_report)
    out += fmt::format("  two levels: {:.2f} TLAS and {:.2f} BLAS box nodes, {:.2f} instance nodes ({:.2f} vector "
                       "loads of 16 bytes), {:.2f} transforms (instances entered)\n",
                       per_ray(n.box_steps - n.blas_box_steps, n.rays), per_ray(n.blas_box_steps, n.rays),
                       per_ray(n.instance_steps, n.rays), per_ray(n.instance_loads, n.rays),
                       per_ray(n.transforms, n.rays));
  if (n.faults) out += fmt::format("WARNING: {} steps faulted (a broken BVH or descriptor)\n", n.faults);
  if (r.timing) {
    const TimingFigures& t = *r.timing;
    out += fmt::format("\nsimulated: {} cycles = {:.3f} ms at {} MHz\n", t.cycles, 1e3 * t.seconds, r.clock_mhz);
    out += fmt::format("  rays            {:>12}\n", rate(t.seconds > 0 ? n.rays / t.seconds : 0));
    out += fmt::format("  box tests       {:>12}  {:>6} of peak {}\n", rate(t.box_tests_per_s()),
                       percent(t.box_tests_per_s() / t.box_peak_per_s), rate(t.box_peak_per_s));
    out += fmt::format("  triangle tests  {:>12}  {:>6} of peak {}\n", rate(t.tri_tests_per_s()),
                       percent(t.tri_tests_per_s() / t.tri_peak_per_s), rate(t.tri_peak_per_s));
    out += fmt::format("  TD utilisation  {:>12}  (TD-cycles in which a lane entered a datapath)\n",
                       percent(t.td_utilisation));
    const cfg::Occupancy& o = r.occupancy;
    out += o.overridden ? fmt::format("  occupancy       {:>12}  waves per SIMD (shader.waves_per_simd)\n", o.waves_per_simd)
                        : fmt::format("  occupancy       {:>12}  waves per SIMD ({} VGPRs allow {}, the stacks' LDS {})\n",
                                      o.waves_per_simd, r.vgprs, o.by_vgprs, o.by_lds);
    if (r.shading.on())
      out += fmt::format("  closest hit     {:>12}  loads per lane that hit ({} vertex attributes, {} texture blocks), then "
                         "{} ALU instructions\n",
                         r.shading.attribute_loads + r.shading.texture_loads, r.shading.attribute_loads,
                         r.shading.texture_loads, r.shading.alu_instructions);
    out += "  TD stalls (share of TD-cycles; one cycle may count under several causes):";
    for (const auto& [cause, share] : t.stalls) out += fmt::format(" {} {};", cause, percent(share));
    out += "\n  caches:          hit rate        bytes   MSHR-full refusals\n";
    for (const LevelFigures& level : t.levels)
      out += fmt::format("    {:<4} {:>19} {:>12} {:>20}\n", level.name, percent(level.hit_rate()), level.bytes,
                         level.mshr_full);
    out += fmt::format("    DRAM {:>19} {:>12}   {:.1f} GB/s of {:.1f} GB/s\n", "", t.dram_bytes,
                       t.seconds > 0 ? t.dram_bytes / t.seconds / 1e9 : 0.0, t.dram_peak_bytes_per_s / 1e9);
    if (t.counts_loads) {
      std::string what;
      for (const auto& [used, name] : {std::pair{r.scene_report.has_value(), "instance nodes"},
                                       std::pair{r.overflow == traversal::Overflow::kParentPointers, "parent links"},
                                       std::pair{r.shading.on(), "closest-hit shading"}})
        if (used) what += (what.empty() ? "" : ", ") + std::string(name);
      out += fmt::format("  vector loads ({}): {} lanes, {} bytes; hit rate", what, t.load_lanes, t.load_bytes);
      for (const LevelFigures& level : t.load_levels)
        out += fmt::format(" {} {}{}", level.name, percent(level.hit_rate()), &level == &t.load_levels.back() ? "" : ",");
      out += " (in the cache figures above)\n";
    }
    // Public RDNA2 measurements (shared/research/rdna2-measurements.md), RX 6900 XT in games.
    out += "  compare (RX 6900 XT, Radeon GPU Profiler): Cyberpunk 2077 RT 28.7 G box/s, 3.21 G tri/s, RT unit busy\n"
           "    7-29%, L0 hit ~55-66%, L0+L1 73-79%; 3DMark DXR feature test ~10% of peak; box:triangle 3.6-8.9:1\n";
    out += fmt::format("    here: box:triangle {:.1f}:1, L0 {}, L0+L1 {}\n",
                       t.tri_tests ? static_cast<double>(t.box_tests) / t.tri_tests : 0.0,
                       percent(t.levels[0].hit_rate()), percent(report::served_within(t.levels, 2)));
  }
  out += fmt::format("\nengine {} ({} thread{}): {:.2f} s wall for the rays ({:.0f} rays/s), {:.2f} s setup\n",
                     r.engine, r.threads, r.threads == 1 ? "" : "s", r.wall_s, r.wall_s > 0 ? n.rays / r.wall_s : 0.0,
                     r.setup_wall_s);
  if (r.timing && r.wall_s > 0)
    out += fmt::format("simulation speed: {:.0f} simulated cycles per wall second\n", r.timing->cycles / r.wall_s);
  if (r.host_time && r.host_time->total_s() > 0) {
    const sim::HostTime& h = *r.host_time;
    const auto share = [&h](double part) { return percent(part / h.total_s()); };
    out += fmt::format("host time in the chip: memory events {:.2f} s ({}, one thread), TD clocks {:.2f} s ({}, {} "
                       "thread{}), dispatch {:.2f} s ({}, one thread)\n",
                       h.memory_events_s, share(h.memory_events_s), h.td_clocks_s, share(h.td_clocks_s), r.threads,
                       r.threads == 1 ? "" : "s", h.dispatch_s, share(h.dispatch_s));
  }
  return out;
}

namespace {

// What the BVH and its scene make of a ray, beside the engine's figures:
// the top BVH's SAH cost (the TLAS's on two levels) and, on two levels,
// instance nodes per ray.
void add_bvh_figures(report::Headline& headline, const RunReport& r) {
  headline.figures.push_back({"sah_cost", "operations", r.bvh.sah_cost});
  if (r.scene_report)
    headline.figures.push_back({"instance_nodes_per_ray", "nodes", per_ray(r.totals.instance_steps, r.totals.rays)});
}

}  // namespace

report::Headline run_headline(const RunReport& r) {
  const traversal::TraceTotals& n = r.totals;
  if (!r.timing) {
    // An untimed engine: what the traversal did, per ray.
    report::Headline headline;
    headline.figures = {{"rays", "rays", static_cast<double>(n.rays)},
                         {"hit_fraction", "fraction", per_ray(n.hits, n.rays)},
                         {"box_nodes_per_ray", "nodes", per_ray(n.box_steps, n.rays)},
                         {"triangle_tests_per_ray", "tests", per_ray(n.triangle_steps, n.rays)}};
    add_bvh_figures(headline, r);
    return headline;
  }
  const TimingFigures& t = *r.timing;
  report::Headline headline = report::headline_of(t);
  headline.figures = {
      {"rays_per_s", "rays/s", t.seconds > 0 ? n.rays / t.seconds : 0.0},
      {"box_tests_per_s", "tests/s", t.box_tests_per_s()},
      {"tri_tests_per_s", "tests/s", t.tri_tests_per_s()},
      {"td_utilisation", "fraction", t.td_utilisation},
      {"dram_bytes_per_s", "bytes/s", t.seconds > 0 ? t.dram_bytes / t.seconds : 0.0},
      {"cycles", "cycles", static_cast<double>(t.cycles)},
      {"box_nodes_per_ray", "nodes", per_ray(n.box_steps, n.rays)},
      {"triangle_tests_per_ray", "tests", per_ray(n.triangle_steps, n.rays)},
  };
  add_bvh_figures(headline, r);
  report::add_mshr_figures(headline, t);
  return headline;
}

std::string run_report_json(const RunReport& r) {
  sim::JsonWriter json;
  json.begin_object();
  json.key("chip").value(r.chip_name);
  json.key("config").value(r.config_source);
  json.key("effective_config").value(r.effective_config);
  json.key("tds").value(r.tds);
  json.key("clock_mhz").value(r.clock_mhz);
  json.key("partial").value(r.partial);
  json.key("scene").begin_object();
  json.key("name").value(r.scene_name);
  json.key("triangles").value(r.triangles);
  json.key("two_level").value(r.scene_report.has_value());
  if (r.scene_report) {
    json.key("instances").value(r.scene_report->instances);
    json.key("placed_instances").value(r.scene_report->placed_instances);
    json.key("pulled_up_instances").value(r.scene_report->pulled_up_instances);
    json.key("instance_nodes").value(r.scene_report->instance_nodes);
    json.key("blases").value(r.scene_report->blases);
    json.key("unique_triangles").value(r.scene_report->unique_triangles);
  }
  json.end_object();
  json.key("bvh").begin_object();
  json.key("box16_nodes").value(r.bvh.box16_nodes);
  json.key("box32_nodes").value(r.bvh.box32_nodes);
  json.key("triangle_nodes").value(r.bvh.triangle_nodes);
  json.key("bytes").value(r.bvh.bytes);
  json.key("bytes_per_triangle").value(r.bvh.bytes_per_triangle);
  json.key("fp16_fraction").value(r.bvh.fp16_fraction);
  json.key("sah_cost").value(r.bvh.sah_cost);
  json.key("triangles_per_triangle_node").value(r.bvh.triangles_per_triangle_node);
  json.key("depth").value(r.bvh.depth);
  json.key("build_s").value(r.bvh.build_seconds);
  if (r.scene_report) {
    const scene::SceneReport& s = *r.scene_report;
    json.key("tlas_bytes").value(s.tlas_bytes);
    json.key("instance_node_bytes").value(s.instance_node_bytes);
    json.key("blas_bytes").value(s.blas_bytes);
    json.key("total_bytes").value(s.bytes);
    json.key("blas_box16_nodes").value(s.blas_totals.box16_nodes);
    json.key("blas_box32_nodes").value(s.blas_totals.box32_nodes);
    json.key("blas_triangle_nodes").value(s.blas_totals.triangle_nodes);
    json.key("blas_bytes_per_unique_triangle").value(s.blas_totals.bytes_per_triangle);
    json.key("scene_build_s").value(s.build_seconds);
  }
  json.end_object();
  json.key("workload").value(r.workload);
  if (r.timing) json.key("waves_per_simd").value(r.occupancy.waves_per_simd);
  json.key("engine").value(r.engine);
  json.key("threads").value(r.threads);
  const traversal::TraceTotals& n = r.totals;
  json.key("rays").value(n.rays);
  json.key("hits").value(n.hits);
  json.key("box_nodes").value(n.box_steps);
  json.key("triangle_tests_functional").value(n.triangle_steps);
  json.key("overflow").value(cfg::word_of(cfg::overflow_words(), r.overflow));
  json.key("restarts").value(n.restarts);
  json.key("dropped_entries").value(n.dropped_entries);
  json.key("parent_loads").value(n.parent_loads);
  json.key("reissues").value(n.reissues);
  json.key("max_stack").value(n.max_stack);
  if (r.scene_report) {
    json.key("tlas_box_nodes").value(n.box_steps - n.blas_box_steps);
    json.key("blas_box_nodes").value(n.blas_box_steps);
    json.key("instance_nodes").value(n.instance_steps);
    json.key("instance_loads").value(n.instance_loads);
    json.key("transforms").value(n.transforms);
  }
  json.key("faults").value(n.faults);
  json.key("wall_s").value(r.wall_s);
  json.key("setup_wall_s").value(r.setup_wall_s);
  json.key("rays_per_wall_s").value(r.wall_s > 0 ? n.rays / r.wall_s : 0.0);
  if (r.host_time) {
    json.key("host_time").begin_object();
    json.key("memory_events_s").value(r.host_time->memory_events_s);
    json.key("td_clocks_s").value(r.host_time->td_clocks_s);
    json.key("dispatch_s").value(r.host_time->dispatch_s);
    json.key("serial_share").value(r.host_time->serial_share());
    json.end_object();
  }
  if (r.timing) {
    const TimingFigures& t = *r.timing;
    json.key("cycles").value(t.cycles);
    json.key("simulated_s").value(t.seconds);
    json.key("rays_per_s").value(t.seconds > 0 ? n.rays / t.seconds : 0.0);
    json.key("box_tests").value(t.box_tests);
    json.key("tri_tests").value(t.tri_tests);
    json.key("box_tests_per_s").value(t.box_tests_per_s());
    json.key("tri_tests_per_s").value(t.tri_tests_per_s());
    json.key("box_peak_per_s").value(t.box_peak_per_s);
    json.key("tri_peak_per_s").value(t.tri_peak_per_s);
    json.key("td_utilisation").value(t.td_utilisation);
    json.key("stalls").begin_object();
    for (const auto& [cause, share] : t.stalls) json.key(cause).value(share);
    json.end_object();
    json.key("caches").begin_object();
    for (const LevelFigures& level : t.levels) {
      json.key(level.name).begin_object();
      json.key("hits").value(level.hits);
      json.key("misses").value(level.misses);
      json.key("hit_rate").value(level.hit_rate());
      json.key("bytes").value(level.bytes);
      json.key("mshr_full").value(level.mshr_full);
      json.end_object();
    }
    json.end_object();
    json.key("dram_bytes").value(t.dram_bytes);
    if (t.counts_loads) {
      json.key("loads").begin_object();
      json.key("lanes").value(t.load_lanes);
      json.key("bytes").value(t.load_bytes);
      json.key("caches").begin_object();
      for (const LevelFigures& level : t.load_levels) {
        json.key(level.name).begin_object();
        json.key("hits").value(level.hits);
        json.key("misses").value(level.misses);
        json.key("hit_rate").value(level.hit_rate());
        json.end_object();
      }
      json.end_object();
      json.end_object();
    }
    json.key("simulated_cycles_per_wall_s").value(r.wall_s > 0 ? t.cycles / r.wall_s : 0.0);
  }
  json.key("headline");
  report::write_headline(json, run_headline(r));
  json.end_object();
  return json.text();
}

std::string run_report_csv(const RunReport& r) {
  std::string out = "name,unit,value\n";
  const auto row = [&out](const std::string& name, const std::string& unit, double value) {
    out += fmt::format("{},{},{}\n", name, unit, std::isfinite(value) ? fmt::format("{}", value) : std::string());
  };
  const traversal::TraceTotals& n = r.totals;
  row("triangles", "triangles", static_cast<double>(r.triangles));
  row("bvh.bytes", "bytes", static_cast<double>(r.bvh.bytes));
  row("bvh.bytes_per_triangle", "bytes", r.bvh.bytes_per_triangle);
  row("bvh.fp16_fraction", "fraction", r.bvh.fp16_fraction);
  row("bvh.sah_cost", "operations", r.bvh.sah_cost);
  row("rays", "rays", static_cast<double>(n.rays));
  row("hits", "rays", static_cast<double>(n.hits));
  row("box_nodes", "nodes", static_cast<double>(n.box_steps));
  row("triangle_steps", "tests", static_cast<double>(n.triangle_steps));
  row("restarts", "restarts", static_cast<double>(n.restarts));
  row("dropped_entries", "entries", static_cast<double>(n.dropped_entries));
  row("parent_loads", "loads", static_cast<double>(n.parent_loads));
  row("reissues", "nodes", static_cast<double>(n.reissues));
  row("wall_s", "s", r.wall_s);
  if (r.host_time) {
    row("host_time.memory_events_s", "s", r.host_time->memory_events_s);
    row("host_time.td_clocks_s", "s", r.host_time->td_clocks_s);
    row("host_time.dispatch_s", "s", r.host_time->dispatch_s);
    row("host_time.serial_share", "fraction", r.host_time->serial_share());
  }
  if (r.timing) {
    const TimingFigures& t = *r.timing;
    row("cycles", "cycles", static_cast<double>(t.cycles));
    row("rays_per_s", "rays/s", t.seconds > 0 ? n.rays / t.seconds : 0.0);
    row("box_tests_per_s", "tests/s", t.box_tests_per_s());
    row("tri_tests_per_s", "tests/s", t.tri_tests_per_s());
    row("box_fraction_of_peak", "fraction", t.box_tests_per_s() / t.box_peak_per_s);
    row("tri_fraction_of_peak", "fraction", t.tri_tests_per_s() / t.tri_peak_per_s);
    row("td_utilisation", "fraction", t.td_utilisation);
    for (const LevelFigures& level : t.levels) row(level.name + ".hit_rate", "fraction", level.hit_rate());
    row("dram_bytes", "bytes", static_cast<double>(t.dram_bytes));
  }
  return out;
}

}  // namespace td::run

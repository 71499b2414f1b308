#include "tb/microbench/microbench.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <systemc>

#include "model/chip/chip.h"
#include "model/isa/fp32.h"
#include "model/sim/interrupt.h"
#include "model/sim/json_writer.h"
#include "model/ref/intersect.h"
#include "tb/common/rng.h"
#include "tb/engines/wave_feeder.h"
#include "tb/microbench/check_speed.h"

namespace td::tb {


namespace {

constexpr uint32_t kWaveLanes = 64;
constexpr uint64_t kRegionBytes = uint64_t{1} << 20;  // per-TD node region in the peak phases
constexpr uint32_t kMaxResidentNodes = 16;            // per TD: up to 2 KiB
// A bandwidth point whose working set is larger (caches near the 1 GiB the
// configuration allows) is reported as not run: its nodes would not fit in
// the machine's memory, or take minutes to write.
constexpr uint64_t kMaxWorkingSetBytes = uint64_t{1} << 30;

// Rays from inside a unit cube in random directions (never axis-parallel
// enough to matter): about half of the boxes around them are hit.
Ray random_ray(Rng& rng) {
  Ray ray;
  ray.extent = 1e30f;
  for (int a = 0; a < 3; ++a) {
    ray.origin[a] = rng.uniform(-0.5f, 0.5f);
    float d = rng.uniform(-1.0f, 1.0f);
    if (abs_value(d) < 1e-3f) d = 1e-3f;
    ray.dir[a] = d;
    ray.inv_dir[a] = 1.0f / d;
  }
  return ray;
}

BoxNode random_box_node(Rng& rng) {
  BoxNode node;
  for (int i = 0; i < 4; ++i) {
    node.child[i] = static_cast<uint32_t>(rng.next() & 0xfffffff8u) | 4u;
    for (int a = 0; a < 3; ++a) {
      const float centre = rng.uniform(-3.0f, 3.0f), half = rng.uniform(0.25f, 2.0f);
      node.box[i].min[a] = centre - half;
      node.box[i].max[a] = centre + half;
    }
  }
  return node;
}

TriangleNode random_triangle_node(Rng& rng) {
  TriangleNode node;
  for (Vec3& v : node.vertex)
    for (float& c : v) c = rng.uniform(-2.0f, 2.0f);
  node.id = static_cast<uint32_t>(rng.next());
  return node;
}

enum class NodeKind { kBox16, kBox32, kTriangle };

NodeType type_for(NodeKind kind, uint32_t lane) {
  switch (kind) {
    case NodeKind::kBox16: return NodeType::kBox16;
    case NodeKind::kBox32: return NodeType::kBox32;
    case NodeKind::kTriangle: return static_cast<NodeType>(lane % 4);
  }
  return NodeType::kBox16;
}

// Writes `count` nodes of `kind` from `first_unit` on (two units per node
// whatever the kind, so one layout serves every phase).
void write_nodes(MemoryImage& memory, uint64_t first_unit, uint64_t count, NodeKind kind, Rng& rng) {
  NodeBytes bytes{};
  for (uint64_t n = 0; n < count; ++n) {
    switch (kind) {
      case NodeKind::kBox16: encode_box16(random_box_node(rng), bytes.data()); break;
      case NodeKind::kBox32: encode_box32(random_box_node(rng), bytes.data()); break;
      case NodeKind::kTriangle: encode_triangle(random_triangle_node(rng), bytes.data()); break;
    }
    const NodeType type = kind == NodeKind::kBox32 ? NodeType::kBox32 : NodeType::kBox16;
    memory.write((first_unit + 2 * n) * kNodeUnitBytes, bytes.data(), node_bytes(type));
  }
}

Descriptor peak_descriptor() {
  Descriptor d;
  d.box_sort = true;
  d.return_mode = 1;
  d.size_units = (uint64_t{1} << 42) - 1;
  return d;
}

// Rays are drawn from a fixed pool: making a ray per lane would cost the
// testbench more than the TD spends on it.
class RayPool {
 public:
  explicit RayPool(Rng& rng) {
    for (Ray& ray : rays_) ray = random_ray(rng);
  }
  const Ray& pick(Rng& rng) const { return rays_[rng.next() % rays_.size()]; }

 private:
  std::array<Ray, 4096> rays_;
};

// A wave of 64 active lanes; lane l reads node pick(l).
template <typename Pick>
WaveInstr make_wave(NodeKind kind, Rng& rng, const RayPool& rays, Pick pick) {
  WaveInstr instr;
  instr.descriptor = peak_descriptor();
  instr.lanes.reserve(kWaveLanes);
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    instr.lanes.push_back(LaneInput::from_ray(rays.pick(rng), NodePtr::make(pick(l), type_for(kind, l)).raw));
  return instr;
}

double sum_stat(const sim::StatsRegistry& stats, const chip::Chip& chip, const std::string& suffix) {
  double total = 0;
  for (size_t i = 0; i < chip.td_count(); ++i)
    total += static_cast<double>(stats.value(std::string(chip.td(i).name()) + "." + suffix));
  return total;
}

// The bandwidth phase's points: the level each working set fits, and its
// size — each fits the level named and overflows the one above.
std::vector<std::pair<std::string, uint64_t>> bandwidth_points(const cfg::Config& config) {
  const uint64_t l0 = uint64_t{config.l0.size_kib} * 1024, l1 = uint64_t{config.l1.size_kib} * 1024;
  const uint64_t l2 = uint64_t{config.l2.slice.size_kib} * 1024 * config.l2.slices;
  const auto between = [](uint64_t above, uint64_t level) {
    const uint64_t size = std::max(2 * above, level / 2);
    return size < level ? size : (above + level) / 2;
  };
  return {{"l0", l0 / 2}, {"l1", between(l0, l1)}, {"l2", between(l1, l2)}, {"dram", l2 * 4}};
}

class Bench {
 public:
  Bench(const cfg::Config& config, const MicrobenchOptions& options, sim::StatsRegistry& stats,
        sim::VcdWriter* vcd)
      : config_(config),
        options_(options),
        stats_(stats),
        rng_(options.seed),
        rays_(rng_),
        feeder_(config.td_count(), memory_),
        chip_("chip", config, feeder_, stats) {
    chip_.set_memory(memory_);
    chip_.set_threads(options.threads);
    feeder_.set_scoreboard_every(options.check_every);
    if (vcd) chip_.attach_trace(*vcd);
  }

  RateResult peak(NodeKind kind, const std::string& name) {
    // Each TD gets its own resident nodes, in its own region: consecutive
    // 128-byte slots, so at most half of the L0's lines (no conflict misses).
    const uint64_t l0_lines = uint64_t{config_.l0.size_kib} * 1024 / config_.l0.line_bytes;
    const uint64_t lines_per_slot = std::max<uint64_t>(1, 128 / config_.l0.line_bytes);
    const uint64_t resident = std::clamp<uint64_t>(l0_lines / 2 / lines_per_slot, 1, kMaxResidentNodes);
    for (uint32_t t = 0; t < config_.td_count(); ++t) write_nodes(memory_, region_unit(t), resident, kind, rng_);
    chip_.invalidate_caches();
    const auto pick_resident = [this, resident](uint32_t td, uint64_t wave) {
      return [td, wave, resident](uint32_t lane) {
        return region_unit(td) + 2 * ((wave * kWaveLanes + lane) % resident);
      };
    };
    run_waves(kind, 1, pick_resident);  // warm-up: every resident node into its L0
    const double tests_before = tests_of(kind);
    const uint64_t cycles = run_waves(kind, options_.waves_per_td, pick_resident);
    const double tests_per_lane = kind == NodeKind::kTriangle ? 1.0 : 4.0;
    RateResult r;
    r.name = name;
    r.tests = static_cast<uint64_t>(tests_of(kind) - tests_before);
    r.cycles = cycles;
    r.with_fill_per_s = static_cast<double>(r.tests) / seconds(cycles);
    r.tests_per_s = steady_state_lanes_per_cycle() * tests_per_lane * clock_hz();
    r.peak_per_s = tests_per_lane * config_.td_count() * clock_hz();
    return r;
  }

  std::vector<LatencyResult> latency() {
    const uint64_t unit = region_unit(config_.td_count());  // beyond every TD's region
    write_nodes(memory_, unit, 1, NodeKind::kBox32, rng_);
    chip_.invalidate_caches();
    std::vector<LatencyResult> results;
    const auto one_lane = [&](const char* level) {
      WaveInstr instr = make_wave(NodeKind::kBox32, rng_, rays_, [unit](uint32_t) { return unit; });
      for (uint32_t l = 1; l < kWaveLanes; ++l) instr.lanes[l].exec = false;
      uint64_t cycles = 0;
      feeder_.set_completion([&](uint32_t, const WaveInstr&, const WaveResult& r) {
        cycles = r.complete_cycle - r.accept_cycle;
      });
      feeder_.push(0, std::move(instr));
      run_until_idle();
      feeder_.set_completion(nullptr);
      results.push_back(LatencyResult{level, cycles, static_cast<double>(cycles) * 1e3 / config_.chip.clock_mhz});
    };
    one_lane("dram");  // caches empty
    chip_.td(0).l0().invalidate();
    chip_.l1(0).invalidate();
    one_lane("l2");
    chip_.td(0).l0().invalidate();
    one_lane("l1");
    one_lane("l0");
    return results;
  }

  BandwidthResult bandwidth(const std::string& bound, uint64_t working_set_bytes) {
    if (working_set_bytes > kMaxWorkingSetBytes) {
      BandwidthResult skipped;
      skipped.bound = bound;
      skipped.working_set_bytes = working_set_bytes;
      skipped.l0_hit_rate = skipped.l1_hit_rate = skipped.l2_hit_rate = std::nan("");
      skipped.limited_by = fmt::format("not run: working set over the {} GiB tdsim builds", kMaxWorkingSetBytes >> 30);
      return skipped;
    }
    const uint64_t nodes = std::max<uint64_t>(1, working_set_bytes / 128);
    const uint64_t base_unit = region_unit(config_.td_count() + 1);
    const auto setup_start = std::chrono::steady_clock::now();
    write_nodes(memory_, base_unit, nodes, NodeKind::kBox32, rng_);
    chip_.invalidate_caches();
    setup_wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
    const auto pick_random = [this, base_unit, nodes](uint32_t td, uint64_t) {
      Rng& rng = td_rngs_[td];
      return [&rng, base_unit, nodes](uint32_t) { return base_unit + 2 * (rng.next() % nodes); };
    };
    // Warm-up: every TD sweeps the working set in order from its own offset
    // (what fits stays resident, and together the TDs cover the whole set),
    // bounded for sets far larger than any cache.
    const uint64_t tds = config_.td_count();
    const auto pick_sweep = [base_unit, nodes, tds](uint32_t td, uint64_t wave) {
      const uint64_t offset = td * nodes / tds;
      return [base_unit, nodes, wave, offset](uint32_t lane) {
        return base_unit + 2 * ((offset + wave * kWaveLanes + lane) % nodes);
      };
    };
    const uint64_t sweep_waves = (nodes + kWaveLanes - 1) / kWaveLanes;
    run_waves(NodeKind::kBox32, static_cast<uint32_t>(std::min<uint64_t>(sweep_waves, options_.bandwidth_waves_per_td)),
              pick_sweep);
    const Snapshot before = snapshot();
    const uint64_t cycles = run_waves(NodeKind::kBox32, options_.bandwidth_waves_per_td, pick_random);
    const Snapshot after = snapshot();
    BandwidthResult r;
    r.bound = bound;
    r.working_set_bytes = nodes * 128;
    r.cycles = cycles;
    r.box_tests_per_s = steady_state_lanes_per_cycle() * 4.0 * clock_hz();
    r.fraction_of_peak = r.box_tests_per_s / (4.0 * config_.td_count() * clock_hz());
    r.l0_hit_rate = hit_rate(before.l0, after.l0);
    r.l1_hit_rate = hit_rate(before.l1, after.l1);
    r.l2_hit_rate = hit_rate(before.l2, after.l2);
    const double window = static_cast<double>(cycles);
    r.l0_port = (after.l0.port_busy - before.l0.port_busy) / (window * config_.td_count());
    r.l1_port = (after.l1.port_busy - before.l1.port_busy) / (window * config_.chip.shader_arrays);
    r.l2_port = (after.l2.port_busy - before.l2.port_busy) / (window * config_.l2.slices);
    const double dram_bytes_per_clock = config_.dram.bandwidth_gb_per_s * 1e9 / clock_hz();
    r.dram_bandwidth = (after.dram_bytes - before.dram_bytes) / (window * dram_bytes_per_clock);
    r.l0_mshr_full = static_cast<uint64_t>(after.l0.mshr_full - before.l0.mshr_full);
    r.l1_mshr_full = static_cast<uint64_t>(after.l1.mshr_full - before.l1.mshr_full);
    r.l2_mshr_full = static_cast<uint64_t>(after.l2.mshr_full - before.l2.mshr_full);
    r.limited_by = limiting_resource(r);
    return r;
  }

  // `phase` timed on the timing model (every lane it completes recorded),
  // then the golden reference over those lanes, on the same memory.
  template <typename Phase>
  void timed(SpeedPath& path, Phase phase) {
    // Sized, and its pages touched, before the clock starts: recording must
    // not charge page faults (or the growth of the buffer) to the model's
    // time. Each TD's apart: the completion runs on the thread running the TD.
    std::vector<std::vector<LaneInput>> lanes(config_.td_count());
    for (std::vector<LaneInput>& td : lanes) {
      td.resize((std::max(options_.waves_per_td, 2 * options_.bandwidth_waves_per_td) + 1) * kWaveLanes * 4);
      td.clear();
    }
    feeder_.set_scoreboard_enabled(path.scoreboard);
    chip_.set_threads(path.threads);
    feeder_.set_completion([&lanes](uint32_t td, const WaveInstr& instr, const WaveResult&) {
      lanes[td].insert(lanes[td].end(), instr.lanes.begin(), instr.lanes.end());
    });
    const uint64_t cycles_before = chip_.end_cycle();
    const double setup_before = setup_wall_s_;
    const auto model_start = std::chrono::steady_clock::now();
    phase();
    // The model's time, without the testbench writing a phase's nodes into
    // memory (a bandwidth point's working set can hold more nodes than the
    // phase tests lanes; the reference is not charged for them either).
    path.model_wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - model_start).count() -
                         (setup_wall_s_ - setup_before);
    path.cycles += chip_.end_cycle() - cycles_before;
    feeder_.set_completion(nullptr);
    chip_.set_threads(1);
    feeder_.set_scoreboard_every(options_.check_every);
    for (const std::vector<LaneInput>& td : lanes)
      for (const LaneInput& lane : td) path.items += lane.exec ? 1 : 0;

    const Descriptor descriptor = peak_descriptor();
    uint32_t sink = 0;
    const auto reference_start = std::chrono::steady_clock::now();
    for (const std::vector<LaneInput>& td : lanes)
      for (const LaneInput& lane : td) sink += ref::intersect(descriptor, lane, memory_).dwords[0];
    path.reference_wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - reference_start).count();
    reference_sink_ += sink;  // keeps the loop from being optimised away
  }

  void finish(MicrobenchReport& report) {
    chip_.finish_accounting();
    report.total_cycles = chip_.end_cycle();
    report.lanes_checked = feeder_.scoreboard().lanes_checked();
    report.inactive_lanes_checked = feeder_.scoreboard().inactive_lanes_checked();
    report.mismatches = feeder_.scoreboard().mismatches();
    report.mismatch_reports = feeder_.scoreboard().reports();
    report.lane_tests = static_cast<uint64_t>(sum_stat(stats_, chip_, "box_nodes") + sum_stat(stats_, chip_, "tri_tests"));
  }

 private:
  struct HitMiss {
    double hits = 0, misses = 0, port_busy = 0, mshr_full = 0;
  };
  struct Snapshot {
    HitMiss l0, l1, l2;
    double dram_bytes = 0;
  };

  // Lanes returned per cycle while every TD was streaming: over the window
  // from the last TD's first return to the first TD's last return (fill and
  // drain outside it). Falls back to the whole run when there is no such
  // window (one instruction per TD).
  double steady_state_lanes_per_cycle() const {
    const auto& done = feeder_.completions();
    std::vector<uint64_t> first(config_.td_count(), UINT64_MAX), last(config_.td_count(), 0);
    for (const auto& c : done) {
      first[c.td_index] = std::min(first[c.td_index], c.cycle);
      last[c.td_index] = std::max(last[c.td_index], c.cycle);
    }
    uint64_t from = 0, to = UINT64_MAX;
    double all_lanes = 0;
    for (uint32_t t = 0; t < config_.td_count(); ++t) {
      if (first[t] == UINT64_MAX) continue;  // a TD given nothing
      from = std::max(from, first[t]);
      to = std::min(to, last[t]);
    }
    for (const auto& c : done) all_lanes += c.active_lanes;
    if (to == UINT64_MAX || to <= from)
      return all_lanes / static_cast<double>(feeder_.last_complete_cycle() + 1 - feeder_.first_accept_cycle());
    double lanes = 0;
    for (const auto& c : done)
      if (c.cycle > from && c.cycle <= to) lanes += c.active_lanes;
    return lanes / static_cast<double>(to - from);
  }

  // The datapath if it ran near peak; else a port or DRAM that was busy
  // nearly all the time; else the deepest level whose MSHRs refused
  // requests (when L1's are full, L0's fill up behind them: the deepest is
  // the cause); else latency (too few lanes in flight to cover it).
  static std::string limiting_resource(const BandwidthResult& r) {
    if (r.fraction_of_peak >= 0.95) return "datapath";
    const std::pair<double, const char*> busy[] = {
        {r.l0_port, "L0 port"}, {r.l1_port, "L1 port"}, {r.l2_port, "L2 port"}, {r.dram_bandwidth, "DRAM bandwidth"}};
    const auto* most = &busy[0];
    for (const auto& b : busy)
      if (b.first > most->first) most = &b;
    if (most->first >= 0.9) return most->second;
    if (r.l2_mshr_full > 0) return "L2 MSHRs";
    if (r.l1_mshr_full > 0) return "L1 MSHRs";
    if (r.l0_mshr_full > 0) return "L0 MSHRs";
    return "latency";
  }

  // NaN when the level saw no access in the window.
  static double hit_rate(const HitMiss& before, const HitMiss& after) {
    const double hits = after.hits - before.hits, misses = after.misses - before.misses;
    return hits + misses > 0 ? hits / (hits + misses) : std::nan("");
  }

  Snapshot snapshot() const {
    Snapshot s;
    const auto add = [this](HitMiss& level, const std::string& prefix) {
      level.hits += static_cast<double>(stats_.value(prefix + "hits"));
      level.misses += static_cast<double>(stats_.value(prefix + "misses"));
      level.port_busy += static_cast<double>(stats_.value(prefix + "port_busy_cycles"));
      level.mshr_full += static_cast<double>(stats_.value(prefix + "mshr_full"));
    };
    for (size_t t = 0; t < chip_.td_count(); ++t) add(s.l0, std::string(chip_.td(t).name()) + ".l0.");
    for (uint32_t a = 0; a < config_.chip.shader_arrays; ++a) add(s.l1, "chip.sa" + std::to_string(a) + ".l1.");
    for (uint32_t i = 0; i < config_.l2.slices; ++i) add(s.l2, "chip.l2.slice" + std::to_string(i) + ".");
    s.dram_bytes = static_cast<double>(stats_.value("chip.dram.bytes"));
    return s;
  }

  double tests_of(NodeKind kind) const {
    return sum_stat(stats_, chip_, kind == NodeKind::kTriangle ? "tri_tests" : "box_tests");
  }
  double clock_hz() const { return config_.chip.clock_mhz * 1e6; }
  double seconds(uint64_t cycles) const { return static_cast<double>(cycles) / clock_hz(); }
  static uint64_t region_unit(uint64_t region) { return region * (kRegionBytes / kNodeUnitBytes); }

  // Streams `waves_per_td` instructions into every TD; returns the cycles
  // from the first accept to the last return.
  template <typename PickFactory>
  uint64_t run_waves(NodeKind kind, uint32_t waves_per_td, PickFactory pick_factory) {
    std::vector<uint32_t> issued(config_.td_count(), 0);
    // Each TD draws its rays (and random nodes) from its own sequence: the
    // chip may run a TD ahead of the others (WaveFeeder is kPerTd).
    td_rngs_.clear();
    for (uint32_t t = 0; t < config_.td_count(); ++t) td_rngs_.emplace_back(rng_.next());
    feeder_.set_generator([&, kind, waves_per_td](uint32_t td, WaveInstr& out) {
      if (issued[td] == waves_per_td) return false;
      out = make_wave(kind, td_rngs_[td], rays_, pick_factory(td, issued[td]++));
      return true;
    });
    feeder_.reset_window();
    chip_.wake_all();
    const chip::RunOutcome outcome = chip_.run_until_idle(
        [&] {
          for (uint32_t n : issued)
            if (n < waves_per_td) return false;
          return true;
        });
    feeder_.end_generation();
    chip_.throw_unless_done(outcome);
    run_until_idle();
    return feeder_.last_complete_cycle() + 1 - feeder_.first_accept_cycle();
  }

  void run_until_idle() {
    chip_.wake_all();
    chip_.throw_unless_done(chip_.run_until_idle([this] { return feeder_.done(); }));
  }

  const cfg::Config& config_;
  const MicrobenchOptions options_;
  sim::StatsRegistry& stats_;
  uint64_t reference_sink_ = 0;
  Rng rng_;
  std::vector<Rng> td_rngs_;  // run_waves(): each TD's
  double setup_wall_s_ = 0;  // writing the bandwidth points' nodes (not the model's time)
  RayPool rays_;
  MemoryImage memory_;
  WaveFeeder feeder_;
  chip::Chip chip_;
};

}  // namespace

namespace {


std::string bytes_text(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

std::string percent_text(double fraction) {
  return std::isnan(fraction) ? std::string("-") : fmt::format("{:.1f}%", 100.0 * fraction);
}


}  // namespace

const RateResult* MicrobenchReport::rate(const std::string& name) const {
  for (const RateResult& r : rates)
    if (r.name == name) return &r;
  return nullptr;
}

const SpeedPath* SpeedReport::path(const std::string& name) const {
  for (const SpeedPath& p : paths)
    if (p.name == name) return &p;
  return nullptr;
}

const std::vector<std::string>& speed_path_names() {
  static const std::vector<std::string> names{"peak", "peak_no_scoreboard", "peak_threads", "memory_bound", "check"};
  return names;
}

SpeedReport run_speed_benchmark(const cfg::Config& config, const SpeedOptions& options) {
  const auto wanted = [&](const std::string& name) {
    return options.paths.empty() || std::find(options.paths.begin(), options.paths.end(), name) != options.paths.end();
  };
  SpeedReport report;
  report.chip_name = config.chip.name;
  report.effective_config = cfg::to_yaml(config);
  report.tds = config.td_count();
  report.datapath = config.td.datapath;
  SpeedPath check_path;
  if (wanted("check")) {
    // Other processes: first, while this one holds no chip and no threads.
    const CheckSpeed check = measure_check_speed(config, options.check_cases, 1);
    check_path.name = "check";
    check_path.description = fmt::format("check, {} random cases", check.cases);
    check_path.unit = "cases";
    check_path.items = check.cases;
    check_path.model_wall_s = check.model_wall_s;
    check_path.reference_wall_s = check.reference_wall_s;
    check_path.model_rss_kib = check.model_rss_kib;
    check_path.reference_rss_kib = check.reference_rss_kib;
  }
  MicrobenchOptions bench_options;
  bench_options.waves_per_td = options.waves_per_td;
  bench_options.bandwidth_waves_per_td = options.bandwidth_waves_per_td;
  sim::StatsRegistry stats;
  Bench bench(config, bench_options, stats, nullptr);
  const auto peak_path = [&](const std::string& name, const std::string& description, bool scoreboard,
                             unsigned threads) {
    SpeedPath path;
    path.name = name;
    path.description = description;
    path.scoreboard = scoreboard;
    path.threads = threads;
    for (NodeKind kind : {NodeKind::kBox16, NodeKind::kBox32, NodeKind::kTriangle})
      bench.timed(path, [&] { bench.peak(kind, "speed"); });
    return path;
  };
  if (wanted("peak")) report.paths.push_back(peak_path("peak", "peak, scoreboard on", true, 1));
  if (wanted("peak_no_scoreboard"))
    report.paths.push_back(peak_path("peak_no_scoreboard", "peak, scoreboard off", false, 1));
  if (wanted("peak_threads"))
    report.paths.push_back(
        peak_path("peak_threads", fmt::format("peak, scoreboard on, {} threads", options.threads), true, options.threads));
  if (wanted("memory_bound")) {
    SpeedPath path;
    path.name = "memory_bound";
    path.description = "memory-bound: bandwidth phase, scoreboard off";
    bench.timed(path, [&] {
      for (const auto& [level, bytes] : bandwidth_points(config)) bench.bandwidth(level, bytes);
    });
    report.paths.push_back(path);
  }
  if (wanted("check")) report.paths.push_back(check_path);
  return report;
}

std::string format_speed_report(const SpeedReport& r) {
  std::string out = fmt::format(
      "tdsim bench: {}, {} TDs ({} datapaths): the timing model's speed against the golden reference's on the same "
      "lanes\n",
      r.chip_name, r.tds, r.datapath);
  out += fmt::format("  {:<46} {:>10} {:>10} {:>14} {:>14} {:>9}\n", "path", "simulated", "items", "model",
                     "reference", "model/ref");
  const SpeedPath* single = r.path("peak");
  for (const SpeedPath& p : r.paths) {
    const bool cases = p.unit == "cases";
    const auto rate = [cases](double per_s) {
      return cases ? fmt::format("{:.0f} cases/s", per_s) : fmt::format("{:.2f} M/s", per_s / 1e6);
    };
    out += fmt::format("  {:<46} {:>10} {:>10} {:>14} {:>14} {:>8.1f}%", p.description,
                       cases ? std::string("-") : fmt::format("{} cyc", p.cycles), p.items, rate(p.model_per_s()),
                       rate(p.reference_per_s()), 100.0 * p.model_to_reference());
    if (p.name == "peak_threads" && single)
      out += fmt::format("  ({:.2f}x one thread)", p.model_per_s() / single->model_per_s());
    if (p.name == "check")
      out += fmt::format("  (peak memory {:.1f} MiB vs {:.1f} MiB)", p.model_rss_kib / 1024.0,
                         p.reference_rss_kib / 1024.0);
    out += "\n";
  }
  return out;
}

std::string speed_report_json(const SpeedReport& r) {
  sim::JsonWriter json;
  json.begin_object();
  json.key("chip").value(r.chip_name);
  json.key("effective_config").value(r.effective_config);
  json.key("tds").value(r.tds);
  json.key("datapath").value(r.datapath);
  // The headline ratios, each present when its path ran.
  if (const SpeedPath* p = r.path("peak")) {
    json.key("model_lane_tests_per_s").value(p->model_per_s());
    json.key("reference_lane_tests_per_s").value(p->reference_per_s());
    json.key("model_to_reference").value(p->model_to_reference());
  }
  if (const SpeedPath* p = r.path("peak_no_scoreboard")) {
    json.key("model_lane_tests_per_s_no_scoreboard").value(p->model_per_s());
    json.key("model_to_reference_no_scoreboard").value(p->model_to_reference());
  }
  if (const SpeedPath* t = r.path("peak_threads")) {
    json.key("threads").value(t->threads);
    if (const SpeedPath* p = r.path("peak")) json.key("thread_speedup").value(t->model_per_s() / p->model_per_s());
  }
  if (const SpeedPath* p = r.path("memory_bound"))
    json.key("memory_bound_lane_tests_per_s").value(p->model_per_s());
  if (const SpeedPath* p = r.path("check")) {
    json.key("check_model_to_reference").value(p->model_to_reference());
    json.key("check_rss_model_to_reference")
        .value(static_cast<double>(p->model_rss_kib) / static_cast<double>(p->reference_rss_kib));
  }
  json.key("paths").begin_array();
  for (const SpeedPath& p : r.paths) {
    json.begin_object();
    json.key("name").value(p.name);
    json.key("description").value(p.description);
    json.key("unit").value(p.unit);
    json.key("threads").value(p.threads);
    json.key("scoreboard").value(p.scoreboard);
    json.key("items").value(p.items);
    json.key("cycles").value(p.cycles);
    json.key("model_wall_s").value(p.model_wall_s);
    json.key("reference_wall_s").value(p.reference_wall_s);
    json.key("model_per_s").value(p.model_per_s());
    json.key("reference_per_s").value(p.reference_per_s());
    json.key("model_to_reference").value(p.model_to_reference());
    if (p.name == "check") {
      json.key("model_rss_kib").value(p.model_rss_kib);
      json.key("reference_rss_kib").value(p.reference_rss_kib);
    }
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.text();
}

namespace {

void run_phases(const cfg::Config& config, const MicrobenchOptions& options, Bench& bench,
                MicrobenchReport& report) {
  if (options.peak) {
    report.rates.push_back(bench.peak(NodeKind::kBox16, "box_fp16"));
    report.rates.push_back(bench.peak(NodeKind::kBox32, "box_fp32"));
    report.rates.push_back(bench.peak(NodeKind::kTriangle, "triangle"));
  }
  if (options.latency) report.latencies = bench.latency();
  if (options.bandwidth)
    for (const auto& [level, bytes] : bandwidth_points(config)) report.bandwidth.push_back(bench.bandwidth(level, bytes));
}

}  // namespace

MicrobenchReport run_microbenchmarks(const cfg::Config& config, const MicrobenchOptions& options,
                                     sim::StatsRegistry& stats, sim::VcdWriter* vcd) {
  const auto start = std::chrono::steady_clock::now();
  MicrobenchReport report;
  report.chip_name = config.chip.name;
  report.config_source = config.source;
  report.effective_config = cfg::to_yaml(config);
  report.tds = config.td_count();
  report.clock_mhz = config.chip.clock_mhz;
  report.check_every = options.check_every;
  Bench bench(config, options, stats, vcd);
  try {
    run_phases(config, options, bench, report);
  } catch (const sim::Interrupted&) {
    report.partial = true;
  }
  bench.finish(report);
  report.timing = report::timing_figures(stats, config, report.total_cycles);
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

std::string format_report(const MicrobenchReport& r) {
  std::string out = fmt::format("tdsim peak: {} ({}), {} TDs at {} MHz\n\n", r.chip_name, r.config_source, r.tds,
                                r.clock_mhz);
  if (r.partial) out += "PARTIAL REPORT: interrupted; the phase that was running and those after it are left out\n\n";
  out += fmt::format("{:<18} {:>14} {:>14} {:>9} {:>20} {:>9}\n", "rate (nodes in L0)", "measured", "peak",
                     "of peak", "with fill and drain", "cycles");
  for (const RateResult& rate : r.rates)
    out += fmt::format("{:<18} {:>10.2f} G/s {:>10.2f} G/s {:>8.2f}% {:>10.2f} G/s {:>6.2f}% {:>9}\n", rate.name,
                       rate.tests_per_s / 1e9, rate.peak_per_s / 1e9, 100.0 * rate.tests_per_s / rate.peak_per_s,
                       rate.with_fill_per_s / 1e9, 100.0 * rate.with_fill_per_s / rate.peak_per_s, rate.cycles);
  if (!r.latencies.empty()) {
    out += "\nlatency, one lane (accept -> return):\n";
    for (const LatencyResult& l : r.latencies)
      out += fmt::format("  node in {:<5} {:>7} cycles {:>9.1f} ns\n", l.level, l.cycles, l.ns);
  }
  if (!r.bandwidth.empty()) {
    out += "\nbandwidth, random FP32 box nodes over a working set that fits the level named:\n";
    out += fmt::format("  {:<12} {:>6} {:>14} {:>9} {:>8} {:>8} {:>8}  {}\n", "working set", "fits", "box tests/s",
                       "of peak", "L0 hit", "L1 hit", "L2 hit", "limited by");
    for (const BandwidthResult& b : r.bandwidth)
      out += fmt::format("  {:>12} {:>6} {:>10.2f} G/s {:>8.2f}% {:>8} {:>8} {:>8}  {}\n", bytes_text(b.working_set_bytes),
                         b.bound, b.box_tests_per_s / 1e9, 100.0 * b.fraction_of_peak,
                         percent_text(b.l0_hit_rate), percent_text(b.l1_hit_rate), percent_text(b.l2_hit_rate),
                         b.limited_by);
  }
  const std::string mode = r.check_every == 0   ? "off"
                           : r.check_every == 1 ? "all"
                                                : fmt::format("sample:{}", r.check_every);
  out += fmt::format(
      "\nscoreboard ({}): {} lanes checked against the reference ({} active, {} inactive), {} mismatches\n", mode,
      r.lanes_checked, r.lanes_checked - r.inactive_lanes_checked, r.inactive_lanes_checked, r.mismatches);
  for (const std::string& line : r.mismatch_reports) out += "  " + line + "\n";
  out += fmt::format("simulated {} cycles, {} lane tests (active lanes through a datapath) in {:.2f} s wall: "
                     "{:.2f} M lane-tests/s\n", r.total_cycles,
                     r.lane_tests, r.wall_s, static_cast<double>(r.lane_tests) / r.wall_s / 1e6);
  return out;
}

report::Headline peak_headline(const MicrobenchReport& r) {
  report::Headline headline = report::headline_of(r.timing);
  if (!r.bandwidth.empty()) headline.limited_by = r.bandwidth.back().limited_by;
  for (auto point = r.bandwidth.rbegin(); point != r.bandwidth.rend(); ++point)
    headline.figures.push_back({fmt::format("bandwidth_{}_box_tests_per_s", point->bound), "tests/s",
                                point->box_tests_per_s});
  for (const RateResult& rate : r.rates)
    headline.figures.push_back({rate.name + "_tests_per_s", "tests/s", rate.tests_per_s});
  for (const LatencyResult& latency : r.latencies)
    headline.figures.push_back({fmt::format("latency_{}_cycles", latency.level), "cycles",
                                static_cast<double>(latency.cycles)});
  report::add_mshr_figures(headline, r.timing);
  return headline;
}

std::string report_json(const MicrobenchReport& r) {
  sim::JsonWriter json;
  json.begin_object();
  json.key("chip").value(r.chip_name);
  json.key("config").value(r.config_source);
  json.key("effective_config").value(r.effective_config);
  json.key("tds").value(r.tds);
  json.key("clock_mhz").value(r.clock_mhz);
  json.key("partial").value(r.partial);
  // Rate keys: box_* (FP16 nodes, the headline), box32_* (FP32 nodes), tri_*.
  const struct {
    const char* phase;
    const char* key;
  } kRateKeys[] = {{"box_fp16", "box"}, {"box_fp32", "box32"}, {"triangle", "tri"}};
  for (const auto& entry : kRateKeys) {
    const RateResult* rate = r.rate(entry.phase);
    if (!rate) continue;
    const std::string key = entry.key;
    json.key(key + "_tests_per_s").value(rate->tests_per_s);
    json.key(key + "_tests_per_s_with_fill").value(rate->with_fill_per_s);
    json.key(key + "_peak_per_s").value(rate->peak_per_s);
    json.key(key + "_cycles").value(rate->cycles);
  }
  json.key("latency_cycles").begin_object();
  for (const LatencyResult& latency : r.latencies) json.key(latency.level).value(latency.cycles);
  json.end_object();
  json.key("bandwidth").begin_array();
  for (const BandwidthResult& b : r.bandwidth) {
    json.begin_object();
    json.key("fits").value(b.bound);
    json.key("working_set_bytes").value(b.working_set_bytes);
    json.key("box_tests_per_s").value(b.box_tests_per_s);
    json.key("fraction_of_peak").value(b.fraction_of_peak);
    json.key("l0_hit_rate").value(b.l0_hit_rate);
    json.key("l1_hit_rate").value(b.l1_hit_rate);
    json.key("l2_hit_rate").value(b.l2_hit_rate);
    json.key("l0_port_busy").value(b.l0_port);
    json.key("l1_port_busy").value(b.l1_port);
    json.key("l2_port_busy").value(b.l2_port);
    json.key("dram_bandwidth_busy").value(b.dram_bandwidth);
    json.key("l0_mshr_full").value(b.l0_mshr_full);
    json.key("l1_mshr_full").value(b.l1_mshr_full);
    json.key("l2_mshr_full").value(b.l2_mshr_full);
    json.key("limited_by").value(b.limited_by);
    json.key("cycles").value(b.cycles);
    json.end_object();
  }
  json.end_array();
  json.key("cycles").value(r.total_cycles);
  json.key("lane_tests").value(r.lane_tests);
  json.key("lanes_checked").value(r.lanes_checked);
  json.key("mismatches").value(r.mismatches);
  json.key("wall_s").value(r.wall_s);
  json.key("headline");
  report::write_headline(json, peak_headline(r));
  json.end_object();
  return json.text();
}

}  // namespace td::tb

// Soak: random valid chip configurations drawn over the documented ranges
// (model/config/config.h), biased towards the ends and towards small values
// so that each run stays short (one in twenty with the Verilated datapaths,
// td.datapath: rtl), each through the tdsim binary: `tdsim check`
// of a vector file on the timing model (every lane equal to the file and to
// the golden reference) and a short `tdsim peak` (every lane through the
// scoreboard). Any crash, deadlock, std::bad_alloc, mismatch or timeout is a
// failure that prints the seed, the configuration and how to run it alone.
// A few sizes are capped to keep runs short (the TD count, pipeline depths);
// tests/sc/extreme_config_test.cpp runs every key at both ends of its range.
//
// TDSIM_SOAK_SEED (default 1) and TDSIM_SOAK_CONFIGS (default kConfigs)
// change the draw; TDSIM_SOAK_ONLY=i runs configuration i alone;
// TDSIM_SOAK_KEEP=1 keeps the configuration files of a passing run.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model/config/config.h"

namespace td::test {
namespace {

constexpr int kConfigs = 800;
constexpr uint64_t kDefaultSeed = 1;

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::strtoull(value, nullptr, 10) : fallback;
}

// splitmix64: the same draw on every platform.
class Draw {
 public:
  explicit Draw(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  bool chance(double p) { return unit() < p; }
  // An integer in [lo, hi]: lo a quarter of the time, hi a tenth, else
  // log-uniform (small values far more often than large ones).
  uint32_t whole(uint32_t lo, uint32_t hi) {
    const double u = unit();
    if (u < 0.25 || lo == hi) return lo;
    if (u < 0.35) return hi;
    const double a = std::log(static_cast<double>(lo) + 1), b = std::log(static_cast<double>(hi) + 1);
    const auto v = static_cast<uint32_t>(std::exp(a + (b - a) * unit()) - 1);
    return std::clamp(v, lo, hi);
  }
  // A power of two 2^lo .. 2^hi, ends favoured as whole().
  uint32_t power(uint32_t lo_bits, uint32_t hi_bits) { return 1u << whole(lo_bits, hi_bits); }
  // A number in [lo, hi]: the ends a quarter and a tenth of the time, else log-uniform.
  double number(double lo, double hi) {
    const double u = unit();
    if (u < 0.25) return lo;
    if (u < 0.35) return hi;
    const double a = std::log(std::max(lo, 1e-3)), b = std::log(hi);
    return std::clamp(std::exp(a + (b - a) * unit()), lo, hi);
  }

 private:
  uint64_t state_;
};

void draw_cache(Draw& d, cfg::CacheConfig& c) {
  c.line_bytes = d.power(4, 12);                       // 16 .. 4096
  c.ways = d.chance(0.7) ? d.power(0, 12) : d.whole(1, 4096);
  // Sets: a power of two giving a whole number of KiB, at most 1 GiB.
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_bytes;
  uint64_t sets = 1;
  while (sets * set_bytes % 1024 != 0) sets *= 2;
  const uint64_t max_sets = (uint64_t{1} << 30) / set_bytes;
  uint32_t bits = 0;
  while ((sets << (bits + 1)) <= max_sets) ++bits;
  sets <<= d.whole(0, bits);
  c.size_kib = static_cast<uint32_t>(sets * set_bytes / 1024);
  c.hit_latency_cycles = d.whole(1, 100000);
  c.mshrs = d.whole(1, 4096);
  c.bytes_per_clock = d.whole(1, 4096);
}

// What config.cpp demands of each cache (its largest request): raised to it.
void meet_line_demands(cfg::Config& c) {
  const auto lines_of = [](uint32_t bytes, uint32_t line) { return std::max(1u, bytes / line); };
  const uint32_t l0 = std::max(2u, 128 / c.l0.line_bytes);
  const uint32_t l1 = lines_of(c.l0.line_bytes, c.l1.line_bytes);
  const uint32_t l2 = (lines_of(c.l1.line_bytes, c.l2.slice.line_bytes) + c.l2.slices - 1) / c.l2.slices;
  const std::pair<cfg::CacheConfig*, uint32_t> demands[] = {{&c.l0, l0}, {&c.l1, l1}, {&c.l2.slice, l2}};
  for (auto [cache, lines] : demands) {
    cache->mshrs = std::max(cache->mshrs, lines);
    while (uint64_t{cache->size_kib} * 1024 / cache->line_bytes < lines) cache->size_kib *= 2;
  }
}

cfg::Config draw_config(uint64_t seed) {
  Draw d(seed);
  cfg::Config c;
  c.chip.name = "soak " + std::to_string(seed);
  c.chip.clock_mhz = d.number(0.001, 10000);
  c.chip.wgps = d.whole(1, 16);            // capped (<= 256): runs stay short
  c.chip.tds_per_wgp = d.whole(1, 8);
  c.chip.shader_arrays = d.whole(1, std::min(64u, c.chip.wgps));
  c.td.instruction_queue_depth = d.whole(1, 4096);
  c.td.fetch_queue_depth = d.whole(1, 4096);
  c.td.return_buffer_entries = d.whole(1, 4096);
  c.td.box_latency_cycles = d.whole(1, 10000);  // capped (<= 100000): a register per clock per TD
  c.td.triangle_latency_cycles = d.whole(1, 10000);
  c.td.sort_latency_cycles = d.whole(1, 10000);
  c.td.return_latency_cycles = d.whole(0, 100000);
  c.td.datapath = "cpp";
#if TDSIM_HAVE_RTL
  if (d.chance(0.05)) {  // the Verilated datapaths, at their own latencies
    c.td.datapath = "rtl";
    c.td.box_latency_cycles = TDSIM_RTL_BOX_LATENCY;
    c.td.triangle_latency_cycles = TDSIM_RTL_TRIANGLE_LATENCY;
    c.td.sort_latency_cycles = TDSIM_RTL_SORT_LATENCY;
  }
#endif
  draw_cache(d, c.l0);
  draw_cache(d, c.l1);
  c.l2.slices = d.whole(1, 256);
  draw_cache(d, c.l2.slice);
  c.dram.channels = d.whole(1, 1024);
  c.dram.interleave_bytes = d.power(4, 20);
  c.dram.bandwidth_gb_per_s = d.number(0.001, 100000);
  c.dram.latency_ns = d.chance(0.2) ? 0.0 : d.number(1, 1000000);
  c.shader.lanes_per_wave = d.chance(0.5) ? 32 : 64;
  c.shader.simds_per_td = d.whole(1, 4);
  c.shader.waves_per_simd = d.chance(0.3) ? 0 : d.whole(1, 32);
  c.shader.vgprs = d.whole(1, 256);
  c.shader.stack_entries = d.whole(1, 64);
  c.shader.overflow = d.chance(0.5) ? "parent_pointers" : "restart";
  c.shader.alu_instructions_per_iteration = d.whole(0, 100000);
  c.shader.alu_instructions_per_instance = d.whole(0, 100000);
  c.shader.lds_latency_cycles = d.whole(0, 100000);
  c.shader.wave_launch_cycles = d.whole(1, 100000);
  c.shader.hit_attribute_loads = d.whole(0, 3);
  c.shader.hit_texture_loads = d.whole(0, 16);
  c.shader.hit_texture_kib = d.whole(1, 1048576);
  c.shader.hit_alu_instructions = d.whole(0, 100000);
  const auto builder = [&d] { return d.chance(0.34) ? "sah" : d.chance(0.5) ? "lbvh" : "ploc"; };
  c.bvh.blas_builder = builder();
  c.bvh.tlas_builder = builder();
  c.bvh.ploc_radius = d.whole(1, 64);
  c.bvh.tapu = d.chance(0.25) ? "off" : d.chance(0.33) ? "scene" : d.chance(0.5) ? "4" : "16";
  c.bvh.quality = d.chance(0.5) ? "normal" : "high";
  c.bvh.fp16 = d.chance(0.25) ? "none" : d.chance(0.33) ? "leaf" : d.chance(0.5) ? "all" : "mixed";
  c.bvh.fp16_threshold = d.number(-1, 1000);
  c.bvh.pack = d.chance(0.3) ? "single" : d.chance(0.5) ? "pairs" : "strips";
  c.bvh.max_leaf_size = d.whole(1, 4);
  c.bvh.split_budget = d.number(0, 4);
  meet_line_demands(c);
  return c;
}

struct Outcome {
  int exit_code = 0;
  std::string output;
};

// Runs `command` (stdout and stderr together), at most `timeout_s` seconds.
Outcome run(const std::string& command, int timeout_s) {
  Outcome o;
  FILE* pipe = popen(("timeout " + std::to_string(timeout_s) + " " + command + " 2>&1").c_str(), "r");
  if (!pipe) return Outcome{-1, "popen failed"};
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) o.output.append(buffer, n);
  const int status = pclose(pipe);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return o;
}

std::string tail(const std::string& text, size_t bytes) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

TEST(Soak, RandomValidConfigsRunCleanOnTheTimingModel) {
  const uint64_t seed = env_or("TDSIM_SOAK_SEED", kDefaultSeed);
  const int configs = static_cast<int>(env_or("TDSIM_SOAK_CONFIGS", kConfigs));
  const char* only_text = std::getenv("TDSIM_SOAK_ONLY");
  const int only = only_text && *only_text ? std::atoi(only_text) : -1;  // -1: every configuration
  const std::string source = TDSIM_SOURCE_DIR;
  // One case per rule and boundary of the semantics (138 cases): every
  // node type, descriptor option and fault, in a few instructions.
  const std::string vectors = source + "/tests/vectors/edge-v1.tdv";
  char dir_template[] = "/tmp/tdsim-soak-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  std::printf("soak: seed %llu, %d configurations, in %s\n", static_cast<unsigned long long>(seed), configs,
              dir.c_str());

  // Drawn up front, in order: the same seed gives the same configurations.
  struct Job {
    int index;
    std::string path, yaml;
  };
  std::vector<Job> jobs;
  int redrawn = 0;
  for (int i = 0; i < configs; ++i) {
    if (only >= 0 && i != only) continue;
    for (uint64_t attempt = 0;; ++attempt) {
      cfg::Config c = draw_config(seed * 1'000'003 + static_cast<uint64_t>(i) * 7919 + attempt * 104729);
      const std::string yaml = cfg::to_yaml(c);
      try {
        (void)cfg::parse_config(yaml, "soak");
      } catch (const cfg::ConfigError& e) {
        ++redrawn;  // e.g. more model memory than allowed: draw again
        ASSERT_LT(attempt, 100u) << e.what();
        continue;
      }
      const std::string path = dir + "/config-" + std::to_string(i) + ".yaml";
      std::ofstream(path) << "# tdsim soak: seed " << seed << ", configuration " << i << "\n" << yaml;
      jobs.push_back(Job{i, path, yaml});
      break;
    }
  }

  const auto start = std::chrono::steady_clock::now();
  std::atomic<size_t> next{0};
  std::mutex report_mutex;
  std::vector<std::string> failures;
  double slowest_s = 0;
  int slowest = -1;
  const auto worker = [&] {
    for (size_t j; (j = next++) < jobs.size();) {
      const Job& job = jobs[j];
      const auto job_start = std::chrono::steady_clock::now();
      const std::string check = std::string(TDSIM_BINARY) + " check " + vectors +
                                " --engine model --config " + job.path;
      const std::string peak = std::string(TDSIM_BINARY) + " peak --config " + job.path +
                               " --waves 2 --no-bandwidth --seed " + std::to_string(job.index + 1);
      std::string problem;
      for (const std::string& command : {check, peak}) {
        const Outcome o = run(command, 60);
        const bool clean = o.exit_code == 0 && o.output.find("bad_alloc") == std::string::npos &&
                           o.output.find("deadlock") == std::string::npos &&
                           (command != check || o.output.find(" passed, 0 failed") != std::string::npos);
        if (!clean)
          problem += "\n$ " + command + "\nexit " + std::to_string(o.exit_code) + "\n" + tail(o.output, 3000);
      }
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - job_start).count();
      const std::lock_guard<std::mutex> lock(report_mutex);
      if (wall_s > slowest_s) {
        slowest_s = wall_s;
        slowest = job.index;
      }
      if (!problem.empty())
        failures.push_back("configuration " + std::to_string(job.index) + " (TDSIM_SOAK_SEED=" +
                           std::to_string(seed) + " TDSIM_SOAK_ONLY=" + std::to_string(job.index) + "):\n" + job.yaml +
                           problem);
    }
  };
  std::thread second(worker);
  worker();
  second.join();
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("soak: %zu configurations (%d redrawn) in %.1f s, slowest %.2f s (configuration %d), %zu failed\n",
              jobs.size(), redrawn, total_s, slowest_s, slowest, failures.size());
  for (const std::string& f : failures) ADD_FAILURE() << f;
  if (failures.empty() && !std::getenv("TDSIM_SOAK_KEEP")) {
    for (const Job& job : jobs) std::remove(job.path.c_str());
    rmdir(dir.c_str());
  } else {
    std::printf("soak: configurations kept in %s\n", dir.c_str());
  }
}

}  // namespace
}  // namespace td::test

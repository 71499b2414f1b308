// microbench.h — `tdsim peak`: microbenchmarks that measure, from simulated
// cycles, what the chip achieves:
//  - peak: every TD streams wave64 instructions whose nodes are resident in
//    its L0 (after a warm-up pass): ray/box with FP16 and FP32 nodes, and
//    ray/triangle; rates beside the theoretical peak;
//  - latency: one lane on one TD with its node in DRAM, L2, L1 and L0;
//  - bandwidth: random FP32 box nodes over a working set larger than L0,
//    L1 and L2 in turn, showing how each level limits throughput.
// Every lane of every instruction is checked by the scoreboard (or every
// Nth instruction's, or none: --scoreboard).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "tb/report/chip_figures.h"
#include "tb/report/headline.h"

namespace td::tb {

struct MicrobenchOptions {
  uint32_t waves_per_td = 256;            // measured wave64 instructions per TD (peak phases)
  bool peak = true;
  uint32_t bandwidth_waves_per_td = 16;   // per bandwidth point
  uint64_t seed = 1;
  bool latency = true;
  bool bandwidth = true;
  unsigned threads = 1;                   // the chip's (Chip::set_threads)
  uint64_t check_every = 1;               // the scoreboard's: 1 all, N every Nth instruction, 0 off
};

// Throughput of one peak phase. `tests_per_s` is the steady state: tests
// returned after the first instruction came back, over the cycles from then
// to the last return (the pipeline is full throughout). `with_fill_per_s`
// counts every test over first accept -> last return, fill and drain included.
struct RateResult {
  std::string name;           // "box_fp16", "box_fp32", "triangle"
  double tests_per_s = 0;
  double with_fill_per_s = 0;
  double peak_per_s = 0;
  uint64_t tests = 0;
  uint64_t cycles = 0;        // first accept -> last return
};

struct LatencyResult {
  std::string level;          // "dram", "l2", "l1", "l0"
  uint64_t cycles = 0;        // accept -> return, one lane
  double ns = 0;
};

struct BandwidthResult {
  std::string bound;              // the level the working set fits (and the one above overflows)
  uint64_t working_set_bytes = 0;
  double box_tests_per_s = 0;
  double fraction_of_peak = 0;
  double l0_hit_rate = 0, l1_hit_rate = 0, l2_hit_rate = 0;
  // Busy fraction over the window: each cache level's ports (averaged over
  // its instances) and DRAM's bandwidth; MSHR-full rejections per level.
  double l0_port = 0, l1_port = 0, l2_port = 0, dram_bandwidth = 0;
  uint64_t l0_mshr_full = 0, l1_mshr_full = 0, l2_mshr_full = 0;
  std::string limited_by;  // the saturated resource, or "latency"
  uint64_t cycles = 0;
};

struct MicrobenchReport {
  std::string chip_name, config_source;
  std::string effective_config;  // cfg::to_yaml of what ran
  uint32_t tds = 0;
  double clock_mhz = 0;
  std::vector<RateResult> rates;
  std::vector<LatencyResult> latencies;
  std::vector<BandwidthResult> bandwidth;
  uint64_t total_cycles = 0;
  uint64_t lane_tests = 0;        // lanes through the datapath
  uint64_t check_every = 1;       // the scoreboard's sampling (MicrobenchOptions::check_every)
  uint64_t lanes_checked = 0;
  uint64_t inactive_lanes_checked = 0;
  // A signal stopped the run: the phases listed finished, the one running was dropped.
  bool partial = false;  // of lanes_checked: EXEC clear, so no test ran
  uint64_t mismatches = 0;
  std::vector<std::string> mismatch_reports;
  double wall_s = 0;
  report::TimingFigures timing;  // the chip's counters over every phase

  const RateResult* rate(const std::string& name) const;
};

// `tdsim bench`: the simulator's own speed on several paths, each against
// the golden reference on the very same lanes (or cases):
//   peak                  the peak microbenchmark, the scoreboard checking every lane
//   peak_no_scoreboard    the same without the scoreboard
//   peak_threads          the peak path on `threads` threads (same bits, less wall time)
//   memory_bound          the bandwidth phase (working sets beyond L0, L1, L2), no scoreboard
//   check                 `tdsim check` on random cases, model vs ref, a process each
struct SpeedOptions {
  uint32_t waves_per_td = 256;   // peak phases
  uint32_t bandwidth_waves_per_td = 16;
  unsigned threads = 2;          // the peak_threads path's
  uint64_t check_cases = 20000;
  std::vector<std::string> paths;  // the paths to run (names above); empty: all
};

struct SpeedPath {
  std::string name;            // as listed above
  std::string description;     // for people
  std::string unit = "lane-tests";  // what `items` counts: lane-tests (lanes through a datapath) or cases
  unsigned threads = 1;
  bool scoreboard = false;
  uint64_t items = 0;
  uint64_t cycles = 0;         // simulated (0 for check)
  double model_wall_s = 0;     // elaboration excluded (check: the whole process)
  double reference_wall_s = 0;
  long model_rss_kib = 0, reference_rss_kib = 0;  // check only
  double model_per_s() const { return static_cast<double>(items) / model_wall_s; }
  double reference_per_s() const { return static_cast<double>(items) / reference_wall_s; }
  double model_to_reference() const { return reference_wall_s / model_wall_s; }
};

struct SpeedReport {
  std::string chip_name;
  std::string effective_config;  // cfg::to_yaml of what ran
  uint32_t tds = 0;
  std::string datapath;          // td.datapath: cpp or rtl
  std::vector<SpeedPath> paths;  // in the order listed above
  const SpeedPath* path(const std::string& name) const;
};

// The names SpeedOptions::paths may hold, in order.
const std::vector<std::string>& speed_path_names();
SpeedReport run_speed_benchmark(const cfg::Config& config, const SpeedOptions& options);
std::string format_speed_report(const SpeedReport& report);
std::string speed_report_json(const SpeedReport& report);

// Elaborates a chip (once per process) and runs the microbenchmarks.
// `vcd`, when given, records the TD pipelines.
MicrobenchReport run_microbenchmarks(const cfg::Config& config, const MicrobenchOptions& options,
                                     sim::StatsRegistry& stats, sim::VcdWriter* vcd);

std::string format_report(const MicrobenchReport& report);
// The figures a sweep tabulates: the memory-bound rate first (the bandwidth
// point with the largest working set; without a bandwidth phase the FP16 box
// peak), every rate, the latency per level; what limited the largest working
// set; stalls and hit rates over every phase.
report::Headline peak_headline(const MicrobenchReport& report);
std::string report_json(const MicrobenchReport& report);

}  // namespace td::tb

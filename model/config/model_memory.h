// model_memory.h — how much memory the timing model needs for a chip
// configuration, estimated from the configuration alone, before anything is
// built: what the model allocates in proportion to its keys (TD pipelines
// and queues, MSHRs, whole tag arrays, DRAM channels, each part's
// bookkeeping and statistics). load_config refuses a configuration whose
// estimate exceeds kMaxModelMemoryBytes, naming the key with the largest
// share, rather than let a run end in std::bad_alloc.
//
// Counted at their most: an instruction slot as holding a wave64
// instruction with its lanes' inputs, routes, rays and results. Not counted: caches above mem::Cache::kDenseTagLines
// lines, which hold only the lines a run touches (memory in proportion to
// the workload, not the cache), and the workload itself (the node memory,
// the wave client's queues). No SystemC.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/isa/lane.h"
#include "model/isa/wave.h"
#include "model/mem/cache.h"
#include "model/ref/intersect.h"
#include "model/td/td_types.h"
#include "model/td/wave_buffer.h"

namespace td::cfg {

// What tdsim allows the model's own state to take.
constexpr uint64_t kMaxModelMemoryBytes = uint64_t{8} << 30;

// Per-part bookkeeping measured on the built model (sc_module names, stats
// and histograms, buffers of a few entries): per TD, per L1 or L2 slice.
constexpr uint64_t kTdBaseBytes = 96 * 1024;
// The three Verilated units of a TD with td.datapath: rtl (2048 TDs took
// 22 MB more than with cpp: about 11 KB each).
constexpr uint64_t kRtlUnitsBytes = 16 * 1024;
constexpr uint64_t kCacheBaseBytes = 4 * 1024;
// One lane of a traversal-shader wave (`tdsim run`): its RayTraversal (short
// stack and restart trail at their largest), ray and bookkeeping. A test
// holds the real size to this bound.
constexpr uint64_t kShaderLaneBytes = 1024;

struct MemoryShare {
  std::string key;   // the configuration key it grows with ("td.instruction_queue_depth")
  uint64_t bytes = 0;
  std::string what;  // "2048 TDs x 1024 instruction slots (...) x 9400 B"
};

struct MemoryEstimate {
  uint64_t bytes = 0;
  std::vector<MemoryShare> shares;

  const MemoryShare& largest() const {
    const MemoryShare* best = &shares.front();
    for (const MemoryShare& s : shares)
      if (s.bytes > best->bytes) best = &s;
    return *best;
  }
};

// "1.5 GiB", "96.0 KiB", "12 B".
inline std::string memory_text(uint64_t bytes) {
  const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

inline MemoryEstimate estimate_model_memory(const Config& c) {
  MemoryEstimate estimate;
  const uint64_t tds = c.td_count();
  const std::string per_td = fmt::format("{} TDs (chip.wgps x chip.tds_per_wgp)", tds);
  const auto add = [&](const std::string& key, uint64_t count, uint64_t items, uint64_t item_bytes,
                       const std::string& count_what, const std::string& item_what) {
    const uint64_t bytes = count * items * item_bytes;
    estimate.bytes += bytes;
    estimate.shares.push_back(
        MemoryShare{key, bytes, fmt::format("{} x {} {} x {} B", count_what, items, item_what, item_bytes)});
  };
  // A channel register holds its item and the cycle it becomes visible.
  const auto reg = [](size_t item) { return (item + sizeof(uint64_t) + 7) / 8 * 8; };
  const uint64_t slot_bytes =
      sizeof(timing::WaveSlot) +
      WaveInstr::kMaxLanes * (sizeof(LaneInput) + sizeof(timing::LaneRoute) + sizeof(Ray) + sizeof(LaneResult));
  add("chip.wgps", tds, 1, kTdBaseBytes, per_td, "TD's stages, stats and histograms");
  if (c.td.datapath == "rtl") add("td.datapath", tds, 1, kRtlUnitsBytes, per_td, "Verilated units' state");
  add("td.instruction_queue_depth", tds, c.td.instruction_queue_depth, slot_bytes, per_td,
      "instruction slots (a wave64 instruction with its lanes' routes, rays and results)");
  add("td.fetch_queue_depth", tds, c.td.fetch_queue_depth, reg(sizeof(timing::FetchJob)), per_td,
      "fetch-queue entries");
  // (A ring entry per lane, and room for as many waiting for their fill.)
  add("td.return_buffer_entries", tds, c.td.return_buffer_entries,
      sizeof(timing::LandedLane) + sizeof(timing::FetchedLane), per_td, "return-buffer entries");
  // (The datapaths hold no lane per clock of latency: a C++ datapath hands
  // each result over as its lane enters, and the RTL's depths are fixed.)
  // Caches: MSHRs, and the tag array when it is kept whole.
  const auto cache = [&](const std::string& path, const CacheConfig& cc, uint64_t count,
                         const std::string& count_what) {
    add(path + ".mshrs", count, cc.mshrs, mem::Cache::mshr_bytes(), count_what, "MSHRs");
    const uint64_t lines = uint64_t{cc.size_kib} * 1024 / cc.line_bytes;
    add(path + ".size_kib", count, lines <= mem::Cache::kDenseTagLines ? lines : 0, mem::Cache::tag_entry_bytes(),
        count_what, "tag entries");
  };
  cache("l0", c.l0, tds, per_td);
  const std::string arrays = fmt::format("{} L1s (chip.shader_arrays)", c.chip.shader_arrays);
  const std::string slices = fmt::format("{} L2 slices (l2.slices)", c.l2.slices);
  cache("l1", c.l1, c.chip.shader_arrays, arrays);
  cache("l2.slice", c.l2.slice, c.l2.slices, slices);
  add("chip.shader_arrays", c.chip.shader_arrays, 1, kCacheBaseBytes, arrays, "cache's bookkeeping");
  add("l2.slices", c.l2.slices, 1, kCacheBaseBytes, slices, "cache's bookkeeping");
  add("dram.channels", 1, c.dram.channels, 2 * sizeof(uint64_t), "DRAM", "channels");
  add("shader.waves_per_simd", tds,
      uint64_t{c.shader.simds_per_td} * shader_occupancy(c.shader).waves_per_simd * c.shader.lanes_per_wave,
      kShaderLaneBytes, per_td, "shader lanes (shader.simds_per_td x shader.waves_per_simd x shader.lanes_per_wave)");
  return estimate;
}

}  // namespace td::cfg

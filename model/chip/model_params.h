// model_params.h — the model's parameters from a chip configuration: cache
// geometry as is, DRAM bandwidth and latency from GB/s and ns into bytes and
// cycles of the chip's clock, and each TD's own numbers. (model/mem and
// model/td know no configuration file; this is where they meet it.)
#pragma once

#include <cmath>

#include "model/config/config.h"
#include "model/chip/datapaths.h"
#include "model/mem/cache.h"
#include "model/mem/dram.h"
#include "model/td/td_params.h"

namespace td::chip {

inline mem::CacheGeometry cache_geometry(const cfg::CacheConfig& c) {
  mem::CacheGeometry g;
  g.size_bytes = uint64_t{c.size_kib} * 1024;
  g.ways = c.ways;
  g.line_bytes = c.line_bytes;
  g.hit_latency_cycles = c.hit_latency_cycles;
  g.mshrs = c.mshrs;
  g.bytes_per_clock = c.bytes_per_clock;
  return g;
}

inline mem::DramTiming dram_timing(const cfg::Config& config) {
  const double clock_hz = config.chip.clock_mhz * 1e6;
  mem::DramTiming t;
  t.channels = config.dram.channels;
  t.interleave_bytes = config.dram.interleave_bytes;
  t.bytes_per_clock_per_channel = config.dram.bandwidth_gb_per_s * 1e9 / clock_hz / config.dram.channels;
  t.latency_cycles = static_cast<uint32_t>(std::llround(config.dram.latency_ns * 1e-9 * clock_hz));
  return t;
}

inline timing::TdParams td_params(const cfg::Config& config) {
  timing::TdParams p;
  p.instruction_queue_depth = config.td.instruction_queue_depth;
  p.fetch_queue_depth = config.td.fetch_queue_depth;
  p.return_buffer_entries = config.td.return_buffer_entries;
  p.box_latency_cycles = config.td.box_latency_cycles;
  p.triangle_latency_cycles = config.td.triangle_latency_cycles;
  p.sort_latency_cycles = config.td.sort_latency_cycles;
  p.return_latency_cycles = config.td.return_latency_cycles;
  p.datapaths = &datapath_factory(config.td.datapath);
  p.l0 = cache_geometry(config.l0);
  return p;
}

}  // namespace td::chip

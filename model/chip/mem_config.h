// mem_config.h — the memory subsystem's parameters from a chip
// configuration: cache geometry as is, DRAM bandwidth and latency from GB/s
// and ns into bytes and cycles of the chip's clock. (model/mem knows no
// configuration file; this is where the two meet.)
#pragma once

#include <cmath>

#include "model/chip/config.h"
#include "model/mem/cache.h"
#include "model/mem/dram.h"

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

}  // namespace td::chip

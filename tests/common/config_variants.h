// config_variants.h — configurations at the ends of the key table's ranges
// (cfg::keys(); ConfigRanges.TheRunVariantsReachTheTablesEnds holds this
// list to it), for the tests that every allowed value either
// loads and runs or is refused up front with its key named. Each variant is
// configs/small.yaml with one key (or one group of keys) at an end of its
// range, and the keys that constrain it (set counts, the MSHRs a fill
// needs, shader_arrays <= wgps) moved just enough to allow it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/config/config.h"

namespace td::test {

struct ConfigVariant {
  std::string name;  // the key at its end ("l0.size_kib"), or the group ("caches.minimum")
  std::function<void(cfg::Config&)> apply;
};

namespace detail {

// The cache at `path` and those below it, in order (l0: l0, l1, l2.slice).
inline std::vector<cfg::CacheConfig*> cache_and_below(cfg::Config& c, const std::string& path) {
  if (path == "l0") return {&c.l0, &c.l1, &c.l2.slice};
  if (path == "l1") return {&c.l1, &c.l2.slice};
  return {&c.l2.slice};
}

inline cfg::CacheConfig& cache_at(cfg::Config& c, const std::string& path) { return *cache_and_below(c, path)[0]; }

// The smallest power-of-two size (KiB) of at least one set of `ways` x `line_bytes`.
inline uint32_t size_for_one_set(const cfg::CacheConfig& cache) {
  const uint64_t set_bytes = uint64_t{cache.ways} * cache.line_bytes;
  return static_cast<uint32_t>(set_bytes < 1024 ? 1 : set_bytes / 1024);
}

}  // namespace detail

// Every key at its documented maximum.
inline std::vector<ConfigVariant> maximum_variants() {
  std::vector<ConfigVariant> v = {
      {"chip.name", [](cfg::Config& c) { c.chip.name = std::string(200, 'n'); }},
      {"chip.clock_mhz", [](cfg::Config& c) { c.chip.clock_mhz = 10000; }},
      {"chip.wgps", [](cfg::Config& c) { c.chip.wgps = 256; }},
      {"chip.tds_per_wgp", [](cfg::Config& c) { c.chip.tds_per_wgp = 8; }},
      {"chip.shader_arrays",
       [](cfg::Config& c) {
         c.chip.wgps = 64;
         c.chip.shader_arrays = 64;
       }},
      {"td.instruction_queue_depth", [](cfg::Config& c) { c.td.instruction_queue_depth = 4096; }},
      {"td.fetch_queue_depth", [](cfg::Config& c) { c.td.fetch_queue_depth = 4096; }},
      {"td.return_buffer_entries", [](cfg::Config& c) { c.td.return_buffer_entries = 4096; }},
      {"td.box_latency_cycles", [](cfg::Config& c) { c.td.box_latency_cycles = 100000; }},
      {"td.triangle_latency_cycles", [](cfg::Config& c) { c.td.triangle_latency_cycles = 100000; }},
      {"td.sort_latency_cycles", [](cfg::Config& c) { c.td.sort_latency_cycles = 100000; }},
      {"td.return_latency_cycles", [](cfg::Config& c) { c.td.return_latency_cycles = 100000; }},
      {"l2.slices", [](cfg::Config& c) { c.l2.slices = 256; }},
      {"dram.channels", [](cfg::Config& c) { c.dram.channels = 1024; }},
      {"dram.interleave_bytes", [](cfg::Config& c) { c.dram.interleave_bytes = 1048576; }},
      {"dram.bandwidth_gb_per_s", [](cfg::Config& c) { c.dram.bandwidth_gb_per_s = 100000; }},
      {"dram.latency_ns", [](cfg::Config& c) { c.dram.latency_ns = 1000000; }},
  };
  for (const std::string path : {"l0", "l1", "l2.slice"}) {
    v.push_back({path + ".size_kib", [path](cfg::Config& c) { detail::cache_at(c, path).size_kib = 1048576; }});
    v.push_back({path + ".ways", [path](cfg::Config& c) {
                   cfg::CacheConfig& cache = detail::cache_at(c, path);
                   cache.ways = 4096;
                   cache.size_kib = detail::size_for_one_set(cache);
                 }});
    // Lines of 4096 B here and below, so that a fill is one line of the next
    // level (smaller lines there would need more MSHRs than small.yaml has).
    v.push_back({path + ".line_bytes", [path](cfg::Config& c) {
                   for (cfg::CacheConfig* cache : detail::cache_and_below(c, path)) {
                     cache->line_bytes = 4096;
                     cache->size_kib = std::max(cache->size_kib, detail::size_for_one_set(*cache));
                   }
                 }});
    v.push_back({path + ".hit_latency_cycles",
                 [path](cfg::Config& c) { detail::cache_at(c, path).hit_latency_cycles = 100000; }});
    v.push_back({path + ".mshrs", [path](cfg::Config& c) { detail::cache_at(c, path).mshrs = 4096; }});
    v.push_back(
        {path + ".bytes_per_clock", [path](cfg::Config& c) { detail::cache_at(c, path).bytes_per_clock = 4096; }});
  }
  return v;
}

// The minimum ends, by group (each key at its minimum where the others allow).
inline std::vector<ConfigVariant> minimum_variants() {
  return {
      {"chip.clock_mhz.minimum", [](cfg::Config& c) { c.chip.clock_mhz = 0.001; }},
      {"chip.minimum",
       [](cfg::Config& c) {
         c.chip.name = "m";
         c.chip.wgps = 1;
         c.chip.tds_per_wgp = 1;
         c.chip.shader_arrays = 1;
       }},
      {"td.minimum",
       [](cfg::Config& c) {
         c.td.instruction_queue_depth = c.td.fetch_queue_depth = c.td.return_buffer_entries = 1;
         c.td.box_latency_cycles = c.td.triangle_latency_cycles = c.td.sort_latency_cycles = 1;
         c.td.return_latency_cycles = 0;
       }},
      // 16-byte lines everywhere: an FP32 node spans 8 L0 lines, so the L0
      // needs 8 MSHRs; one line of each level is one line of the next.
      {"caches.minimum",
       [](cfg::Config& c) {
         for (cfg::CacheConfig* cache : {&c.l0, &c.l1, &c.l2.slice}) {
           cache->size_kib = 1;
           cache->ways = 1;
           cache->line_bytes = 16;
           cache->hit_latency_cycles = 1;
           cache->mshrs = 1;
           cache->bytes_per_clock = 1;
         }
         c.l0.mshrs = 8;
         c.l2.slices = 1;
       }},
      {"dram.minimum",
       [](cfg::Config& c) {
         c.dram.channels = 1;
         c.dram.interleave_bytes = 16;
         c.dram.bandwidth_gb_per_s = 0.001;
         c.dram.latency_ns = 0;
       }},
  };
}

inline std::vector<ConfigVariant> all_variants() {
  std::vector<ConfigVariant> v = maximum_variants();
  for (ConfigVariant& m : minimum_variants()) v.push_back(std::move(m));
  return v;
}

inline std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const ConfigVariant& v : all_variants()) names.push_back(v.name);
  return names;
}

// `base` with the named variant applied, checked by the loader (as a file
// would be): throws cfg::ConfigError if the variant is not allowed.
inline cfg::Config make_variant(const cfg::Config& base, const std::string& name) {
  for (const ConfigVariant& v : all_variants()) {
    if (v.name != name) continue;
    cfg::Config c = base;
    v.apply(c);
    return cfg::parse_config(cfg::to_yaml(c), base.source + " [" + name + "]");
  }
  throw std::invalid_argument("no config variant " + name);
}

}  // namespace td::test

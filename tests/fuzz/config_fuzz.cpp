// Fuzz target for config loading: any byte string must give a Config or a
// ConfigError — never a crash, a hang or any other exception (a yaml-cpp
// exception escaping parse_config is a bug: it propagates and aborts). What
// parses must satisfy the documented invariants and survive a to_yaml /
// parse_config round trip unchanged. An input whose first line is
// "--set KEY=VALUE" gives that override to the rest (the seeds include one).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "model/config/config.h"

namespace {

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

void check_cache(const td::cfg::CacheConfig& c) {
  const uint64_t size = uint64_t{c.size_kib} * 1024;
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_bytes;
  if (c.size_kib == 0 || c.ways == 0 || c.mshrs == 0 || c.bytes_per_clock == 0 || c.hit_latency_cycles == 0) {
    std::abort();
  }
  if (!is_power_of_two(c.line_bytes) || size % set_bytes != 0 || !is_power_of_two(size / set_bytes)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<td::cfg::Override> overrides;
  td::cfg::Config config;
  try {
    if (text.rfind("--set ", 0) == 0) {
      const size_t end = text.find('\n');
      overrides.push_back(td::cfg::parse_override(std::string(text.substr(6, end == text.npos ? text.npos : end - 6))));
      text = end == text.npos ? std::string_view() : text.substr(end + 1);
    }
    config = td::cfg::parse_config(text, "fuzz.yaml", overrides);
  } catch (const td::cfg::ConfigError& e) {
    // Every message names the file, or the override it is about.
    const std::string_view what(e.what());
    if (what.rfind("--set ", 0) == 0 && e.file().rfind("--set ", 0) == 0) return 0;
    if (what.rfind("fuzz.yaml", 0) != 0 || e.file() != "fuzz.yaml") std::abort();
    return 0;
  }

  if (config.chip.name.empty() || config.td_count() == 0 || config.period_ps() == 0) std::abort();
  if (config.chip.shader_arrays == 0 || config.chip.shader_arrays > config.chip.wgps) std::abort();
  check_cache(config.l0);
  check_cache(config.l1);
  check_cache(config.l2.slice);
  if (config.l2.slices == 0 || config.dram.channels == 0 || !is_power_of_two(config.dram.interleave_bytes)) std::abort();
  if (!(config.dram.bandwidth_gb_per_s > 0) || !(config.dram.latency_ns >= 0)) std::abort();

  // A parsed config re-parses from its own YAML to the same YAML.
  const std::string yaml = td::cfg::to_yaml(config);
  td::cfg::Config again;
  try {
    again = td::cfg::parse_config(yaml, "fuzz.yaml");
  } catch (const td::cfg::ConfigError&) {
    std::abort();
  }
  if (td::cfg::to_yaml(again) != yaml || again.chip.name != config.chip.name ||
      again.chip.clock_mhz != config.chip.clock_mhz || again.dram.bandwidth_gb_per_s != config.dram.bandwidth_gb_per_s ||
      again.dram.latency_ns != config.dram.latency_ns) {
    std::abort();
  }
  return 0;
}

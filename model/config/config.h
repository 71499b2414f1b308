// config.h — one YAML file describes one chip. It is parsed once into a
// const Config with nested structs; every key is required, and an unknown
// key, a missing key, a wrong type or an out-of-range value is a ConfigError
// naming the file and the key path. what() always reads
//   <file>:<line>:<column>: <key.path>: <message>
// with the 1-based YAML position of the offending value (of the key for an
// unknown or duplicate key, or for an empty value; of the enclosing
// section's key for a missing key), e.g.
//   configs/x.yaml:12:23: td.box_latency_cycles: must be >= 1 (got 0)
//   configs/x.yaml:9:3: td.colour: unknown key
//   configs/x.yaml:15:1: l0.ways: missing key
//   configs/x.yaml:4:9: chip.wgps: expected an unsigned integer (got 'abc')
// The key path is left out where no key is concerned: YAML syntax errors
// (`configs/x.yaml:3:7: end of map not found`), a top level that is not one
// mapping (`configs/x.yaml:1:1: the top level must be a mapping with keys
// chip, td, l0, l1, l2, dram, shader, bvh (got a sequence)`). The position is left out
// where there is none (`configs/x.yaml: cannot open`, an empty file).
// file() is the bare file name, key() the bare key path ("" if none).
//
// Keys, the values each takes and what each is: one table in config.cpp,
// which reads, checks and writes them and lists them (keys(), below;
// `tdsim keys`, docs/configuration.md); the structs below hold one member
// per key, of its name. The shipped configs repeat each key's range in its
// comment, and tests hold them and the docs to the table. A few checks span keys: chip.shader_arrays <= chip.wgps, a
// cache's size a whole power-of-two number of sets, the MSHRs and lines
// the largest request of each level needs, and td.datapath: rtl (the RTL's
// own latencies and a build with TDSIM_RTL).
// Integers are plain decimal (no sign, no quotes); numbers are plain decimal
// or exponent notation, finite.
// Every key may take any value of its range, but keys multiply: a chip whose
// timing model would need more than 8 GiB for its own state (estimated from
// the configuration, model/config/model_memory.h: pipelines and queues per TD
// times the TD count, MSHRs, whole tag arrays) is refused at the key with
// the largest share, e.g.
//   configs/x.yaml:12:28: td.instruction_queue_depth: the timing model would
//   need about 18.5 GiB of memory, more than the 8.0 GiB tdsim allows; the
//   largest share, 18.4 GiB, is 2048 TDs (chip.wgps x chip.tds_per_wgp) x 1024
//   instruction slots (...) x 9400 B
// Caches of more than 8192 lines keep only the lines a run touches, so a
// cache of any allowed size costs memory in proportion to its use. No SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace td::cfg {

struct ChipConfig {
  std::string name;
  double clock_mhz = 0;
  uint32_t wgps = 0;
  uint32_t tds_per_wgp = 0;
  uint32_t shader_arrays = 0;
};

struct TdConfig {
  uint32_t instruction_queue_depth = 0;
  uint32_t fetch_queue_depth = 0;
  uint32_t return_buffer_entries = 0;
  uint32_t box_latency_cycles = 0;
  uint32_t triangle_latency_cycles = 0;
  uint32_t sort_latency_cycles = 0;
  uint32_t return_latency_cycles = 0;
  std::string datapath;
};

struct CacheConfig {
  uint32_t size_kib = 0;
  uint32_t ways = 0;
  uint32_t line_bytes = 0;
  uint32_t hit_latency_cycles = 0;
  uint32_t mshrs = 0;
  uint32_t bytes_per_clock = 0;
};

struct L2Config {
  uint32_t slices = 0;
  CacheConfig slice;
};

struct DramConfig {
  uint32_t channels = 0;
  uint32_t interleave_bytes = 0;
  double bandwidth_gb_per_s = 0;
  double latency_ns = 0;
};

// The SIMDs that feed a TD with a traversal shader (`tdsim run`): occupancy,
// the per-lane short stack in LDS and the loop's ALU work.
struct ShaderConfig {
  uint32_t lanes_per_wave = 0;
  uint32_t simds_per_td = 0;
  uint32_t waves_per_simd = 0;
  uint32_t vgprs = 0;
  uint32_t stack_entries = 0;
  std::string overflow;
  uint32_t alu_instructions_per_iteration = 0;
  uint32_t alu_instructions_per_instance = 0;
  uint32_t lds_latency_cycles = 0;
  uint32_t wave_launch_cycles = 0;
  uint32_t hit_attribute_loads = 0;
  uint32_t hit_texture_loads = 0;
  uint32_t hit_texture_kib = 0;
  uint32_t hit_alu_instructions = 0;
};

// How `tdsim run` builds the scene's BVH (tb/scene/bvh_options.h says what each means).
struct BvhConfig {
  std::string quality;
  std::string blas_builder;
  std::string tlas_builder;
  uint32_t ploc_radius = 0;
  std::string tapu;
  std::string fp16;
  double fp16_threshold = 0;
  std::string pack;
  uint32_t max_leaf_size = 0;
  double split_budget = 0;
};

struct Config {
  std::string source;  // the file it came from (for messages and reports)
  ChipConfig chip;
  TdConfig td;
  CacheConfig l0;  // per TD
  CacheConfig l1;  // per shader array
  L2Config l2;
  DramConfig dram;
  ShaderConfig shader;
  BvhConfig bvh;

  uint32_t td_count() const { return chip.wgps * chip.tds_per_wgp; }
  uint64_t period_ps() const;  // clock period rounded to whole picoseconds (0 if clock_mhz <= 0)
};

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& file, const std::string& key, const std::string& message);
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }

 private:
  friend class ConfigReader;  // config.cpp: errors that carry a YAML position
  ConfigError(const std::string& file, int line, int column, const std::string& key,
              const std::string& message);
  std::string file_, key_;
};

// `--set key.path=value`: one key of the file given another value before
// any key is read, so the value meets the same schema (type, range, the
// checks across keys) and the reports echo it in their effective
// configuration. A key the file does not have is an error. Errors about
// an overridden key name the override, e.g.
//   --set td.box_latency_cycles=abc: td.box_latency_cycles: expected an unsigned integer (got 'abc')
struct Override {
  std::string key;    // "td.box_latency_cycles"
  std::string value;  // a YAML scalar: 12, rtl, "Series X"
  std::string text() const { return "--set " + key + "=" + value; }
};
// "key.path=value" as an Override; throws ConfigError naming `text` when it
// has no '=' or an empty key.
Override parse_override(const std::string& text);

// Throws ConfigError (also for an unreadable file or invalid YAML, then
// with the YAML parser's line and column in the message).
Config load_config(const std::string& path, const std::vector<Override>& overrides = {});
Config parse_config(std::string_view yaml_text, const std::string& source_name,
                    const std::vector<Override>& overrides = {});

// `config` with td.datapath set to `datapath` (an engine that asks for one,
// as `check --engine rtl` does); throws ConfigError naming the config file
// and the first key that does not fit it, e.g.
//   configs/small.yaml: td.box_latency_cycles: must be 8 with td.datapath: rtl, ...
Config with_datapath(Config config, const std::string& datapath);
// The words of each key that takes one, each list written here only: the
// table reads, checks and documents the key with it, and the testbench's
// enum for the key numbers its values in the list's order (word_of and
// value_of below map between them).
const std::vector<std::string>& datapath_words();  // td.datapath: cpp, rtl (model/chip/datapaths.h)
const std::vector<std::string>& overflow_words();  // shader.overflow: parent_pointers, restart
const std::vector<std::string>& builder_words();   // bvh.blas_builder, bvh.tlas_builder: sah, lbvh, ploc
const std::vector<std::string>& tapu_words();      // bvh.tapu: off, scene, 4, 16
const std::vector<std::string>& quality_words();   // bvh.quality: normal, high
const std::vector<std::string>& fp16_words();      // bvh.fp16: none, leaf, mixed, all
const std::vector<std::string>& pack_words();      // bvh.pack: single, pairs, strips

// The word of an enum's value, the enum numbering its values in the
// list's order ("?" past its end), and the value of a word (nullopt if the
// list has none such).
template <typename Enum>
const char* word_of(const std::vector<std::string>& words, Enum value) {
  const auto index = static_cast<size_t>(value);
  return index < words.size() ? words[index].c_str() : "?";
}
template <typename Enum>
std::optional<Enum> value_of(const std::vector<std::string>& words, const std::string& word) {
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] == word) return static_cast<Enum>(i);
  return std::nullopt;
}

// One key as the table declares it, in the table's order: every leaf key
// of the file (chip.name, td.box_latency_cycles, l2.slice.mshrs, ...).
struct KeyInfo {
  enum class Kind { kText, kWord, kWhole, kNumber };
  std::string path;                // "td.box_latency_cycles"
  Kind kind = Kind::kWhole;
  // What it takes, as the shipped configs' comments give it: "1..4096",
  // "16..4096, power of two", "cpp | rtl", "1..64, <= wgps", "32 or 64".
  std::string range;
  double min = 0, max = 0;         // kWhole and kNumber: the ends
  bool power_of_two = false;       // kWhole
  std::vector<std::string> words;  // kWord
  std::string what;                // what it is, one line: "box datapath pipeline depth, clocks"
};
const std::vector<KeyInfo>& keys();

// The effective configuration as YAML (same keys), echoed in reports.
std::string to_yaml(const Config& config);

// Waves per SIMD the traversal shader runs at. shader.waves_per_simd when
// it is given (non-zero: an explicit override); else as RDNA2 allocates:
// the register file holds 1024 VGPRs per lane in wave32 (512 in wave64),
// allocated in blocks of 16 (8) (LLVM AMDGPUBaseInfo.cpp for gfx10.3:
// getTotalNumVGPRs, getVGPRAllocGranule), and a SIMD takes at most 20
// waves (seeds 001; LLVM says 16 for desktop gfx10.3); and no more than the
// LDS holds the waves' short stacks: 64 KiB per CU (RDNA WP: 128 KB per
// WGP of two CUs), stack_entries x 4 bytes x lanes_per_wave a wave, shared
// by the CU's simds_per_td SIMDs (seeds 001: 2 KB a wave32, 16 waves). So
// 96 VGPRs give 10 waves, 160 give 6, 253 give 4; 64 or fewer, the LDS's 16.
struct Occupancy {
  uint32_t waves_per_simd = 0;  // what the shader runs at
  uint32_t by_vgprs = 0;        // what the registers allow
  uint32_t by_lds = 0;          // what the LDS allows
  bool overridden = false;      // shader.waves_per_simd was given
};
Occupancy shader_occupancy(const ShaderConfig& shader);

}  // namespace td::cfg

// Config loading: the shipped configs, every class of error with its exact
// message (<file>:<line>:<column>: <key.path>: <message>), and to_yaml.
#include "model/config/config.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/config/model_memory.h"
#include "tests/common/config_variants.h"

namespace td::cfg {
namespace {

const std::string kSourceDir = TDSIM_SOURCE_DIR;

// A valid configuration in the test's own words, so that the line numbers
// below are computed from this text (line_of) rather than typed in.
const std::string kValid =
    "chip:\n"
    "  name: \"test chip\"\n"
    "  clock_mhz: 500\n"
    "  wgps: 4\n"
    "  tds_per_wgp: 2\n"
    "  shader_arrays: 2\n"
    "td:\n"
    "  instruction_queue_depth: 4\n"
    "  fetch_queue_depth: 4\n"
    "  return_buffer_entries: 16\n"
    "  box_latency_cycles: 8\n"
    "  triangle_latency_cycles: 16\n"
    "  sort_latency_cycles: 2\n"
    "  return_latency_cycles: 4\n"
    "  datapath: cpp\n"
    "l0:\n"
    "  size_kib: 16\n"
    "  ways: 4\n"
    "  line_bytes: 128\n"
    "  hit_latency_cycles: 40\n"
    "  mshrs: 32\n"
    "  bytes_per_clock: 128\n"
    "l1:\n"
    "  size_kib: 128\n"
    "  ways: 16\n"
    "  line_bytes: 128\n"
    "  hit_latency_cycles: 40\n"
    "  mshrs: 64\n"
    "  bytes_per_clock: 128\n"
    "l2:\n"
    "  slices: 4\n"
    "  slice:\n"
    "    size_kib: 256\n"
    "    ways: 16\n"
    "    line_bytes: 128\n"
    "    hit_latency_cycles: 60\n"
    "    mshrs: 64\n"
    "    bytes_per_clock: 64\n"
    "dram:\n"
    "  channels: 4\n"
    "  interleave_bytes: 256\n"
    "  bandwidth_gb_per_s: 64\n"
    "  latency_ns: 300\n"
    "shader:\n"
    "  lanes_per_wave: 32\n"
    "  simds_per_td: 2\n"
    "  waves_per_simd: 16\n"
    "  vgprs: 64\n"
    "  stack_entries: 16\n"
    "  overflow: parent_pointers\n"
    "  alu_instructions_per_iteration: 40\n"
    "  alu_instructions_per_instance: 32\n"
    "  lds_latency_cycles: 44\n"
    "  wave_launch_cycles: 64\n"
    "  hit_attribute_loads: 3\n"
    "  hit_texture_loads: 3\n"
    "  hit_texture_kib: 1024\n"
    "  hit_alu_instructions: 100\n"
    "bvh:\n"
    "  blas_builder: ploc\n"
    "  tlas_builder: ploc\n"
    "  ploc_radius: 10\n"
    "  tapu: scene\n"
    "  quality: normal\n"
    "  fp16: mixed\n"
    "  fp16_threshold: 0.1\n"
    "  pack: strips\n"
    "  max_leaf_size: 1\n"
    "  split_budget: 1\n";

const char* const kFile = "configs/x.yaml";

// 1-based line of the first line of `text` that starts with `line_start`.
int line_of(const std::string& text, std::string_view line_start) {
  int line = 1;
  size_t begin = 0;
  while (begin < text.size()) {
    if (text.compare(begin, line_start.size(), line_start) == 0) return line;
    const size_t end = text.find('\n', begin);
    if (end == std::string::npos) break;
    begin = end + 1;
    ++line;
  }
  ADD_FAILURE() << "no line starts with '" << line_start << "'";
  return 0;
}

// `text` with the (whole) line that starts with `line_start` replaced by
// `replacement` (which may hold several lines, or be empty to delete it).
std::string with_line(const std::string& text, std::string_view line_start, const std::string& replacement) {
  const int line = line_of(text, line_start);
  size_t begin = 0;
  for (int i = 1; i < line; ++i) begin = text.find('\n', begin) + 1;
  const size_t end = text.find('\n', begin) + 1;
  std::string out = text.substr(0, begin);
  if (!replacement.empty()) out += replacement + "\n";
  out += text.substr(end);
  return out;
}

// The message parse_config(yaml) fails with ("" if it does not fail).
std::string error_of(const std::string& yaml) {
  try {
    (void)parse_config(yaml, kFile);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string at(int line, int column, const std::string& rest) {
  return std::string(kFile) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + rest;
}

void expect_same(const Config& a, const Config& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.chip.name, b.chip.name);
  EXPECT_EQ(a.chip.clock_mhz, b.chip.clock_mhz);
  EXPECT_EQ(a.chip.wgps, b.chip.wgps);
  EXPECT_EQ(a.chip.tds_per_wgp, b.chip.tds_per_wgp);
  EXPECT_EQ(a.chip.shader_arrays, b.chip.shader_arrays);
  EXPECT_EQ(a.td.instruction_queue_depth, b.td.instruction_queue_depth);
  EXPECT_EQ(a.td.fetch_queue_depth, b.td.fetch_queue_depth);
  EXPECT_EQ(a.td.return_buffer_entries, b.td.return_buffer_entries);
  EXPECT_EQ(a.td.box_latency_cycles, b.td.box_latency_cycles);
  EXPECT_EQ(a.td.triangle_latency_cycles, b.td.triangle_latency_cycles);
  EXPECT_EQ(a.td.sort_latency_cycles, b.td.sort_latency_cycles);
  EXPECT_EQ(a.td.return_latency_cycles, b.td.return_latency_cycles);
  const auto same_cache = [](const CacheConfig& x, const CacheConfig& y) {
    EXPECT_EQ(x.size_kib, y.size_kib);
    EXPECT_EQ(x.ways, y.ways);
    EXPECT_EQ(x.line_bytes, y.line_bytes);
    EXPECT_EQ(x.hit_latency_cycles, y.hit_latency_cycles);
    EXPECT_EQ(x.mshrs, y.mshrs);
    EXPECT_EQ(x.bytes_per_clock, y.bytes_per_clock);
  };
  same_cache(a.l0, b.l0);
  same_cache(a.l1, b.l1);
  EXPECT_EQ(a.l2.slices, b.l2.slices);
  same_cache(a.l2.slice, b.l2.slice);
  EXPECT_EQ(a.dram.channels, b.dram.channels);
  EXPECT_EQ(a.dram.interleave_bytes, b.dram.interleave_bytes);
  EXPECT_EQ(a.dram.bandwidth_gb_per_s, b.dram.bandwidth_gb_per_s);
  EXPECT_EQ(a.dram.latency_ns, b.dram.latency_ns);
}

// --- the shipped configs ---------------------------------------------------

TEST(ConfigShipped, SeriesXMatchesTheSeedPeakRateTable) {
  const Config c = load_config(kSourceDir + "/configs/xbox_series_x.yaml");
  EXPECT_EQ(c.chip.name, "Xbox Series X");
  EXPECT_EQ(c.chip.clock_mhz, 1825.0);
  EXPECT_EQ(c.chip.wgps, 26u);
  EXPECT_EQ(c.chip.tds_per_wgp, 2u);
  EXPECT_EQ(c.chip.shader_arrays, 4u);
  EXPECT_EQ(c.td_count(), 52u);
  EXPECT_EQ(c.period_ps(), 548u);  // 1e6 / 1825 = 547.9
  // 379.6 G ray/box and 94.9 G ray/triangle tests per second (seeds).
  EXPECT_NEAR(c.td_count() * c.chip.clock_mhz * 1e6 * 4 / 1e9, 379.6, 0.05);
  EXPECT_NEAR(c.td_count() * c.chip.clock_mhz * 1e6 / 1e9, 94.9, 0.05);
  EXPECT_EQ(uint64_t{c.l2.slices} * c.l2.slice.size_kib, 5u * 1024);  // 5 MB L2 (Hot Chips 32)
  EXPECT_EQ(c.dram.bandwidth_gb_per_s, 560.0);
  EXPECT_EQ(c.source, kSourceDir + "/configs/xbox_series_x.yaml");
}

TEST(ConfigShipped, SeriesSMatchesTheSeedPeakRateTable) {
  const Config c = load_config(kSourceDir + "/configs/xbox_series_s.yaml");
  EXPECT_EQ(c.chip.name, "Xbox Series S");
  EXPECT_EQ(c.chip.clock_mhz, 1563.0);
  EXPECT_EQ(c.chip.wgps, 10u);
  EXPECT_EQ(c.chip.tds_per_wgp, 2u);
  EXPECT_EQ(c.chip.shader_arrays, 2u);
  EXPECT_EQ(c.td_count(), 20u);
  EXPECT_EQ(c.period_ps(), 640u);  // 1e6 / 1563 = 639.8
  EXPECT_NEAR(c.td_count() * c.chip.clock_mhz * 1e6 * 4 / 1e9, 125.0, 0.05);
  EXPECT_NEAR(c.td_count() * c.chip.clock_mhz * 1e6 / 1e9, 31.26, 0.005);
  EXPECT_EQ(c.dram.bandwidth_gb_per_s, 224.0);
}

TEST(ConfigShipped, SmallChipIsTiny) {
  const Config c = load_config(kSourceDir + "/configs/small.yaml");
  EXPECT_EQ(c.chip.wgps, 2u);
  EXPECT_EQ(c.chip.tds_per_wgp, 2u);
  EXPECT_EQ(c.chip.shader_arrays, 1u);
  EXPECT_EQ(c.td_count(), 4u);
  EXPECT_EQ(c.period_ps(), 1000u);
  EXPECT_LE(c.l0.size_kib, 4u);
  EXPECT_LE(c.l1.size_kib, 8u);
  EXPECT_LE(c.l2.slices * c.l2.slice.size_kib, 16u);
  // One FP32 box node (128 B) fits a line.
  EXPECT_GE(c.l0.line_bytes, 128u);
}

TEST(ConfigShipped, EveryShippedConfigRoundTripsThroughToYaml) {
  for (const char* name : {"xbox_series_x", "xbox_series_s", "small"}) {
    SCOPED_TRACE(name);
    const std::string path = kSourceDir + "/configs/" + name + ".yaml";
    const Config first = load_config(path);
    const std::string yaml = to_yaml(first);
    const Config second = parse_config(yaml, path);
    expect_same(first, second);
    EXPECT_EQ(to_yaml(second), yaml);
  }
}

// The leaf keys of YAML text as the shipped configs and to_yaml() lay it
// out, in order: each key's path, value and comment (the text after '#',
// "" without one). Sections nest by two spaces.
struct LeafLine {
  std::string path, value, comment;
};
std::vector<LeafLine> leaf_lines(std::istream& in) {
  std::vector<LeafLine> leaves;
  std::vector<std::string> sections;
  std::string line;
  while (std::getline(in, line)) {
    const size_t hash = line.find('#');
    const std::string code = line.substr(0, hash);
    const size_t indent = code.find_first_not_of(' ');
    const size_t colon = code.find(':');
    if (indent == std::string::npos || colon == std::string::npos) continue;
    sections.resize(indent / 2);
    const std::string key = code.substr(indent, colon - indent);
    std::string path;
    for (const std::string& section : sections) path += section + ".";
    const size_t value_start = code.find_first_not_of(' ', colon + 1);
    if (value_start == std::string::npos) {
      sections.push_back(key);  // a section: its keys follow, two spaces in
      continue;
    }
    const std::string value = code.substr(value_start, code.find_last_not_of(' ') + 1 - value_start);
    leaves.push_back({path + key, value, hash == std::string::npos ? "" : line.substr(hash + 1)});
  }
  return leaves;
}
std::vector<LeafLine> file_leaves(const std::string& file) {
  std::ifstream in(file);
  EXPECT_TRUE(in.is_open()) << file;
  return leaf_lines(in);
}
// The value of `path` in a configuration, as to_yaml() writes it.
std::string value_at(const Config& config, const std::string& path) {
  std::istringstream in(to_yaml(config));
  for (const LeafLine& leaf : leaf_lines(in))
    if (leaf.path == path) return leaf.value;
  ADD_FAILURE() << "no key " << path;
  return "";
}

// Every shipped config gives the table's keys in the table's order, each
// with the range the table holds (keys()) in brackets: the comments are
// the table's words, not a second source.
TEST(ConfigShipped, EveryKeysCommentGivesTheTablesRange) {
  for (const char* name : {"xbox_series_x", "xbox_series_s", "small"}) {
    SCOPED_TRACE(name);
    const std::vector<LeafLine> leaves = file_leaves(kSourceDir + "/configs/" + name + ".yaml");
    ASSERT_EQ(leaves.size(), cfg::keys().size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      const KeyInfo& info = cfg::keys()[i];
      EXPECT_EQ(leaves[i].path, info.path);
      if (info.kind == KeyInfo::Kind::kText) continue;  // chip.name: no range comment
      EXPECT_EQ(leaves[i].comment.find(" [" + info.range + "]"), 0u)
          << leaves[i].path << ": the comment should start with [" << info.range << "]: #" << leaves[i].comment;
    }
  }
}

// Every key says what it is, in one line of its own (the docs' table and
// `tdsim keys` print it).
TEST(ConfigKeys, EveryKeySaysWhatItIs) {
  std::vector<std::string> seen;
  for (const KeyInfo& info : cfg::keys()) {
    EXPECT_FALSE(info.what.empty()) << info.path;
    EXPECT_EQ(info.what.find('\n'), std::string::npos) << info.path;
    EXPECT_EQ(info.what.find('|'), std::string::npos) << info.path << ": a Markdown table cell";
    EXPECT_EQ(std::find(seen.begin(), seen.end(), info.path), seen.end()) << info.path;
    seen.push_back(info.path);
  }
}

// Every parameter of the console configs names its source, or says it is an
// assumption (the name is the one line that needs neither).
TEST(ConfigShipped, EveryConsoleParameterNamesItsSource) {
  for (const char* name : {"xbox_series_x", "xbox_series_s"}) {
    SCOPED_TRACE(name);
    size_t parameters = 0;
    for (const LeafLine& leaf : file_leaves(kSourceDir + "/configs/" + name + ".yaml")) {
      const std::string& comment = leaf.comment;
      if (leaf.path == "chip.name") continue;
      ++parameters;
      const bool sourced = comment.find("seeds:") != std::string::npos || comment.find("RDNA WP:") != std::string::npos ||
                           comment.find("HC32:") != std::string::npos || comment.find("gpurt:") != std::string::npos ||
                           comment.find("RADV:") != std::string::npos || comment.find("xgl:") != std::string::npos ||
                           comment.find("C&C:") != std::string::npos ||
                           comment.find("assumption:") != std::string::npos;
      EXPECT_TRUE(sourced) << leaf.path << ": #" << comment;
    }
    EXPECT_EQ(parameters, cfg::keys().size() - 1);  // every leaf key but chip.name
  }
}

// --- parsing valid text ------------------------------------------------------

TEST(ConfigParse, ValidTextGivesEveryField) {
  const Config c = parse_config(kValid, kFile);
  EXPECT_EQ(c.source, kFile);
  EXPECT_EQ(c.chip.name, "test chip");
  EXPECT_EQ(c.chip.clock_mhz, 500.0);
  EXPECT_EQ(c.period_ps(), 2000u);
  EXPECT_EQ(c.td.return_buffer_entries, 16u);
  EXPECT_EQ(c.l1.ways, 16u);
  EXPECT_EQ(c.l2.slices, 4u);
  EXPECT_EQ(c.l2.slice.size_kib, 256u);
  EXPECT_EQ(c.l2.slice.bytes_per_clock, 64u);
  EXPECT_EQ(c.dram.interleave_bytes, 256u);
  EXPECT_EQ(c.dram.latency_ns, 300.0);
}

TEST(ConfigParse, KeysMayComeInAnyOrderAndFlowStyle) {
  const std::string yaml = kValid.substr(0, kValid.find("dram:")) +
                           "dram: {latency_ns: 2.5e2, channels: 4,\n"
                           "       interleave_bytes: 256, bandwidth_gb_per_s: 64}\n" +
                           kValid.substr(kValid.find("shader:"));
  const Config c = parse_config(yaml, kFile);
  EXPECT_EQ(c.dram.latency_ns, 250.0);
  EXPECT_EQ(c.dram.channels, 4u);
}

TEST(ConfigParse, ReturnLatencyMayBeZero) {
  const Config c = parse_config(with_line(kValid, "  return_latency_cycles:", "  return_latency_cycles: 0"), kFile);
  EXPECT_EQ(c.td.return_latency_cycles, 0u);
}

TEST(ConfigParse, PeriodRoundsToWholePicoseconds) {
  EXPECT_EQ(parse_config(with_line(kValid, "  clock_mhz:", "  clock_mhz: 3000"), kFile).period_ps(), 333u);
  EXPECT_EQ(parse_config(with_line(kValid, "  clock_mhz:", "  clock_mhz: 1500"), kFile).period_ps(), 667u);
  EXPECT_EQ(Config{}.period_ps(), 0u);
}

// --- --set overrides --------------------------------------------------------------

std::string override_error(const std::vector<Override>& overrides) {
  try {
    (void)parse_config(kValid, kFile, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ConfigOverride, ReplacesTheKeysValueBeforeItIsRead) {
  const Config c = parse_config(kValid, kFile,
                                {{"td.box_latency_cycles", "12"}, {"l2.slice.mshrs", "7"}, {"chip.name", "\"my chip\""}});
  EXPECT_EQ(c.td.box_latency_cycles, 12u);
  EXPECT_EQ(c.l2.slice.mshrs, 7u);
  EXPECT_EQ(c.chip.name, "my chip");
  EXPECT_EQ(c.source, kFile);
  // The rest as in the file; the effective configuration echoes the value.
  EXPECT_EQ(c.l1.ways, parse_config(kValid, kFile).l1.ways);
  EXPECT_NE(to_yaml(c).find("  box_latency_cycles: 12\n"), std::string::npos);
}

TEST(ConfigOverride, MeetsTheSameSchemaAndErrorsNameTheOverride) {
  EXPECT_EQ(override_error({{"td.box_latency_cycles", "abc"}}),
            "--set td.box_latency_cycles=abc: td.box_latency_cycles: expected an unsigned integer (got 'abc')");
  EXPECT_EQ(override_error({{"td.box_latency_cycles", "0"}}),
            "--set td.box_latency_cycles=0: td.box_latency_cycles: must be >= 1 (got 0)");
  EXPECT_EQ(override_error({{"td.datapath", "fpga"}}),
            "--set td.datapath=fpga: td.datapath: must be one of cpp, rtl (got 'fpga')");
  EXPECT_EQ(override_error({{"td.box_latency_cycles", ""}}),
            "--set td.box_latency_cycles=: td.box_latency_cycles: expected an unsigned integer (got null)");
  // Keys the file does not have, and sections.
  EXPECT_EQ(override_error({{"td.box_latency", "3"}}).rfind("--set td.box_latency=3: td has no key 'box_latency' (keys: ", 0),
            0u);
  EXPECT_EQ(override_error({{"gpu.clock", "3"}}).rfind(std::string("--set gpu.clock=3: ") + kFile + " has no key 'gpu'", 0), 0u);
  EXPECT_EQ(override_error({{"td..x", "3"}}).rfind("--set td..x=3: td has no key ''", 0), 0u);
  EXPECT_EQ(override_error({{"l2.slice", "3"}}), "--set l2.slice=3: l2.slice is a section: --set gives one key a value");
  EXPECT_EQ(override_error({{"l1.mshrs", "[1"}}), "--set l1.mshrs=[1: '[1' is not a YAML value");
  // A key the file has, given through --set, is checked against the others.
  EXPECT_NE(override_error({{"chip.shader_arrays", "1000"}}).find("chip.shader_arrays"), std::string::npos);
}

TEST(ConfigOverride, TextIsKeyEqualsValue) {
  const Override o = parse_override("l1.mshrs=128");
  EXPECT_EQ(o.key, "l1.mshrs");
  EXPECT_EQ(o.value, "128");
  EXPECT_EQ(parse_override("chip.name=a=b").value, "a=b");
  for (const char* bad : {"l1.mshrs", "=3", ""}) EXPECT_THROW(parse_override(bad), ConfigError) << bad;
}

// --- to_yaml -------------------------------------------------------------------

TEST(ConfigToYaml, RoundTripsAwkwardDoublesAndNames) {
  std::string yaml = with_line(kValid, "  name:", "  name: \"quote \\\" and backslash \\\\ and caf\\u00e9\"");
  yaml = with_line(yaml, "  clock_mhz:", "  clock_mhz: 1234.5678901234567");
  yaml = with_line(yaml, "  bandwidth_gb_per_s:", "  bandwidth_gb_per_s: 0.1");
  yaml = with_line(yaml, "  latency_ns:", "  latency_ns: 1e-7");
  const Config first = parse_config(yaml, kFile);
  EXPECT_EQ(first.chip.name, "quote \" and backslash \\ and caf\xc3\xa9");
  const std::string out = to_yaml(first);
  const Config second = parse_config(out, kFile);
  expect_same(first, second);
  EXPECT_EQ(to_yaml(second), out);
}

TEST(ConfigToYaml, HasTheSameKeysAndStructure) {
  const std::string out = to_yaml(parse_config(kValid, kFile));
  EXPECT_EQ(out.rfind("chip:\n  name: \"test chip\"\n  clock_mhz: 500\n", 0), 0u) << out;
  EXPECT_NE(out.find("\nl2:\n  slices: 4\n  slice:\n    size_kib: 256\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\ndram:\n  channels: 4\n"), std::string::npos) << out;
}

// --- errors: every message is <file>:<line>:<column>: <key.path>: <message> ----

TEST(ConfigError, PublicConstructorFormatsFileKeyMessage) {
  const ConfigError e("configs/x.yaml", "td.box_latency_cycles", "must be >= 1 (got 0)");
  EXPECT_STREQ(e.what(), "configs/x.yaml: td.box_latency_cycles: must be >= 1 (got 0)");
  EXPECT_EQ(e.file(), "configs/x.yaml");
  EXPECT_EQ(e.key(), "td.box_latency_cycles");
}

TEST(ConfigError, OutOfRangeNamesKeyLineAndValue) {
  const std::string yaml = with_line(kValid, "  box_latency_cycles:", "  box_latency_cycles: 0");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  box_latency_cycles:"), 23, "td.box_latency_cycles: must be >= 1 (got 0)"));
  try {
    (void)parse_config(yaml, kFile);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), kFile);
    EXPECT_EQ(e.key(), "td.box_latency_cycles");
  }
}

// td.datapath: one of cpp, rtl; rtl takes the RTL's own latencies (kValid
// has 8, 16 and 2, which are theirs) and refuses others at the key.
TEST(ConfigError, DatapathIsCppOrRtlAtTheRtlsLatencies) {
  EXPECT_EQ(parse_config(kValid, kFile).td.datapath, "cpp");
  const std::string rtl = with_line(kValid, "  datapath:", "  datapath: rtl");
#if TDSIM_HAVE_RTL
  EXPECT_EQ(parse_config(rtl, kFile).td.datapath, "rtl");
  const std::string slow_sort = with_line(rtl, "  sort_latency_cycles:", "  sort_latency_cycles: 3");
  EXPECT_EQ(error_of(slow_sort),
            at(line_of(slow_sort, "  sort_latency_cycles:"), 24,
               "td.sort_latency_cycles: must be " + std::to_string(TDSIM_RTL_SORT_LATENCY) +
                   " with td.datapath: rtl, the RTL unit's pipeline depth (got 3)"));
  // An engine asking for the RTL (check --engine rtl) on a chip with other latencies.
  Config fast_box = parse_config(with_line(kValid, "  box_latency_cycles:", "  box_latency_cycles: 2"), kFile);
  try {
    (void)with_datapath(fast_box, "rtl");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), std::string(kFile) + ": td.box_latency_cycles: must be " +
                                         std::to_string(TDSIM_RTL_BOX_LATENCY) +
                                         " with td.datapath: rtl, the RTL unit's pipeline depth (got 2)");
  }
  EXPECT_EQ(with_datapath(parse_config(kValid, kFile), "rtl").td.datapath, "rtl");
#else
  EXPECT_NE(error_of(rtl).find("td.datapath: rtl needs tdsim built with its RTL"), std::string::npos);
#endif
  const std::string verilog = with_line(kValid, "  datapath:", "  datapath: verilog");
  EXPECT_EQ(error_of(verilog),
            at(line_of(verilog, "  datapath:"), 13, "td.datapath: must be one of cpp, rtl (got 'verilog')"));
  EXPECT_THROW((void)with_datapath(parse_config(kValid, kFile), "verilog"), ConfigError);
}

TEST(ConfigError, OutOfRangeAbove) {
  const std::string yaml = with_line(kValid, "  wgps:", "  wgps: 300");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  wgps:"), 9, "chip.wgps: must be <= 256 (got 300)"));
}

TEST(ConfigError, IntegerTooBigForAnyTypeIsOutOfRange) {
  const std::string yaml = with_line(kValid, "  mshrs: 32", "  mshrs: 99999999999999999999999");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  mshrs: 9"), 10, "l0.mshrs: must be <= 4096 (got 99999999999999999999999)"));
}

TEST(ConfigError, NumberOutOfRange) {
  std::string yaml = with_line(kValid, "  clock_mhz:", "  clock_mhz: 0");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  clock_mhz:"), 14, "chip.clock_mhz: must be >= 0.001 (got 0)"));
  yaml = with_line(kValid, "  clock_mhz:", "  clock_mhz: 20000.5");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  clock_mhz:"), 14, "chip.clock_mhz: must be <= 10000 (got 20000.5)"));
  yaml = with_line(kValid, "  latency_ns:", "  latency_ns: -1");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  latency_ns:"), 15, "dram.latency_ns: must be >= 0 (got -1)"));
  yaml = with_line(kValid, "  bandwidth_gb_per_s:", "  bandwidth_gb_per_s: 1e400");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  bandwidth_gb_per_s:"), 23,
                               "dram.bandwidth_gb_per_s: expected a finite number representable as a double (got '1e400')"));
}

TEST(ConfigError, ShaderArraysMayNotExceedWgps) {
  const std::string yaml = with_line(kValid, "  shader_arrays:", "  shader_arrays: 5");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  shader_arrays:"), 18, "chip.shader_arrays: must be <= chip.wgps (4) (got 5)"));
}

TEST(ConfigError, UnknownKeyAtEachLevel) {
  std::string yaml = with_line(kValid, "td:", "td:\n  colour: blue");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  colour:"), 3, "td.colour: unknown key"));
  yaml = kValid + "colour: blue\n";
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "colour:"), 1, "colour: unknown key"));
  yaml = with_line(kValid, "  slice:", "  slice:\n    colour: blue");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "    colour:"), 5, "l2.slice.colour: unknown key"));
}

TEST(ConfigError, DuplicateKey) {
  const std::string yaml = with_line(kValid, "  ways: 4", "  ways: 4\n  ways: 8");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  ways: 8"), 3, "l0.ways: duplicate key"));
}

TEST(ConfigError, MissingKeyAtEachLevelPointsAtTheEnclosingKey) {
  // A whole section missing: reported at the top-level mapping's start.
  std::string yaml = kValid.substr(0, kValid.find("dram:"));
  EXPECT_EQ(error_of(yaml), at(1, 1, "dram: missing key"));
  // A key of a section: reported at the section's key.
  yaml = with_line(kValid, "  ways: 4", "");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "l0:"), 1, "l0.ways: missing key"));
  // A key of the nested section.
  yaml = with_line(kValid, "    mshrs:", "");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  slice:"), 3, "l2.slice.mshrs: missing key"));
}

TEST(ConfigError, WrongTypeForAnUnsignedInteger) {
  const auto wgps = [](const std::string& value) {
    return error_of(with_line(kValid, "  wgps:", "  wgps: " + value));
  };
  const int line = line_of(kValid, "  wgps:");
  EXPECT_EQ(wgps("abc"), at(line, 9, "chip.wgps: expected an unsigned integer (got 'abc')"));
  EXPECT_EQ(wgps("2.5"), at(line, 9, "chip.wgps: expected an unsigned integer (got '2.5')"));
  EXPECT_EQ(wgps("-3"), at(line, 9, "chip.wgps: expected an unsigned integer (got '-3')"));
  EXPECT_EQ(wgps("0x10"), at(line, 9, "chip.wgps: expected an unsigned integer (got '0x10')"));
  EXPECT_EQ(wgps("\"4\""), at(line, 9, "chip.wgps: expected an unsigned integer (got a quoted string '4')"));
  EXPECT_EQ(wgps("[1, 2]"), at(line, 9, "chip.wgps: expected an unsigned integer (got a sequence)"));
  EXPECT_EQ(wgps("{a: 1}"), at(line, 9, "chip.wgps: expected an unsigned integer (got a mapping)"));
  // An empty value is reported at its key.
  EXPECT_EQ(wgps(""), at(line, 3, "chip.wgps: expected an unsigned integer (got null)"));
  EXPECT_EQ(wgps("~"), at(line, 3, "chip.wgps: expected an unsigned integer (got null)"));
}

TEST(ConfigError, WrongTypeForANumberOrAString) {
  std::string yaml = with_line(kValid, "  clock_mhz:", "  clock_mhz: fast");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  clock_mhz:"), 14, "chip.clock_mhz: expected a number (got 'fast')"));
  yaml = with_line(kValid, "  clock_mhz:", "  clock_mhz: .inf");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  clock_mhz:"), 14, "chip.clock_mhz: expected a number (got '.inf')"));
  yaml = with_line(kValid, "  clock_mhz:", "  clock_mhz: nan");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  clock_mhz:"), 14, "chip.clock_mhz: expected a number (got 'nan')"));
  yaml = with_line(kValid, "  name:", "  name: [a]");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  name:"), 9, "chip.name: expected a string (got a sequence)"));
  yaml = with_line(kValid, "  name:", "  name: \"\"");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  name:"), 9, "chip.name: must not be empty"));
}

TEST(ConfigError, EmptySectionIsReportedAtItsKey) {
  const std::string nested = kValid.substr(0, kValid.find("  slice:")) + "  slice:\n" + kValid.substr(kValid.find("dram:"));
  EXPECT_EQ(error_of(nested), at(line_of(nested, "  slice:"), 3,
                                 "l2.slice: expected a mapping with keys size_kib, ways, line_bytes, "
                                 "hit_latency_cycles, mshrs, bytes_per_clock (got null)"));
  const std::string top = kValid.substr(0, kValid.find("dram:")) + "dram:\n" + kValid.substr(kValid.find("shader:"));
  EXPECT_EQ(error_of(top), at(line_of(top, "dram:"), 1,
                              "dram: expected a mapping with keys channels, interleave_bytes, "
                              "bandwidth_gb_per_s, latency_ns (got null)"));
}

TEST(ConfigError, SequenceWhereAMappingIsExpected) {
  std::string yaml =
      kValid.substr(0, kValid.find("dram:")) + "dram: [4, 256, 64, 300]\n" + kValid.substr(kValid.find("shader:"));
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "dram:"), 7,
                               "dram: expected a mapping with keys channels, interleave_bytes, bandwidth_gb_per_s, "
                               "latency_ns (got a sequence)"));
}

TEST(ConfigError, LineBytesMustBeAPowerOfTwo) {
  std::string yaml = with_line(kValid, "  line_bytes: 128", "  line_bytes: 96");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  line_bytes: 96"), 15, "l0.line_bytes: must be a power of two (got 96)"));
  yaml = with_line(kValid, "  line_bytes: 128", "  line_bytes: 8");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  line_bytes: 8"), 15, "l0.line_bytes: must be >= 16 (got 8)"));
  yaml = with_line(kValid, "  interleave_bytes:", "  interleave_bytes: 48");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  interleave_bytes:"), 21, "dram.interleave_bytes: must be a power of two (got 48)"));
}

TEST(ConfigError, EachCacheNeedsTheMshrsOfItsLargestRequest) {
  // An FP32 box node (128 B) at a 64-byte boundary spans two 128-byte L0 lines.
  std::string yaml = with_line(kValid, "  mshrs: 32", "  mshrs: 1");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  mshrs: 1"), 10,
                               "l0.mshrs: must be >= 2: a 128-byte FP32 box node can span 2 lines of 128 B (got 1)"));
  // 16-byte L0 lines: eight of them.
  yaml = with_line(with_line(kValid, "  line_bytes: 128", "  line_bytes: 16"), "  mshrs: 32", "  mshrs: 4");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  mshrs: 4"), 10,
                               "l0.mshrs: must be >= 8: a 128-byte FP32 box node can span 8 lines of 16 B (got 4)"));
  // L1 lines smaller than the L0's: one L0 fill takes several. (The L1's
  // keys repeat the L0's names, so they are edited after "l1:".)
  std::string l1_small = kValid;
  const size_t l1 = l1_small.find("l1:");
  const size_t l1_line = l1_small.find("  line_bytes: 128", l1);
  l1_small.replace(l1_line, 17, "  line_bytes: 32 ");
  const size_t l1_mshrs = l1_small.find("  mshrs: 64", l1);
  l1_small.replace(l1_mshrs, 11, "  mshrs: 2 ");
  EXPECT_EQ(error_of(l1_small), at(line_of(l1_small, "  mshrs: 2 "), 10,
                                   "l1.mshrs: must be >= 4: an L0 fill of 128 B spans 4 lines of 32 B (got 2)"));
}

TEST(ConfigError, CacheGeometryMustGiveWholePowerOfTwoSets) {
  // 16 KiB over 3 ways of 128 B: not a whole number of sets.
  std::string yaml = with_line(kValid, "  ways: 4", "  ways: 3");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  size_kib: 16"), 13,
                               "l0.size_kib: must be a whole number of sets (16 KiB is not a multiple of 3 ways x "
                               "128 B = 384 B)"));
  // 192 KiB over 16 ways of 128 B: 96 sets.
  yaml = with_line(kValid, "  size_kib: 128", "  size_kib: 192");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  size_kib: 192"), 13,
                               "l1.size_kib: must give a power-of-two number of sets (192 KiB / (16 ways x 128 B) = "
                               "96 sets)"));
  // 1 KiB over 16 ways of 128 B: less than one set.
  yaml = with_line(kValid, "    size_kib: 256", "    size_kib: 1");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "    size_kib: 1"), 15,
                               "l2.slice.size_kib: must be a whole number of sets (1 KiB is not a multiple of 16 ways "
                               "x 128 B = 2048 B)"));
}

TEST(ConfigError, YamlSyntaxErrorGivesLineAndColumnWithoutKey) {
  const std::string yaml = with_line(kValid, "  wgps:", "  wgps: [4, 5");
  const std::string message = error_of(yaml);
  const std::string prefix = std::string(kFile) + ":" + std::to_string(line_of(yaml, "  wgps:") + 1) + ":";
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  try {
    (void)parse_config(yaml, kFile);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "");
  }
  EXPECT_EQ(error_of("a: [1\n"), at(2, 1, "end of sequence flow not found"));
  EXPECT_EQ(error_of("a: b: c\n"), at(1, 5, "illegal map value"));
}

TEST(ConfigError, MissingFileCannotBeOpened) {
  const std::string path = kSourceDir + "/configs/no_such_config.yaml";
  try {
    (void)load_config(path);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open");
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.key(), "");
  }
}

TEST(ConfigError, TopLevelMustBeOneMapping) {
  EXPECT_EQ(error_of("- chip\n- td\n"),
            at(1, 1, "the top level must be a mapping with keys chip, td, l0, l1, l2, dram, shader, bvh (got a sequence)"));
  EXPECT_EQ(error_of("just words\n"),
            at(1, 1, "the top level must be a mapping with keys chip, td, l0, l1, l2, dram, shader, bvh (got 'just words')"));
  const std::string two = kValid + "---\n" + kValid;
  EXPECT_EQ(error_of(two), at(line_of(kValid, "  split_budget:") + 1, 1,
                              "a second YAML document starts here (expected exactly one)"));
  // Trailing tokens after the document are not ignored.
  EXPECT_EQ(error_of(kValid + "...\nchip: x\n"), at(line_of(kValid, "  split_budget:") + 2, 1,
                                                   "a second YAML document starts here (expected exactly one)"));
}

// yaml-cpp 0.7's LoadAll never returns on these (jbeder/yaml-cpp#1040).
TEST(ConfigError, StrayFlowEntryIsASyntaxErrorNotAHang) {
  EXPECT_EQ(error_of(","), at(1, 1, "unexpected ','"));
  EXPECT_EQ(error_of("[a],"), at(1, 4, "unexpected ','"));
  EXPECT_EQ(error_of("{chip: 1},\n"), at(1, 10, "unexpected ','"));
}

TEST(ConfigError, AbsurdNestingIsAnErrorNotAStackOverflow) {
  // yaml-cpp 0.7 stops at its own depth guard (500 levels as built by
  // Debian); the limit is yaml-cpp's, so only the message shape is checked.
  const std::string brackets = error_of(std::string(100000, '['));
  EXPECT_EQ(brackets.rfind(at(1, 1, "nested deeper than the YAML parser allows ("), 0), 0u) << brackets;
  std::string dashes;
  for (int i = 0; i < 5000; ++i) dashes += "- ";
  const std::string message = error_of(dashes + "x\n");
  EXPECT_EQ(message.rfind(std::string(kFile) + ":1:", 0), 0u) << message;
  EXPECT_NE(message.find(": nested deeper than the YAML parser allows ("), std::string::npos) << message;
}

TEST(ConfigError, HugeTextIsRejectedBeforeParsing) {
  EXPECT_EQ(error_of(std::string((1 << 20) + 1, '#')),
            std::string(kFile) + ": too large for a configuration (1048577 bytes; at most 1048576)");
}

TEST(ConfigError, EmptyFileHoldsNoDocument) {
  const std::string expected =
      std::string(kFile) + ": the file holds no YAML document (expected a mapping with keys chip, td, l0, l1, l2, dram, shader, bvh)";
  EXPECT_EQ(error_of(""), expected);
  EXPECT_EQ(error_of("# only a comment\n\n"), expected);
}

TEST(ConfigError, NonScalarKeyIsRejected) {
  const std::string yaml = with_line(kValid, "td:", "td:\n  ? [a, b]\n  : 1");
  EXPECT_EQ(error_of(yaml), at(line_of(yaml, "  ? ["), 5, "td: expected a key name (got a sequence)"));
}

// --- the ends of every range, and the model's memory ------------------------

Config small_chip() { return load_config(kSourceDir + "/configs/small.yaml"); }

// Every key at each end of its documented range loads (with the keys that
// constrain it moved just enough): the ranges the table gives are the
// ranges the loader accepts. (tests/sc/extreme_config_test.cpp runs each.)
TEST(ConfigRanges, EveryDocumentedEndLoads) {
  const Config small = small_chip();
  for (const std::string& name : test::variant_names()) {
    SCOPED_TRACE(name);
    Config variant;
    EXPECT_NO_THROW(variant = test::make_variant(small, name));
    EXPECT_NE(to_yaml(variant), to_yaml(small));
    EXPECT_LE(cfg::estimate_model_memory(variant).bytes, cfg::kMaxModelMemoryBytes);
  }
}

// What a key takes at each end of its range (a word key: each word), as
// --set would give it.
std::vector<std::string> end_values(const KeyInfo& info) {
  switch (info.kind) {
    case KeyInfo::Kind::kWhole:
    case KeyInfo::Kind::kNumber: return {fmt::format("{}", info.min), fmt::format("{}", info.max)};
    case KeyInfo::Kind::kWord: return info.words;
    case KeyInfo::Kind::kText: break;
  }
  return {};
}

// Every key of the table, at each end of its range (each word of a word
// key), given to small.yaml alone: it loads with that value, or is refused
// up front naming it or a key of its section (a check across keys, as
// chip.shader_arrays <= wgps, a cache's whole sets or a level's MSHRs). The table is the only place the ends are written.
TEST(ConfigRanges, EveryEndOfTheTableLoadsOrIsRefusedNamingItsKey) {
  const std::string small = kSourceDir + "/configs/small.yaml";
  size_t loaded = 0, refused = 0;
  for (const KeyInfo& info : cfg::keys()) {
    for (const std::string& value : end_values(info)) {
      SCOPED_TRACE(info.path + "=" + value);
      try {
        const Config c = load_config(small, {Override{info.path, value}});
        EXPECT_EQ(value_at(c, info.path), value);
        ++loaded;
      } catch (const ConfigError& e) {
        // Its own key, a key of its section (a cache's sets) or a message naming it.
        const auto section = [](const std::string& path) { return path.substr(0, path.rfind('.')); };
        EXPECT_TRUE(e.key() == info.path || section(e.key()) == section(info.path) ||
                    std::string(e.what()).find(info.path) != std::string::npos)
            << e.what();
        ++refused;
      }
    }
  }
  EXPECT_GT(loaded, 3 * refused);  // most ends load on their own
}

// The run-time variants (tests/common/config_variants.h, each run by
// tests/sc/extreme_config_test.cpp) put every numeric key of the chip's
// sections at the table's maximum, and its minimum where the other keys
// allow one: a new key or a changed range shows up here.
TEST(ConfigRanges, TheRunVariantsReachTheTablesEnds) {
  const Config small = small_chip();
  std::vector<Config> variants;
  for (const std::string& name : test::variant_names()) variants.push_back(test::make_variant(small, name));
  for (const KeyInfo& info : cfg::keys()) {
    if (info.kind != KeyInfo::Kind::kWhole && info.kind != KeyInfo::Kind::kNumber) continue;
    if (info.path.rfind("shader.", 0) == 0 || info.path.rfind("bvh.", 0) == 0) continue;  // no chip run reads them
    for (const double end : {info.min, info.max}) {
      const std::string value = fmt::format("{}", end);
      const bool reached = std::any_of(variants.begin(), variants.end(),
                                       [&](const Config& c) { return value_at(c, info.path) == value; });
      // l0.mshrs below 2 cannot hold a 128-byte node's two lines.
      if (info.path == "l0.mshrs" && end < 2) continue;
      EXPECT_TRUE(reached) << info.path << " = " << value << ": no variant in config_variants.h";
    }
  }
}

// The column of the value on the line that starts with `line_start`.
int value_column(const std::string& yaml, std::string_view line_start) {
  const size_t begin = yaml.find(std::string("\n") + std::string(line_start)) + 1;
  return static_cast<int>(yaml.find(": ", begin) - begin) + 3;
}

// Every key at its maximum at once: far beyond what a machine holds. The
// loader refuses it at the key with the largest share (a full instruction
// queue of wave64 instructions in each of 2048 TDs), with the estimate.
TEST(ConfigMemory, EveryKeyAtItsMaximumAtOnceIsRefusedAtTheLargestShare) {
  Config c = small_chip();
  c.chip.wgps = 256;
  c.chip.tds_per_wgp = 8;
  c.chip.shader_arrays = 64;
  c.chip.clock_mhz = 10000;
  c.td.instruction_queue_depth = c.td.fetch_queue_depth = c.td.return_buffer_entries = 4096;
  c.td.box_latency_cycles = c.td.triangle_latency_cycles = c.td.sort_latency_cycles = 100000;
  c.td.return_latency_cycles = 100000;
  for (CacheConfig* cache : {&c.l0, &c.l1, &c.l2.slice}) {
    cache->size_kib = 1048576;
    cache->ways = 4096;
    cache->line_bytes = 4096;
    cache->hit_latency_cycles = 100000;
    cache->mshrs = 4096;
    cache->bytes_per_clock = 4096;
  }
  c.l2.slices = 256;
  c.dram = DramConfig{1024, 1048576, 100000, 1000000};
  const std::string yaml = to_yaml(c);
  const std::string message = error_of(yaml);
  const std::string expected_start =
      at(line_of(yaml, "  instruction_queue_depth:"), value_column(yaml, "  instruction_queue_depth:"),
         "td.instruction_queue_depth: the timing model would need about ");
  EXPECT_EQ(message.rfind(expected_start, 0), 0u) << message;
  EXPECT_NE(message.find(" GiB of memory, more than the 8.0 GiB tdsim allows; the largest share, "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("is 2048 TDs (chip.wgps x chip.tds_per_wgp) x 4096 instruction slots"), std::string::npos)
      << message;
  try {
    (void)parse_config(yaml, kFile);
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "td.instruction_queue_depth");
  }
}

// Allowed one at a time, some keys multiply: 2048 TDs each with 1024
// instruction slots is refused at the queue. A 100000-clock box pipeline
// is not: the datapaths hold no lane per clock of latency.
TEST(ConfigMemory, ManyTdsWithDeepQueuesAreRefusedAtTheQueue) {
  Config c = small_chip();
  c.chip.wgps = 256;
  c.chip.tds_per_wgp = 8;
  c.td.box_latency_cycles = 100000;
  EXPECT_EQ(error_of(to_yaml(c)), "");
  c.td.instruction_queue_depth = 1024;
  const std::string yaml = to_yaml(c);
  const std::string message = error_of(yaml);
  EXPECT_EQ(message.rfind(at(line_of(yaml, "  instruction_queue_depth:"), value_column(yaml, "  instruction_queue_depth:"),
                             "td.instruction_queue_depth: the timing model would need about "),
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("2048 TDs (chip.wgps x chip.tds_per_wgp) x 1024 instruction slots"), std::string::npos)
      << message;
}

// Tags of a cache larger than Cache::kDenseTagLines lines are held only for
// the lines a run touches: a 1 GiB L0 in each of the 52 TDs of Series X
// costs no more up front than the 16 KiB one (whose 128 tags are whole).
TEST(ConfigMemory, AHugeCacheCostsNoTagMemoryUpFront) {
  Config c = load_config(kSourceDir + "/configs/xbox_series_x.yaml");
  const uint64_t shipped = cfg::estimate_model_memory(c).bytes;
  c.l0.size_kib = 1048576;
  EXPECT_EQ(error_of(to_yaml(c)), "");
  EXPECT_LE(cfg::estimate_model_memory(c).bytes, shipped);
}

TEST(ConfigMemory, ShippedChipsNeedLittle) {
  for (const char* name : {"xbox_series_x", "xbox_series_s", "small"}) {
    SCOPED_TRACE(name);
    const cfg::MemoryEstimate e = cfg::estimate_model_memory(load_config(kSourceDir + "/configs/" + name + ".yaml"));
    EXPECT_LT(e.bytes, uint64_t{64} << 20);
    EXPECT_GT(e.bytes, 0u);
  }
}

}  // namespace
}  // namespace td::cfg

namespace {

// Occupancy as RDNA2 allocates registers (and the seeds' figures): 96
// VGPRs give 10 waves per SIMD, 128 give 8, 160 give 6 (3 in wave64), 253
// give 4; 64 or fewer reach the LDS's 16 with 16-entry stacks; a larger
// stack lowers the LDS's cap; waves_per_simd overrides both.
TEST(ShaderOccupancy, FollowsTheRegistersAndTheStacksLds) {
  td::cfg::ShaderConfig shader;
  shader.lanes_per_wave = 32;
  shader.simds_per_td = 2;
  shader.stack_entries = 16;
  const auto waves = [&](uint32_t vgprs) {
    shader.vgprs = vgprs;
    return td::cfg::shader_occupancy(shader).waves_per_simd;
  };
  EXPECT_EQ(waves(96), 10u);
  EXPECT_EQ(waves(128), 8u);
  EXPECT_EQ(waves(160), 6u);
  EXPECT_EQ(waves(253), 4u);
  EXPECT_EQ(waves(256), 4u);
  EXPECT_EQ(waves(97), 9u);  // allocated in blocks of 16: 112
  EXPECT_EQ(waves(64), 16u);
  EXPECT_EQ(waves(1), 16u);
  EXPECT_EQ(td::cfg::shader_occupancy(shader).by_vgprs, 20u);  // the SIMD's most
  EXPECT_EQ(td::cfg::shader_occupancy(shader).by_lds, 16u);
  shader.stack_entries = 32;  // 4 KB a wave: 16 a CU, 8 a SIMD
  EXPECT_EQ(waves(64), 8u);
  shader.stack_entries = 64;
  shader.lanes_per_wave = 64;  // 16 KB a wave: 4 a CU, 2 a SIMD
  EXPECT_EQ(waves(160), 2u);   // wave64: 512 registers, 160 allow 3
  EXPECT_EQ(td::cfg::shader_occupancy(shader).by_vgprs, 3u);
  shader.simds_per_td = 4;
  EXPECT_EQ(waves(160), 1u);
  shader.waves_per_simd = 7;
  EXPECT_EQ(waves(160), 7u);
  EXPECT_TRUE(td::cfg::shader_occupancy(shader).overridden);
}

}  // namespace

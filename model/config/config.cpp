// config.cpp — YAML -> const Config. One declarative table per section lists
// each key with its member and its range; reading, checking and writing YAML
// all walk the same tables, so a new key is one line in one table.
// yaml-cpp is used for parsing only: every yaml-cpp exception is turned into
// a ConfigError here and never escapes.
#include "model/config/config.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "model/config/model_memory.h"
#include "model/sim/int_math.h"

namespace td::cfg {

namespace {

// Anything bigger is not a chip description (and reading /dev/zero must end).
constexpr size_t kMaxFileBytes = size_t{1} << 20;
constexpr size_t kMaxNameBytes = 200;
constexpr size_t kMaxQuotedBytes = 40;  // of an offending value, in messages

std::string where(const std::string& file, int line, int column) {
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string compose(const std::string& file, int line, int column, const std::string& key,
                    const std::string& message) {
  if (key.empty()) return fmt::format("{}: {}", where(file, line, column), message);
  return fmt::format("{}: {}: {}", where(file, line, column), key, message);
}

std::string join_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

// An offending value as it appears in a message: quoted, shortened, with
// control bytes escaped so a message stays on one line.
std::string quote(std::string_view text) {
  std::string out = "'";
  size_t shown = 0;
  for (char c : text) {
    if (shown == kMaxQuotedBytes) {
      out += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
    ++shown;
  }
  out += "'";
  return out;
}

// What a node is, for "expected X (got Y)".
std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") return "a quoted string " + quote(node.Scalar());
      if (node.Tag() != "?") return fmt::format("{} tagged {}", quote(node.Scalar()), quote(node.Tag()));
      return quote(node.Scalar());
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

// A plain (unquoted, untagged) scalar, or a scalar with one of `core_tags`.
bool is_plain_scalar(const YAML::Node& node, std::initializer_list<std::string_view> core_tags) {
  if (!node.IsScalar()) return false;
  const std::string& tag = node.Tag();
  if (tag == "?") return true;
  for (std::string_view core : core_tags) {
    if (tag == core) return true;
  }
  return false;
}

}  // namespace

// ---------------------------------------------------------------------------
// ConfigError

ConfigError::ConfigError(const std::string& file, const std::string& key, const std::string& message)
    : ConfigError(file, 0, 0, key, message) {}

ConfigError::ConfigError(const std::string& file, int line, int column, const std::string& key,
                         const std::string& message)
    : std::runtime_error(compose(file, line, column, key, message)), file_(file), key_(key) {}

uint64_t Config::period_ps() const {
  if (!(chip.clock_mhz > 0)) return 0;
  return static_cast<uint64_t>(std::llround(1e6 / chip.clock_mhz));
}

// ---------------------------------------------------------------------------
// The reader: raises errors at YAML positions and converts scalars.

// A value with the position errors about it are reported at: its own, or
// its key's when it is empty (yaml-cpp puts an empty value where the next
// token starts, often on the following line).
struct Value {
  YAML::Node node;
  YAML::Mark mark;
  YAML::Mark key_mark;
};

class ConfigReader {
 public:
  ConfigReader(std::string file, const std::vector<Override>& overrides)
      : file_(std::move(file)), overrides_(overrides) {}

  // An error about `key`: at its position in the file, or naming the
  // --set that gave it its value.
  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& key, const std::string& message) const {
    for (const Override& o : overrides_)
      if (!key.empty() && o.key == key) throw ConfigError(o.text(), 0, 0, key, message);
    if (mark.is_null()) throw ConfigError(file_, 0, 0, key, message);
    throw ConfigError(file_, mark.line + 1, mark.column + 1, key, message);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    fail(YAML::Mark::null_mark(), key, message);
  }

  std::string read_text(const Value& value, const std::string& key) const {
    const YAML::Node& node = value.node;
    if (!node.IsScalar()) fail(value.mark, key, fmt::format("expected a string (got {})", describe(node)));
    const std::string& text = node.Scalar();
    if (text.empty()) fail(value.mark, key, "must not be empty");
    if (text.size() > kMaxNameBytes) {
      fail(value.mark, key, fmt::format("must be at most {} bytes (got {})", kMaxNameBytes, text.size()));
    }
    for (char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte == 0x7f) {
        fail(value.mark, key, fmt::format("must not hold control characters (got {})", quote(text)));
      }
    }
    return text;
  }

  uint32_t read_unsigned(const Value& located, const std::string& key, uint64_t min, uint64_t max,
                         bool power_of_two) const {
    const YAML::Node& node = located.node;
    const auto wrong = [&] {
      fail(located.mark, key, fmt::format("expected an unsigned integer (got {})", describe(node)));
    };
    if (!is_plain_scalar(node, {"tag:yaml.org,2002:int"})) wrong();
    const std::string& text = node.Scalar();
    if (text.empty()) wrong();
    for (char c : text) {
      if (c < '0' || c > '9') wrong();
    }
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) fail(located.mark, key, fmt::format("must be <= {} (got {})", max, text));
    if (ec != std::errc() || end != text.data() + text.size()) wrong();
    if (value < min) fail(located.mark, key, fmt::format("must be >= {} (got {})", min, value));
    if (value > max) fail(located.mark, key, fmt::format("must be <= {} (got {})", max, value));
    if (power_of_two && !sim::is_power_of_two(value)) {
      fail(located.mark, key, fmt::format("must be a power of two (got {})", value));
    }
    return static_cast<uint32_t>(value);
  }

  double read_number(const Value& located, const std::string& key, double min, double max) const {
    const YAML::Node& node = located.node;
    const auto wrong = [&] {
      fail(located.mark, key, fmt::format("expected a number (got {})", describe(node)));
    };
    if (!is_plain_scalar(node, {"tag:yaml.org,2002:float", "tag:yaml.org,2002:int"})) wrong();
    const std::string& text = node.Scalar();
    // Plain decimal or exponent notation; from_chars would also take
    // "inf"/"nan", which YAML spells differently: neither is a valid value.
    if (text.empty()) wrong();
    for (char c : text) {
      const bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
      if (!ok) wrong();
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
      fail(located.mark, key, fmt::format("expected a finite number representable as a double (got {})", quote(text)));
    }
    if (ec != std::errc() || end != text.data() + text.size()) wrong();
    if (!std::isfinite(value)) wrong();
    if (value < min) fail(located.mark, key, fmt::format("must be >= {} (got {})", min, text));
    if (value > max) fail(located.mark, key, fmt::format("must be <= {} (got {})", max, text));
    return value;
  }

  const std::string& file() const { return file_; }
  const std::vector<Override>& overrides() const { return overrides_; }

 private:
  std::string file_;
  const std::vector<Override>& overrides_;
};

namespace {

// ---------------------------------------------------------------------------
// Declarative tables

// The value nodes of one section, by field index, once read; for checks
// that span fields (they report at the position of the field they name).
struct SectionNodes {
  std::string path;
  std::vector<const char*> keys;
  std::vector<Value> values;

  const YAML::Mark& mark_of(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (key == keys[i]) return values[i].mark;
    }
    throw std::logic_error(fmt::format("config.cpp: no key {} in {}", key, path));
  }
};

template <class S>
struct Field {
  const char* key;
  // Reads `value` (in the section at key path `path`) into `out`.
  std::function<void(const ConfigReader&, const Value& value, const std::string& path, S& out)> read;
  // Appends "key: value" lines (or a nested block) at `indent` spaces.
  std::function<void(std::string& out, int indent, const S& in)> write;
  // Appends what the key takes (a group: each of its keys) under `path`.
  std::function<void(const std::string& path, std::vector<KeyInfo>& out)> describe;
};

template <class S>
struct Section {
  std::vector<Field<S>> fields;
  // Checks across fields after all of them are read; may be empty.
  std::function<void(const ConfigReader&, const SectionNodes&, const S&)> check;

  size_t index_of(std::string_view key) const {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (key == fields[i].key) return i;
    }
    return fields.size();
  }
};

// A string in YAML double quotes: round-trips any name read_text accepts.
std::string yaml_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

void write_line(std::string& out, int indent, const char* key, const std::string& value) {
  out.append(static_cast<size_t>(indent), ' ');
  out += fmt::format("{}: {}\n", key, value);
}

// One of a few words (an enumeration): "must be one of normal, high (got 'x')".
KeyInfo key_info(const std::string& path, KeyInfo::Kind kind, std::string range, const char* what) {
  KeyInfo info;
  info.path = path;
  info.kind = kind;
  info.range = std::move(range);
  info.what = what;
  return info;
}

template <class S>
Field<S> word(const char* key, std::string S::*member, std::vector<std::string> allowed, const char* what) {
  return {key,
          [key, member, allowed](const ConfigReader& r, const Value& v, const std::string& path, S& out) {
            const std::string text = r.read_text(v, join_path(path, key));
            if (std::find(allowed.begin(), allowed.end(), text) == allowed.end())
              r.fail(v.mark, join_path(path, key),
                     fmt::format("must be one of {} (got {})", fmt::join(allowed, ", "), quote(text)));
            out.*member = text;
          },
          [key, member](std::string& out, int indent, const S& in) { write_line(out, indent, key, in.*member); },
          [key, allowed, what](const std::string& path, std::vector<KeyInfo>& out) {
            KeyInfo info = key_info(join_path(path, key), KeyInfo::Kind::kWord,
                                    fmt::format("{}", fmt::join(allowed, " | ")), what);
            info.words = allowed;
            out.push_back(std::move(info));
          }};
}

template <class S>
Field<S> text(const char* key, std::string S::*member, const char* what) {
  return {key,
          [key, member](const ConfigReader& r, const Value& v, const std::string& path, S& out) {
            out.*member = r.read_text(v, join_path(path, key));
          },
          [key, member](std::string& out, int indent, const S& in) {
            write_line(out, indent, key, yaml_quoted(in.*member));
          },
          [key, what](const std::string& path, std::vector<KeyInfo>& out) {
            out.push_back(key_info(join_path(path, key), KeyInfo::Kind::kText,
                                   fmt::format("non-empty string, <= {} bytes, no control characters", kMaxNameBytes),
                                   what));
          }};
}

struct UnsignedRange {
  uint64_t min;
  uint64_t max;
  bool power_of_two = false;
};

// `note`: what the section's check adds to the range ("<= wgps"), or, when
// `replaces` is set, the whole of what the key takes ("32 or 64").
struct RangeNote {
  const char* text = nullptr;
  bool replaces = false;
};

template <class S>
Field<S> whole(const char* key, uint32_t S::*member, UnsignedRange range, const char* what, RangeNote note = {}) {
  return {key,
          [key, member, range](const ConfigReader& r, const Value& v, const std::string& path, S& out) {
            out.*member = r.read_unsigned(v, join_path(path, key), range.min, range.max, range.power_of_two);
          },
          [key, member](std::string& out, int indent, const S& in) {
            write_line(out, indent, key, fmt::format("{}", in.*member));
          },
          [key, range, what, note](const std::string& path, std::vector<KeyInfo>& out) {
            std::string text = fmt::format("{}..{}", range.min, range.max);
            if (range.power_of_two) text += ", power of two";
            if (note.text) text = note.replaces ? std::string(note.text) : text + ", " + note.text;
            KeyInfo info = key_info(join_path(path, key), KeyInfo::Kind::kWhole, text, what);
            info.min = static_cast<double>(range.min);
            info.max = static_cast<double>(range.max);
            info.power_of_two = range.power_of_two;
            out.push_back(std::move(info));
          }};
}

struct NumberRange {
  double min;
  double max;
};

template <class S>
Field<S> number(const char* key, double S::*member, NumberRange range, const char* what) {
  return {key,
          [key, member, range](const ConfigReader& r, const Value& v, const std::string& path, S& out) {
            out.*member = r.read_number(v, join_path(path, key), range.min, range.max);
          },
          [key, member](std::string& out, int indent, const S& in) {
            // Shortest representation that reads back to the same double.
            write_line(out, indent, key, fmt::format("{}", in.*member));
          },
          [key, range, what](const std::string& path, std::vector<KeyInfo>& out) {
            KeyInfo info = key_info(join_path(path, key), KeyInfo::Kind::kNumber,
                                    fmt::format("{}..{}", range.min, range.max), what);
            info.min = range.min;
            info.max = range.max;
            out.push_back(std::move(info));
          }};
}

template <class S>
void read_section(const ConfigReader& reader, const Value& value, const std::string& path, const Section<S>& section,
                  S& out);
template <class S>
void write_section(std::string& out, int indent, const Section<S>& section, const S& in);

template <class S, class T>
Field<S> group(const char* key, T S::*member, const Section<T>& nested) {
  const Section<T>* table = &nested;  // tables are function-local statics
  return {key,
          [key, member, table](const ConfigReader& r, const Value& v, const std::string& path, S& out) {
            read_section(r, v, join_path(path, key), *table, out.*member);
          },
          [key, member, table](std::string& out, int indent, const S& in) {
            out.append(static_cast<size_t>(indent), ' ');
            out += fmt::format("{}:\n", key);
            write_section(out, indent + 2, *table, in.*member);
          },
          [key, table](const std::string& path, std::vector<KeyInfo>& out) {
            for (const Field<T>& f : table->fields) f.describe(join_path(path, key), out);
          }};
}

// Reads one mapping: unknown and duplicate keys (in document order), then
// missing keys and values (in table order), then the cross-field check.
// A missing key is reported at the mapping's own key (value.key_mark).
template <class S>
void read_section(const ConfigReader& reader, const Value& value, const std::string& path, const Section<S>& section,
                  S& out) {
  const YAML::Node& node = value.node;
  if (!node.IsMap()) {
    std::vector<std::string> keys;
    for (const Field<S>& f : section.fields) keys.emplace_back(f.key);
    reader.fail(value.mark, path,
                fmt::format("expected a mapping with keys {} (got {})", fmt::join(keys, ", "), describe(node)));
  }
  SectionNodes nodes{path, {}, std::vector<Value>(section.fields.size())};
  for (const Field<S>& f : section.fields) nodes.keys.push_back(f.key);
  std::vector<bool> seen(section.fields.size(), false);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    if (!key_node.IsScalar()) {
      reader.fail(key_node.Mark(), path, fmt::format("expected a key name (got {})", describe(key_node)));
    }
    const std::string& key = key_node.Scalar();
    const size_t i = section.index_of(key);
    if (i == section.fields.size()) reader.fail(key_node.Mark(), join_path(path, key), "unknown key");
    if (seen[i]) reader.fail(key_node.Mark(), join_path(path, key), "duplicate key");
    seen[i] = true;
    const YAML::Node v = it->second;
    nodes.values[i] = Value{v, v.IsNull() ? key_node.Mark() : v.Mark(), key_node.Mark()};
  }
  for (size_t i = 0; i < section.fields.size(); ++i) {
    if (!seen[i]) reader.fail(value.key_mark, join_path(path, section.fields[i].key), "missing key");
  }
  for (size_t i = 0; i < section.fields.size(); ++i) {
    section.fields[i].read(reader, nodes.values[i], path, out);
  }
  if (section.check) section.check(reader, nodes, out);
}

template <class S>
void write_section(std::string& out, int indent, const Section<S>& section, const S& in) {
  for (const Field<S>& f : section.fields) f.write(out, indent, in);
}

// Ranges (the shipped configs' comments repeat each: ConfigShipped checks them).
constexpr UnsignedRange kQueue{1, 4096};
constexpr UnsignedRange kLatency{1, 100000};

const Section<ChipConfig>& chip_section() {
  static const Section<ChipConfig> section{
      {
          text("name", &ChipConfig::name, "the chip's name, for reports"),
          number("clock_mhz", &ChipConfig::clock_mhz, {0.001, 10000}, "the one clock of the whole chip, MHz"),
          whole("wgps", &ChipConfig::wgps, {1, 256}, "active WGPs (work-group processors, two CUs each)"),
          whole("tds_per_wgp", &ChipConfig::tds_per_wgp, {1, 8}, "TD blocks per WGP (one per CU)"),
          whole("shader_arrays", &ChipConfig::shader_arrays, {1, 64},
              "shader arrays, each with its own L1; the WGPs are spread evenly over them", {"<= wgps"}),
      },
      [](const ConfigReader& r, const SectionNodes& nodes, const ChipConfig& c) {
        if (c.shader_arrays > c.wgps) {
          r.fail(nodes.mark_of("shader_arrays"), join_path(nodes.path, "shader_arrays"),
                 fmt::format("must be <= {} ({}) (got {})", join_path(nodes.path, "wgps"), c.wgps, c.shader_arrays));
        }
      }};
  return section;
}

// td.datapath: rtl runs the Verilated units, whose pipeline depths are
// fixed when they are built (CMake passes the same numbers to Verilator as
// -GLatency and to this file): the configured latencies must be theirs, or
// the two datapaths would not be the same machine. The first mismatch, or
// no key.
struct DatapathMismatch {
  const char* key = nullptr;
  std::string message;
};

DatapathMismatch datapath_mismatch(const TdConfig& c) {
  if (c.datapath != "rtl") return {};
#if TDSIM_HAVE_RTL
  const std::pair<const char*, uint32_t> fixed[] = {
      {"box_latency_cycles", TDSIM_RTL_BOX_LATENCY},
      {"triangle_latency_cycles", TDSIM_RTL_TRIANGLE_LATENCY},
      {"sort_latency_cycles", TDSIM_RTL_SORT_LATENCY},
  };
  const uint32_t configured[] = {c.box_latency_cycles, c.triangle_latency_cycles, c.sort_latency_cycles};
  for (size_t i = 0; i < 3; ++i) {
    if (configured[i] != fixed[i].second)
      return {fixed[i].first, fmt::format("must be {} with td.datapath: rtl, the RTL unit's pipeline depth (got {})",
                                          fixed[i].second, configured[i])};
  }
  return {};
#else
  return {"datapath", "rtl needs tdsim built with its RTL (cmake -DTDSIM_RTL=ON, and Verilator)"};
#endif
}

const Section<TdConfig>& td_section() {
  static const Section<TdConfig> section{{
      whole("instruction_queue_depth", &TdConfig::instruction_queue_depth, kQueue,
          "wave instructions the TD holds (waiting or in flight)"),
      whole("fetch_queue_depth", &TdConfig::fetch_queue_depth, kQueue,
          "lanes between the lane sequencer and node fetch"),
      whole("return_buffer_entries", &TdConfig::return_buffer_entries, kQueue,
          "lanes between node fetch and the datapaths (fetched or waiting for their bytes)"),
      whole("box_latency_cycles", &TdConfig::box_latency_cycles, kLatency, "box datapath pipeline depth, clocks"),
      whole("triangle_latency_cycles", &TdConfig::triangle_latency_cycles, kLatency,
          "triangle datapath pipeline depth, clocks"),
      whole("sort_latency_cycles", &TdConfig::sort_latency_cycles, kLatency,
          "sorting network after the box datapath, clocks"),
      whole("return_latency_cycles", &TdConfig::return_latency_cycles, {0, 100000},
          "clocks from an instruction's last lane written to its results at the wave"),
      word("datapath", &TdConfig::datapath, datapath_words(),
          "what computes the datapaths: cpp (the golden reference's maths) or rtl (the Verilated units); the same "
          "results and cycles"),
  }, [](const ConfigReader& r, const SectionNodes& nodes, const TdConfig& c) {
        if (const DatapathMismatch m = datapath_mismatch(c); m.key)
          r.fail(nodes.mark_of(m.key), join_path(nodes.path, m.key), m.message);
      }};
  return section;
}

const Section<CacheConfig>& cache_section() {
  static const Section<CacheConfig> section{
      {
          whole("size_kib", &CacheConfig::size_kib, {1, 1048576}, "capacity, KiB", {"whole power-of-two sets"}),
          whole("ways", &CacheConfig::ways, {1, 4096}, "associativity"),
          whole("line_bytes", &CacheConfig::line_bytes, {16, 4096, true}, "line size, bytes"),
          whole("hit_latency_cycles", &CacheConfig::hit_latency_cycles, kLatency,
              "clocks from a request to its data on a hit"),
          whole("mshrs", &CacheConfig::mshrs, kQueue, "miss status holding registers: lines missing at once"),
          whole("bytes_per_clock", &CacheConfig::bytes_per_clock, {1, 4096}, "bytes it returns per clock"),
      },
      [](const ConfigReader& r, const SectionNodes& nodes, const CacheConfig& c) {
        const uint64_t size = uint64_t{c.size_kib} * 1024;
        const uint64_t set_bytes = uint64_t{c.ways} * c.line_bytes;
        const std::string key = join_path(nodes.path, "size_kib");
        if (size % set_bytes != 0) {
          r.fail(nodes.mark_of("size_kib"), key,
                 fmt::format("must be a whole number of sets ({} KiB is not a multiple of {} ways x {} B = {} B)",
                             c.size_kib, c.ways, c.line_bytes, set_bytes));
        }
        if (!sim::is_power_of_two(size / set_bytes)) {
          r.fail(nodes.mark_of("size_kib"), key,
                 fmt::format("must give a power-of-two number of sets ({} KiB / ({} ways x {} B) = {} sets)",
                             c.size_kib, c.ways, c.line_bytes, size / set_bytes));
        }
      }};
  return section;
}

const Section<L2Config>& l2_section() {
  static const Section<L2Config> section{{
      whole("slices", &L2Config::slices, {1, 256}, "L2 slices (channels); lines are interleaved across them"),
      group("slice", &L2Config::slice, cache_section()),
  }, {}};
  return section;
}

const Section<DramConfig>& dram_section() {
  static const Section<DramConfig> section{{
      whole("channels", &DramConfig::channels, {1, 1024},
          "DRAM channels; interleave_bytes stripes are spread across them"),
      whole("interleave_bytes", &DramConfig::interleave_bytes, {16, 1048576, true}, "bytes of one channel's stripe"),
      number("bandwidth_gb_per_s", &DramConfig::bandwidth_gb_per_s, {0.001, 100000},
          "the whole device's bandwidth, GB/s (1 GB = 1e9 bytes)"),
      number("latency_ns", &DramConfig::latency_ns, {0, 1000000}, "latency beyond the L2 miss path, ns"),
  }, {}};
  return section;
}

const Section<ShaderConfig>& shader_section() {
  static const Section<ShaderConfig> section{
      {
          whole("lanes_per_wave", &ShaderConfig::lanes_per_wave, {32, 64}, "wave size, lanes", {"32 or 64", true}),
          whole("simds_per_td", &ShaderConfig::simds_per_td, {1, 4}, "SIMDs of the compute unit a TD serves"),
          whole("waves_per_simd", &ShaderConfig::waves_per_simd, {0, 32},
              "occupancy, waves per SIMD; 0: from vgprs and the stacks' LDS"),
          whole("vgprs", &ShaderConfig::vgprs, {1, 256}, "VGPRs per lane the traversal shader allocates"),
          whole("stack_entries", &ShaderConfig::stack_entries, {1, 64},
              "short-stack entries per lane (4 bytes each, in LDS)"),
          word("overflow", &ShaderConfig::overflow, overflow_words(),
              "the way back once the short stack dropped entries: by parent pointers, or a restart from the root"),
          whole("alu_instructions_per_iteration", &ShaderConfig::alu_instructions_per_iteration, {0, 100000},
              "VALU instructions of one traversal-loop iteration"),
          whole("alu_instructions_per_instance", &ShaderConfig::alu_instructions_per_instance, {0, 100000},
              "VALU instructions of the instance step (TLAS to BLAS)"),
          whole("lds_latency_cycles", &ShaderConfig::lds_latency_cycles, {0, 100000},
              "clocks of a stack pop's LDS read, before the next intersect"),
          whole("wave_launch_cycles", &ShaderConfig::wave_launch_cycles, {1, 100000},
              "clocks from a free wave slot's request for rays to its new wave's start"),
          whole("hit_attribute_loads", &ShaderConfig::hit_attribute_loads, {0, 3},
              "closest-hit shading: 16-byte loads of the hit triangle's vertex attributes"),
          whole("hit_texture_loads", &ShaderConfig::hit_texture_loads, {0, 16},
              "closest-hit shading: textures read, one 16-byte block each"),
          whole("hit_texture_kib", &ShaderConfig::hit_texture_kib, {1, 1048576},
              "closest-hit shading: each texture's size, KiB"),
          whole("hit_alu_instructions", &ShaderConfig::hit_alu_instructions, {0, 100000},
              "closest-hit shading: VALU instructions once its loads land"),
      },
      [](const ConfigReader& r, const SectionNodes& nodes, const ShaderConfig& c) {
        if (c.lanes_per_wave != 32 && c.lanes_per_wave != 64)
          r.fail(nodes.mark_of("lanes_per_wave"), join_path(nodes.path, "lanes_per_wave"),
                 fmt::format("must be 32 or 64 (got {})", c.lanes_per_wave));
      }};
  return section;
}

const Section<BvhConfig>& bvh_section() {
  static const Section<BvhConfig> section{{
      word("blas_builder", &BvhConfig::blas_builder, builder_words(),
          "the builder of each BLAS (and of a one-level BVH)"),
      word("tlas_builder", &BvhConfig::tlas_builder, builder_words(), "the builder of the TLAS"),
      whole("ploc_radius", &BvhConfig::ploc_radius, {1, 64}, "PLOC's nearest-neighbour search radius"),
      word("tapu", &BvhConfig::tapu, tapu_words(),
          "which instances the TLAS pulls up (TAPU): none, those the scene flags, or every one by 4 or 16"),
      word("quality", &BvhConfig::quality, quality_words(),
          "the SAH builder's quality: normal, or high (spatial splits)"),
      word("fp16", &BvhConfig::fp16, fp16_words(), "which box nodes are FP16 (the TLAS is FP32 whatever this says)"),
      number("fp16_threshold", &BvhConfig::fp16_threshold, {-1, 1000},
          "mixed: the largest surface-area growth an FP16 box node may add"),
      word("pack", &BvhConfig::pack, pack_words(),
          "triangles per triangle node: single, pairs (quads) or strips (up to four)"),
      whole("max_leaf_size", &BvhConfig::max_leaf_size, {1, 4}, "triangles per leaf (the SAH builder)"),
      number("split_budget", &BvhConfig::split_budget, {0, 4},
          "extra references per triangle that spatial splits may add"),
  }, {}};
  return section;
}

// Each cache must be able to take the largest request its requester makes:
// all the MSHRs that request's missing lines need at once, and that many
// lines. (A request that can never be accepted would stall the model for
// ever, so it is a configuration error, named here, not a run-time one.)
struct LineDemand {
  const char* path;                 // "l0", "l1", "l2.slice"
  const CacheConfig* cache;
  uint32_t lines;                   // lines the largest request spans
  std::string why;
};

std::vector<LineDemand> line_demands(const Config& c) {
  const auto lines_of = [](uint32_t bytes, uint32_t line) { return std::max(1u, bytes / line); };
  // A 128-byte FP32 box node starts on any 64-byte boundary: it can span
  // two lines of any size, or 128 / line lines when lines are smaller.
  const uint32_t node_lines = std::max(2u, 128 / c.l0.line_bytes);
  const uint32_t l1_lines = lines_of(c.l0.line_bytes, c.l1.line_bytes);
  // L2 slices interleave by line: one L1 line's L2 lines spread over them.
  const uint32_t l2_lines = (lines_of(c.l1.line_bytes, c.l2.slice.line_bytes) + c.l2.slices - 1) / c.l2.slices;
  return {
      {"l0", &c.l0, node_lines,
       fmt::format("a 128-byte FP32 box node can span {} lines of {} B", node_lines, c.l0.line_bytes)},
      {"l1", &c.l1, l1_lines,
       fmt::format("an L0 fill of {} B spans {} lines of {} B", c.l0.line_bytes, l1_lines, c.l1.line_bytes)},
      {"l2.slice", &c.l2.slice, l2_lines,
       fmt::format("an L1 fill of {} B needs {} lines of {} B in one slice", c.l1.line_bytes, l2_lines,
                   c.l2.slice.line_bytes)},
  };
}

YAML::Mark nested_mark(const SectionNodes& nodes, const std::string& path, const char* key) {
  const size_t dot = path.find('.');
  YAML::Node node = nodes.values[0].node;
  for (size_t i = 0; i < nodes.keys.size(); ++i)
    if (path.substr(0, dot) == nodes.keys[i]) node = nodes.values[i].node;
  if (dot != std::string::npos) node = node[path.substr(dot + 1)];
  return node[key] ? node[key].Mark() : node.Mark();
}

void check_line_demands(const ConfigReader& r, const SectionNodes& nodes, const Config& c) {
  for (const LineDemand& d : line_demands(c)) {
    if (d.cache->mshrs < d.lines)
      r.fail(nested_mark(nodes, d.path, "mshrs"), std::string(d.path) + ".mshrs",
             fmt::format("must be >= {}: {} (got {})", d.lines, d.why, d.cache->mshrs));
    const uint64_t cache_lines = uint64_t{d.cache->size_kib} * 1024 / d.cache->line_bytes;
    if (cache_lines < d.lines)
      r.fail(nested_mark(nodes, d.path, "size_kib"), std::string(d.path) + ".size_kib",
             fmt::format("must hold at least {} lines: {} (holds {})", d.lines, d.why, cache_lines));
  }
}

// A chip the model could not hold in memory is refused here, at the key with
// the largest share of the estimate (model_memory.h), not by std::bad_alloc
// part-way through building it.
void check_model_memory(const ConfigReader& r, const SectionNodes& nodes, const Config& c) {
  const MemoryEstimate estimate = estimate_model_memory(c);
  if (estimate.bytes <= kMaxModelMemoryBytes) return;
  const MemoryShare& largest = estimate.largest();
  const size_t dot = largest.key.rfind('.');
  const std::string section = largest.key.substr(0, dot), key = largest.key.substr(dot + 1);
  r.fail(nested_mark(nodes, section, key.c_str()), largest.key,
         fmt::format("the timing model would need about {} of memory, more than the {} tdsim allows; the largest "
                     "share, {}, is {}",
                     memory_text(estimate.bytes), memory_text(kMaxModelMemoryBytes),
                     memory_text(largest.bytes), largest.what));
}

void check_whole_config(const ConfigReader& r, const SectionNodes& nodes, const Config& c) {
  check_line_demands(r, nodes, c);
  check_model_memory(r, nodes, c);
}

const Section<Config>& config_section() {
  static const Section<Config> section{{
      group("chip", &Config::chip, chip_section()),
      group("td", &Config::td, td_section()),
      group("l0", &Config::l0, cache_section()),
      group("l1", &Config::l1, cache_section()),
      group("l2", &Config::l2, l2_section()),
      group("dram", &Config::dram, dram_section()),
      group("shader", &Config::shader, shader_section()),
      group("bvh", &Config::bvh, bvh_section()),
  }, check_whole_config};
  return section;
}

std::string top_level_keys() {
  std::vector<std::string> keys;
  for (const Field<Config>& f : config_section().fields) keys.emplace_back(f.key);
  return fmt::format("{}", fmt::join(keys, ", "));
}

// Where each document of a YAML stream starts; nothing else is kept.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// The text must hold exactly one YAML document. yaml-cpp 0.7's LoadAll
// loops forever, allocating, on a token no grammar rule consumes at the top
// level (a stray ',': jbeder/yaml-cpp#1040, fixed upstream by #1319 after
// 0.8), and Load silently ignores whatever follows the first document. So
// the documents are counted here, in a bounded loop: a document that starts
// where the previous one did means the parser is stuck on that token.
void check_one_document(const ConfigReader& reader, const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts documents;
  for (int i = 0; i < 3 && parser.HandleNextDocument(documents); ++i) {
  }
  const std::vector<YAML::Mark>& starts = documents.starts;
  if (starts.empty()) {
    reader.fail("", fmt::format("the file holds no YAML document (expected a mapping with keys {})", top_level_keys()));
  }
  for (size_t i = 1; i < starts.size(); ++i) {
    if (starts[i].pos == starts[i - 1].pos) {
      const auto pos = static_cast<size_t>(starts[i].pos);
      reader.fail(starts[i], "",
                  pos < text.size() ? fmt::format("unexpected {}", quote(text.substr(pos, 1))) : "unexpected token");
    }
  }
  if (starts.size() > 1) reader.fail(starts[1], "", "a second YAML document starts here (expected exactly one)");
}

// Gives each overridden key its --set value (a YAML scalar). Nodes are
// copied, never assigned, while walking: assigning a yaml-cpp node replaces
// what it refers to.
void apply_overrides(const ConfigReader& reader, const YAML::Node& root) {
  for (const Override& o : reader.overrides()) {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      const size_t dot = o.key.find('.', start);
      parts.push_back(o.key.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    std::vector<YAML::Node> chain{root};
    std::string path;
    for (const std::string& part : parts) {
      const YAML::Node& parent = chain.back();
      const YAML::Node child = parent.IsMap() ? parent[part] : YAML::Node();
      if (part.empty() || !child) {
        std::vector<std::string> keys;
        if (parent.IsMap())
          for (const auto& entry : parent) keys.push_back(entry.first.as<std::string>());
        throw ConfigError(o.text(), "",
                          fmt::format("{} has no key {} (keys: {})", path.empty() ? reader.file() : path,
                                      quote(part), fmt::join(keys, ", ")));
      }
      chain.push_back(child);
      path = join_path(path, part);
    }
    if (chain.back().IsMap())
      throw ConfigError(o.text(), "", fmt::format("{} is a section: --set gives one key a value", o.key));
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
    } catch (const YAML::Exception&) {
      throw ConfigError(o.text(), "", fmt::format("{} is not a YAML value", quote(o.value)));
    }
    YAML::Node parent = chain[chain.size() - 2];
    parent[parts.back()] = value;
  }
}

Config parse_documents(const ConfigReader& reader, std::string_view yaml_text) {
  if (yaml_text.size() > kMaxFileBytes) {
    reader.fail("", fmt::format("too large for a configuration ({} bytes; at most {})", yaml_text.size(),
                                kMaxFileBytes));
  }
  const std::string text(yaml_text);
  check_one_document(reader, text);
  const YAML::Node root = YAML::Load(text);
  if (!root.IsMap()) {
    reader.fail(root.Mark(), "",
                fmt::format("the top level must be a mapping with keys {} (got {})", top_level_keys(), describe(root)));
  }
  apply_overrides(reader, root);
  Config config;
  config.source = reader.file();
  read_section(reader, Value{root, root.Mark(), root.Mark()}, "", config_section(), config);
  return config;
}

}  // namespace

Override parse_override(const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw ConfigError("--set " + text, "", "expected KEY=VALUE, e.g. --set td.box_latency_cycles=12");
  return Override{text.substr(0, equals), text.substr(equals + 1)};
}

Config parse_config(std::string_view yaml_text, const std::string& source_name,
                    const std::vector<Override>& overrides) {
  const ConfigReader reader(source_name, overrides);
  try {
    return parse_documents(reader, yaml_text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard (its message says only "bad file").
    reader.fail(e.mark, "", fmt::format("nested deeper than the YAML parser allows ({} levels)", e.depth()));
  } catch (const YAML::Exception& e) {
    // Syntax errors (ParserException) and, defensively, any representation
    // error from a node access: no yaml-cpp exception leaves this function.
    reader.fail(e.mark, "", e.msg.empty() ? std::string("invalid YAML") : e.msg);
  }
}

Config load_config(const std::string& path, const std::vector<Override>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw ConfigError(path, "", "cannot open");
  std::string text;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;  // parse_config reports the size
  }
  if (in.bad()) throw ConfigError(path, "", "cannot open");
  return parse_config(text, path, overrides);
}

const std::vector<KeyInfo>& keys() {
  static const std::vector<KeyInfo> list = [] {
    std::vector<KeyInfo> out;
    for (const Field<Config>& f : config_section().fields) f.describe("", out);
    return out;
  }();
  return list;
}

const std::vector<std::string>& datapath_words() {
  static const std::vector<std::string> words = {"cpp", "rtl"};
  return words;
}
const std::vector<std::string>& overflow_words() {
  static const std::vector<std::string> words = {"parent_pointers", "restart"};
  return words;
}
const std::vector<std::string>& builder_words() {
  static const std::vector<std::string> words = {"sah", "lbvh", "ploc"};
  return words;
}
const std::vector<std::string>& tapu_words() {
  static const std::vector<std::string> words = {"off", "scene", "4", "16"};
  return words;
}
const std::vector<std::string>& quality_words() {
  static const std::vector<std::string> words = {"normal", "high"};
  return words;
}
const std::vector<std::string>& fp16_words() {
  static const std::vector<std::string> words = {"none", "leaf", "mixed", "all"};
  return words;
}
const std::vector<std::string>& pack_words() {
  static const std::vector<std::string> words = {"single", "pairs", "strips"};
  return words;
}

Config with_datapath(Config config, const std::string& datapath) {
  const std::vector<std::string>& names = datapath_words();
  if (std::find(names.begin(), names.end(), datapath) == names.end())
    throw ConfigError(config.source, "td.datapath",
                      fmt::format("must be one of {} (got {})", fmt::join(names, ", "), quote(datapath)));
  config.td.datapath = datapath;
  if (const DatapathMismatch m = datapath_mismatch(config.td); m.key)
    throw ConfigError(config.source, join_path("td", m.key), m.message);
  return config;
}

std::string to_yaml(const Config& config) {
  std::string out;
  write_section(out, 0, config_section(), config);
  return out;
}

Occupancy shader_occupancy(const ShaderConfig& shader) {
  constexpr uint32_t kMaxWavesPerSimd = 20;
  constexpr uint32_t kLdsBytesPerCu = 64 * 1024;
  const bool wave32 = shader.lanes_per_wave == 32;
  const uint32_t granule = wave32 ? 16 : 8, registers = wave32 ? 1024 : 512;
  const uint32_t allocated = (std::max(1u, shader.vgprs) + granule - 1) / granule * granule;
  Occupancy o;
  o.by_vgprs = std::min(kMaxWavesPerSimd, registers / allocated);
  const uint32_t stack_bytes_per_wave = shader.stack_entries * 4 * shader.lanes_per_wave;
  o.by_lds = stack_bytes_per_wave == 0 || shader.simds_per_td == 0
                 ? kMaxWavesPerSimd
                 : kLdsBytesPerCu / stack_bytes_per_wave / shader.simds_per_td;
  o.overridden = shader.waves_per_simd != 0;
  o.waves_per_simd = o.overridden ? shader.waves_per_simd : std::max(1u, std::min(o.by_vgprs, o.by_lds));
  return o;
}

}  // namespace td::cfg

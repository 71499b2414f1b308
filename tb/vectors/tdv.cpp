#include "tb/vectors/tdv.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unordered_set>

#include "model/sim/interrupt.h"


namespace td::tb {

namespace {

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

uint32_t hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<uint32_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint32_t>(c - 'a' + 10);
  return static_cast<uint32_t>(c - 'A' + 10);
}

// 1..max_digits hex digits, nothing else.
std::optional<uint64_t> parse_hex(std::string_view text, size_t max_digits) {
  if (text.empty() || text.size() > max_digits) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (!is_hex_digit(c)) return std::nullopt;
    value = value << 4 | hex_value(c);
  }
  return value;
}

std::optional<uint32_t> parse_dword(std::string_view text) {
  if (text.size() != 8) return std::nullopt;
  const auto value = parse_hex(text, 8);
  if (!value) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// `count` comma-separated 8-digit dwords.
std::optional<std::vector<uint32_t>> parse_dwords(std::string_view text, size_t count) {
  const auto parts = split(text, ',');
  if (parts.size() != count) return std::nullopt;
  std::vector<uint32_t> words;
  for (std::string_view part : parts) {
    const auto word = parse_dword(part);
    if (!word) return std::nullopt;
    words.push_back(*word);
  }
  return words;
}

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

// Printable excerpt of a user-supplied value for an error message.
std::string excerpt(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > 40) out += "...";
  return out;
}

class LineParser {
 public:
  explicit LineParser(std::string_view line) : line_(line) {}

  // Returns an error message, or empty with `out` filled.
  std::string parse(TdvCase& out) {
    std::string error = collect_fields();
    if (!error.empty()) return error;
    for (const char* key : {"name", "desc", "op", "ptr", "ray", "expect"})
      if (!has(key)) return fmt::format("missing required key '{}'", key);
    if (!valid_name(value("name"))) return fmt::format("name: expected [A-Za-z0-9_.:-]+, got '{}'", excerpt(value("name")));
    out.name = std::string(value("name"));

    const auto desc = parse_dwords(value("desc"), 4);
    if (!desc) return fmt::format("desc: expected four 8-digit hex dwords d0,d1,d2,d3, got '{}'", excerpt(value("desc")));
    for (int i = 0; i < 4; ++i) out.desc[i] = (*desc)[i];

    if (value("op") == "bvh")
      out.lane.op = Opcode::kBvh;
    else if (value("op") == "bvh64")
      out.lane.op = Opcode::kBvh64;
    else
      return fmt::format("op: expected 'bvh' or 'bvh64', got '{}'", excerpt(value("op")));

    const size_t ptr_digits = out.lane.op == Opcode::kBvh ? 8 : 16;
    const auto ptr = parse_hex(value("ptr"), ptr_digits);
    if (!ptr) return fmt::format("ptr: expected 1 to {} hex digits for op={}, got '{}'", ptr_digits, value("op"), excerpt(value("ptr")));
    out.lane.node_ptr = *ptr;

    if (!parse_flag("a16", out.lane.a16, error)) return error;
    if (!parse_flag("exec", out.lane.exec, error)) return error;

    const size_t ray_count = out.lane.a16 ? LaneInput::kRayDwordsA16 : LaneInput::kRayDwordsF32;
    const auto ray = parse_dwords(value("ray"), ray_count);
    if (!ray)
      return fmt::format("ray: expected {} comma-separated 8-digit hex dwords (a16={}), got '{}'", ray_count,
                         out.lane.a16 ? 1 : 0, excerpt(value("ray")));
    for (size_t i = 0; i < ray_count; ++i) out.lane.ray_dwords[i] = (*ray)[i];

    if (has("mem")) {
      error = parse_mem(value("mem"), out.mem);
      if (!error.empty()) return error;
    }

    if (value("expect") == "none") {
      out.expect.reset();
    } else {
      const auto expect = parse_dwords(value("expect"), 4);
      if (!expect) return fmt::format("expect: expected four 8-digit hex dwords or 'none', got '{}'", excerpt(value("expect")));
      out.expect = std::array<uint32_t, 4>{(*expect)[0], (*expect)[1], (*expect)[2], (*expect)[3]};
    }
    return {};
  }

 private:
  static constexpr const char* kKeys[] = {"name", "desc", "op", "ptr", "a16", "ray", "exec", "mem", "expect"};
  static constexpr size_t kKeyCount = sizeof(kKeys) / sizeof(kKeys[0]);

  static int key_index(std::string_view key) {
    for (size_t i = 0; i < kKeyCount; ++i)
      if (key == kKeys[i]) return static_cast<int>(i);
    return -1;
  }

  std::string collect_fields() {
    for (std::string_view field : fields_of(line_)) {
      const size_t equals = field.find('=');
      if (equals == std::string_view::npos) return fmt::format("expected key=value, got '{}'", excerpt(field));
      const std::string_view key = field.substr(0, equals);
      const int index = key_index(key);
      if (index < 0) return fmt::format("unknown key '{}'", excerpt(key));
      if (present_[index]) return fmt::format("duplicate key '{}'", key);
      present_[index] = true;
      values_[index] = field.substr(equals + 1);
    }
    return {};
  }

  bool has(std::string_view key) const { return present_[key_index(key)]; }
  std::string_view value(std::string_view key) const { return values_[key_index(key)]; }

  bool parse_flag(const char* key, bool& flag, std::string& error) const {
    if (!has(key)) return true;  // defaults already in place (a16=0, exec=1)
    if (value(key) == "0" || value(key) == "1") {
      flag = value(key) == "1";
      return true;
    }
    error = fmt::format("{}: expected 0 or 1, got '{}'", key, excerpt(value(key)));
    return false;
  }

  static std::string parse_mem(std::string_view hex, std::vector<uint8_t>& mem) {
    if (hex.size() != 128 && hex.size() != 256)
      return fmt::format("mem: expected 64 or 128 bytes (128 or 256 hex digits), got {} digits", hex.size());
    mem.resize(hex.size() / 2);
    for (size_t i = 0; i < mem.size(); ++i) {
      const char high = hex[2 * i], low = hex[2 * i + 1];
      if (!is_hex_digit(high) || !is_hex_digit(low))
        return fmt::format("mem: non-hex digit at byte {}", i);
      mem[i] = static_cast<uint8_t>(hex_value(high) << 4 | hex_value(low));
    }
    return {};
  }

  std::string_view line_;
  bool present_[kKeyCount] = {};
  std::string_view values_[kKeyCount];
};

}  // namespace

LaneResult TdvCase::expected() const {
  if (!expect) return LaneResult::no_write();
  LaneResult result;
  result.written = true;
  result.dwords = *expect;
  return result;
}

uint64_t TdvCase::mem_address() const {
  const Descriptor descriptor = Descriptor::unpack(desc);
  return descriptor.base_address() + lane.pointer().unit() * kNodeUnitBytes;
}

MemoryImage TdvCase::memory() const {
  MemoryImage image(MemoryImage::kMinPageBits);  // one node: no 64 KiB page to zero
  if (!mem.empty()) image.write(mem_address(), mem.data(), mem.size());
  return image;
}

std::string TdvError::to_string() const {
  if (line <= 0) return fmt::format("{}: {}", file, message);
  return fmt::format("{}:{}: {}", file, line, message);
}

TdvLineParser::Outcome TdvLineParser::feed(std::string_view raw_line, int line_number, TdvCase& out,
                                            std::string& error) {
  constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";
  if (line_number == 1 && raw_line.substr(0, 3) == kByteOrderMark) raw_line.remove_prefix(3);
  if (bad_header_) return Outcome::kNothing;
  const std::string_view line = trim(raw_line);
  if (line.empty() || line.front() == '#') return Outcome::kNothing;
  if (!seen_header_) {
    if (line != "tdv 1") {
      bad_header_ = true;  // not a tdv v1 file: reading on would only add noise
      error = fmt::format("expected header 'tdv 1', got '{}'", excerpt(line));
      return Outcome::kError;
    }
    seen_header_ = true;
    return Outcome::kNothing;
  }
  out = TdvCase{};
  out.line = line_number;
  error = LineParser(line).parse(out);
  return error.empty() ? Outcome::kCase : Outcome::kError;
}

std::string TdvLineParser::finish() const {
  return seen_header_ || bad_header_ ? std::string() : "no 'tdv 1' header: empty or comment-only file";
}

TdvParse parse_tdv(std::string_view text, const std::string& path, size_t max_errors) {
  TdvParse result;
  result.file.path = path;
  const auto add_error = [&](int line, std::string message) {
    if (result.errors.size() < max_errors) result.errors.push_back({path, line, std::move(message)});
  };
  std::unordered_set<std::string> names;
  TdvLineParser parser;
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {  // as std::getline: no empty last line after a final newline
    const size_t end = text.find('\n', start);
    const std::string_view raw =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? text.size() + 1 : end + 1;
    ++line_number;
    TdvCase tdv_case;
    std::string error;
    switch (parser.feed(raw, line_number, tdv_case, error)) {
      case TdvLineParser::Outcome::kNothing: break;
      case TdvLineParser::Outcome::kError: add_error(line_number, std::move(error)); break;
      case TdvLineParser::Outcome::kCase:
        if (!names.insert(tdv_case.name).second)
          add_error(line_number, fmt::format("duplicate case name '{}'", tdv_case.name));
        else
          result.file.cases.push_back(std::move(tdv_case));
        break;
    }
  }
  if (const std::string error = parser.finish(); !error.empty()) add_error(line_number, error);
  return result;
}

namespace {

// FNV-1a: a stable 64-bit hash of a case name for the duplicate check.
uint64_t name_hash(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : name) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return hash;
}

// Opens `path` for line reading, or says why not.
std::string open_for_reading(const std::string& path, std::ifstream& in) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return "is a directory, not a .tdv file";
  in.open(path, std::ios::binary);
  if (!in) return fmt::format("cannot open ({})", std::strerror(errno));
  return {};
}

// Calls visit(line_number, outcome, case, error) for every line of the file;
// returns an error about the file as a whole (unreadable), or empty.
template <typename Visit>
std::string for_each_line(const std::string& path, Visit&& visit) {
  std::ifstream in;
  if (std::string error = open_for_reading(path, in); !error.empty()) return error;
  TdvLineParser parser;
  std::string line;
  TdvCase tdv_case;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if ((line_number & 0xfff) == 0) sim::throw_if_interrupted();
    std::string error;
    const TdvLineParser::Outcome outcome = parser.feed(line, line_number, tdv_case, error);
    if (outcome != TdvLineParser::Outcome::kNothing) visit(line_number, outcome, tdv_case, error);
  }
  if (in.bad()) return fmt::format("read failed after line {}", line_number);
  if (const std::string error = parser.finish(); !error.empty())
    visit(line_number, TdvLineParser::Outcome::kError, tdv_case, error);
  return {};
}

}  // namespace

TdvValidation validate_tdv_file(const std::string& path, size_t max_errors) {
  TdvValidation result;
  std::vector<TdvError> line_errors;
  std::vector<uint64_t> hashes;
  const std::string file_error =
      for_each_line(path, [&](int line, TdvLineParser::Outcome outcome, const TdvCase& c, const std::string& error) {
        if (outcome == TdvLineParser::Outcome::kError) {
          if (line_errors.size() < max_errors) line_errors.push_back({path, line, error});
          return;
        }
        ++result.case_count;
        hashes.push_back(name_hash(c.name));
      });
  if (!file_error.empty()) {
    result.errors.push_back({path, 0, file_error});
    return result;
  }
  // Names whose hash occurs twice are compared exactly in a second read
  // (rare: only real duplicates or a 64-bit collision get there).
  std::vector<uint64_t>& sorted = hashes;  // sorted in place: the second read hashes names again
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint64_t> repeated;
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] == sorted[i - 1] && (repeated.empty() || repeated.back() != sorted[i])) repeated.push_back(sorted[i]);
  std::vector<TdvError> duplicate_errors;
  if (!repeated.empty()) {
    std::unordered_set<std::string> seen;
    for_each_line(path, [&](int line, TdvLineParser::Outcome outcome, const TdvCase& c, const std::string&) {
      if (outcome != TdvLineParser::Outcome::kCase) return;
      if (!std::binary_search(repeated.begin(), repeated.end(), name_hash(c.name))) return;
      if (!seen.insert(c.name).second && duplicate_errors.size() < max_errors)
        duplicate_errors.push_back({path, line, fmt::format("duplicate case name '{}'", c.name)});
    });
  }
  std::merge(line_errors.begin(), line_errors.end(), duplicate_errors.begin(), duplicate_errors.end(),
             std::back_inserter(result.errors),
             [](const TdvError& a, const TdvError& b) { return a.line < b.line; });
  if (result.errors.size() > max_errors) result.errors.resize(max_errors);
  return result;
}

TdvParse read_tdv_file(const std::string& path, size_t max_errors) {
  TdvParse result;
  result.file.path = path;
  TdvValidation validation = validate_tdv_file(path, max_errors);
  result.errors = std::move(validation.errors);
  if (!result.ok()) return result;
  result.file.cases.reserve(validation.case_count);
  TdvReader reader(path);
  TdvCase tdv_case;
  while (reader.next(tdv_case)) result.file.cases.push_back(std::move(tdv_case));
  return result;
}

TdvReader::TdvReader(const std::string& path) : path_(path) {
  if (const std::string error = open_for_reading(path, in_); !error.empty())
    throw std::runtime_error(fmt::format("{}: {}", path, error));
}

bool TdvReader::next(TdvCase& out) {
  while (std::getline(in_, line_)) {
    ++line_number_;
    std::string error;
    switch (parser_.feed(line_, line_number_, out, error)) {
      case TdvLineParser::Outcome::kNothing: continue;
      case TdvLineParser::Outcome::kCase: return true;
      case TdvLineParser::Outcome::kError:
        throw std::runtime_error(fmt::format("{}:{}: {} (the file changed after it was checked?)", path_,
                                             line_number_, error));
    }
  }
  if (in_.bad()) throw std::runtime_error(fmt::format("{}: read failed after line {}", path_, line_number_));
  return false;
}

std::string format_case(const TdvCase& c) {
  std::string line = fmt::format("name={} desc={:08x},{:08x},{:08x},{:08x} op={} ptr={:x}", c.name, c.desc[0],
                                 c.desc[1], c.desc[2], c.desc[3], c.lane.op == Opcode::kBvh ? "bvh" : "bvh64",
                                 c.lane.op == Opcode::kBvh ? (c.lane.node_ptr & 0xffffffffu) : c.lane.node_ptr);
  if (c.lane.a16) line += " a16=1";
  line += " ray=";
  for (int i = 0; i < c.lane.ray_dword_count(); ++i)
    line += fmt::format("{}{:08x}", i ? "," : "", c.lane.ray_dwords[i]);
  if (!c.lane.exec) line += " exec=0";
  if (!c.mem.empty()) {
    line += " mem=";
    for (uint8_t byte : c.mem) line += fmt::format("{:02x}", byte);
  }
  if (c.expect)
    line += fmt::format(" expect={:08x},{:08x},{:08x},{:08x}", (*c.expect)[0], (*c.expect)[1], (*c.expect)[2],
                        (*c.expect)[3]);
  else
    line += " expect=none";
  return line;
}

std::string format_tdv_header(const std::vector<std::string>& comments) {
  std::string text = "tdv 1\n";
  for (const std::string& comment : comments) text += "# " + comment + "\n";
  return text;
}

std::string format_tdv(const std::vector<TdvCase>& cases, const std::vector<std::string>& comments) {
  std::string text = format_tdv_header(comments);
  for (const TdvCase& c : cases) text += format_case(c) + "\n";
  return text;
}

}  // namespace td::tb

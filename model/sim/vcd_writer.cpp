#include "model/sim/vcd_writer.h"

#include "model/sim/vcd_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace td::sim {

namespace {

// Output is collected in memory and written in chunks this large: one
// write per megabyte, and nothing but appends on the per-change path.
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// The eight binary digits of every byte value, most significant first.
struct ByteDigits {
  char digits[256][8];
  constexpr ByteDigits() : digits() {
    for (int byte = 0; byte < 256; ++byte) {
      for (int bit = 0; bit < 8; ++bit) digits[byte][bit] = static_cast<char>('0' + ((byte >> (7 - bit)) & 1));
    }
  }
};
constexpr ByteDigits kByteDigits{};

// Writes `value` in binary without leading zeros ("0" for zero), a byte at a
// time; returns the number of digits written (at most 64).
std::size_t binary_digits(uint64_t value, char* out) {
  int top_byte = 7;
  while (top_byte > 0 && ((value >> (8 * top_byte)) & 0xff) == 0) --top_byte;
  const auto first = static_cast<unsigned>((value >> (8 * top_byte)) & 0xff);
  std::size_t bits = 1;  // significant digits of the first byte
  while (bits < 8 && (first >> bits) != 0) ++bits;
  std::memcpy(out, kByteDigits.digits[first] + (8 - bits), bits);
  std::size_t n = bits;
  for (int byte = top_byte - 1; byte >= 0; --byte) {
    std::memcpy(out + n, kByteDigits.digits[(value >> (8 * byte)) & 0xff], 8);
    n += 8;
  }
  return n;
}

std::vector<std::string> split_name(const std::string& name) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = name.find('.', begin);
    parts.push_back(name.substr(begin, dot - begin));
    if (dot == std::string::npos) return parts;
    begin = dot + 1;
  }
}

// The declaration tree of $scope blocks: every node lists its signals and
// child scopes in the order they were first declared.
struct ScopeNode {
  std::string name;
  std::vector<std::pair<bool, std::size_t>> items;  // (is_scope, node index or signal id)
};

}  // namespace

VcdWriter::VcdWriter(const std::string& path, uint64_t period_ps, uint64_t start_cycle, uint64_t cycles)
    : path_(path),
      period_ps_(period_ps),
      start_(start_cycle),
      cycles_(cycles) {
  // Checked before the file exists, so a bad argument leaves nothing behind.
  if (period_ps_ == 0) throw std::invalid_argument(fmt::format("{}: VCD clock period must be >= 1 ps", path_));
  if (start_ > UINT64_MAX / period_ps_) {
    throw std::invalid_argument(fmt::format("{}: trace start cycle {} overflows the 64-bit picosecond time", path_,
                                            start_));
  }
  file_ = std::make_unique<OutputFile>(path_);
  buffer_.reserve(kFlushBytes + 4096);
}

// Reached without close() only when a run is unwinding (an error, an
// interrupt): a trace of an unfinished run is not kept.
VcdWriter::~VcdWriter() {
  if (!closed_ && file_) file_->discard();
}

void VcdWriter::check_declarable(const std::string& name, unsigned width) const {
  if (header_written_ || closed_) {
    throw std::logic_error(fmt::format("VCD {}: signal '{}' declared after the first sample", path_, name));
  }
  if (width == 0 || width > 64) {
    throw std::invalid_argument(fmt::format("VCD {}: signal '{}' width must be 1..64 (got {})", path_, name, width));
  }
  // VCD tokens are separated by white space; an empty component has no scope name.
  const bool bad_char = std::any_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) <= ' ' || static_cast<unsigned char>(c) == 0x7f;
  });
  if (name.empty() || bad_char || name.front() == '.' || name.back() == '.' || name.find("..") != std::string::npos) {
    throw std::invalid_argument(fmt::format("VCD {}: bad signal name '{}'", path_, name));
  }
  const auto it = names_.find(name);
  if (it != names_.end()) {
    throw std::logic_error(fmt::format("VCD {}: '{}' declared twice{}", path_, name, it->second ? " (as a scope)" : ""));
  }
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const auto prefix = names_.find(name.substr(0, dot));
    if (prefix != names_.end() && !prefix->second) {
      throw std::logic_error(fmt::format("VCD {}: '{}' is a signal and cannot also be a scope", path_, prefix->first));
    }
  }
}

VcdWriter::SignalId VcdWriter::add(const std::string& hierarchical_name, unsigned width) {
  check_declarable(hierarchical_name, width);
  if (signals_.size() >= UINT32_MAX) throw std::length_error(fmt::format("VCD {}: too many signals", path_));
  for (std::size_t dot = hierarchical_name.find('.'); dot != std::string::npos;
       dot = hierarchical_name.find('.', dot + 1)) {
    names_.emplace(hierarchical_name.substr(0, dot), true);
  }
  names_.emplace(hierarchical_name, false);
  const auto id = static_cast<SignalId>(signals_.size());
  signals_.push_back(Signal{hierarchical_name, width, vcd_identifier_code(id), 0});
  return id;
}

void VcdWriter::set(SignalId signal, uint64_t value, uint64_t cycle) {
  // The common cases (unchanged value, change outside the window) cost a few
  // compares and no output; errors and the first call go out of line.
  if (cycle < last_cycle_ || signal >= signals_.size() || !header_written_) check_first_or_bad(signal, cycle);
  last_cycle_ = cycle;
  Signal& s = signals_[signal];
  if (s.value != value) record(s, value, cycle);
}

// Out of line (and the change path below too) so set()'s fast path needs no stack frame.
[[gnu::cold, gnu::noinline]] void VcdWriter::check_first_or_bad(SignalId signal, uint64_t cycle) {
  if (cycle < last_cycle_) {
    throw std::logic_error(
        fmt::format("VCD {}: sample at cycle {} after cycle {} (cycles must not decrease)", path_, cycle, last_cycle_));
  }
  if (signal >= signals_.size()) throw std::out_of_range(fmt::format("VCD {}: no signal id {}", path_, signal));
  if (closed_) throw std::logic_error(fmt::format("VCD {}: set() after close()", path_));
  sampled_ = true;
  write_header();  // declarations are closed from here on
}

[[gnu::noinline]] void VcdWriter::record(Signal& signal, uint64_t value, uint64_t cycle) {
  if (closed_) throw std::logic_error(fmt::format("VCD {}: set() after close()", path_));
  if (signal.width < 64 && (value >> signal.width) != 0) {
    throw std::invalid_argument(
        fmt::format("VCD {}: value {:#x} does not fit {}-bit signal '{}'", path_, value, signal.width, signal.name));
  }
  if (cycle < start_) {
    signal.value = value;  // before the window: remembered for the $dumpvars
    return;
  }
  if (cycle - start_ >= cycles_) return;  // after the window: nothing more is written
  // Changes at the window's first cycle go into the $dumpvars, written once
  // that cycle is over, so it holds the complete state at the trace's start.
  if (!dumped_initial_) {
    if (cycle == start_) {
      signal.value = value;
      return;
    }
    write_dumpvars();
  }
  advance_to(cycle);
  signal.value = value;
  write_value(signal);
  if (buffer_.size() >= kFlushBytes) flush_buffer();
}

void VcdWriter::write_header() {
  header_written_ = true;
  buffer_ += "$version tdsim $end\n$timescale 1ps $end\n";
  std::vector<ScopeNode> nodes(1);  // nodes[0]: the top level, not itself a scope
  std::unordered_map<std::string, std::size_t> node_of_scope;
  for (std::size_t id = 0; id < signals_.size(); ++id) {
    const std::vector<std::string> parts = split_name(signals_[id].name);
    std::size_t node = 0;
    std::string scope;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      scope += (i ? "." : "") + parts[i];
      const auto [it, created] = node_of_scope.emplace(scope, nodes.size());
      if (created) {
        nodes[node].items.emplace_back(true, nodes.size());
        nodes.push_back(ScopeNode{parts[i], {}});
      }
      node = it->second;
    }
    nodes[node].items.emplace_back(false, id);
  }
  // Depth-first, iteratively: a stack of (node, next item) pairs.
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == nodes[node].items.size()) {
      if (node != 0) buffer_ += "$upscope $end\n";
      stack.pop_back();
      continue;
    }
    const auto [is_scope, index] = nodes[node].items[next++];
    if (is_scope) {
      buffer_ += fmt::format("$scope module {} $end\n", nodes[index].name);
      stack.emplace_back(index, 0);  // invalidates `node` and `next`; they are not used again
      continue;
    }
    const Signal& s = signals_[index];
    const std::string leaf = s.name.substr(s.name.rfind('.') + 1);
    buffer_ += s.width == 1 ? fmt::format("$var wire 1 {} {} $end\n", s.code, leaf)
                            : fmt::format("$var wire {} {} {} [{}:0] $end\n", s.width, s.code, leaf, s.width - 1);
  }
  buffer_ += "$enddefinitions $end\n";
}

void VcdWriter::write_dumpvars() {
  dumped_initial_ = true;
  write_time(start_);
  buffer_ += "$dumpvars\n";
  for (const Signal& s : signals_) write_value(s);
  buffer_ += "$end\n";
}

void VcdWriter::write_value(const Signal& signal) {
  // Built in a local array and appended once: this runs for every change.
  char text[1 + 64 + 1 + 8 + 1];  // 'b', digits, ' ', code (at most 5 chars for 2^32 ids), '\n'
  std::size_t n = 0;
  if (signal.width == 1) {
    text[n++] = static_cast<char>('0' + signal.value);
  } else {
    text[n++] = 'b';
    n += binary_digits(signal.value, text + n);
    text[n++] = ' ';
  }
  signal.code.copy(text + n, signal.code.size());
  n += signal.code.size();
  text[n++] = '\n';
  buffer_.append(text, n);
}

void VcdWriter::write_time(uint64_t cycle) {
  if (cycle > UINT64_MAX / period_ps_) {
    throw std::overflow_error(fmt::format("VCD {}: cycle {} overflows the 64-bit picosecond time", path_, cycle));
  }
  time_cycle_ = cycle;
  buffer_ += '#';
  buffer_ += fmt::format_int(cycle * period_ps_).c_str();
  buffer_ += '\n';
}

void VcdWriter::advance_to(uint64_t cycle) {
  if (cycle != time_cycle_) write_time(cycle);
}

// Ends the trace one cycle after the last sample (or at the window's end), so a
// viewer shows the last cycle's values for a full period.
void VcdWriter::write_final_time() {
  if (!sampled_ || last_cycle_ < start_) return;
  const uint64_t window_end = cycles_ > UINT64_MAX - start_ ? UINT64_MAX : start_ + cycles_;
  const uint64_t end = last_cycle_ < window_end ? last_cycle_ + 1 : window_end;
  if (end > time_cycle_ && end <= UINT64_MAX / period_ps_) write_time(end);
}

void VcdWriter::flush_buffer() {
  file_->write(buffer_);
  buffer_.clear();
}

void VcdWriter::close() {
  if (closed_) return;
  closed_ = true;
  bool written = true;
  try {
    if (!header_written_) write_header();
    if (!dumped_initial_) write_dumpvars();
    write_final_time();
    flush_buffer();
  } catch (const std::exception&) {
    written = false;
  }
  if (!written) {
    file_->discard();
    throw std::runtime_error(fmt::format("{}: write failed, trace not saved", file_->temp_path()));
  }
  file_->commit();
  // The companions' files join this one (which is whole meanwhile: a failed
  // merge leaves the model's own trace, and says so).
  for (const auto& companion : companions_) {
    const std::string extra = companion.second->finish();
    merge_vcd(path_, extra, path_);
  }
  companions_.clear();
}

VcdCompanion& VcdWriter::companion(const std::string& kind,
                                   const std::function<std::unique_ptr<VcdCompanion>()>& make) {
  for (const auto& c : companions_)
    if (c.first == kind) return *c.second;
  if (header_written_ || closed_)
    throw std::logic_error(fmt::format("VCD {}: companion '{}' added after the first sample", path_, kind));
  companions_.emplace_back(kind, make());
  return *companions_.back().second;
}

void VcdWriter::sample_companions(uint64_t cycle) {
  if (!in_window(cycle)) return;
  for (const auto& c : companions_) c.second->sample(cycle);
}

}  // namespace td::sim

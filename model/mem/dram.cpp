#include "model/mem/dram.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/sim/debug.h"
#include "model/sim/int_math.h"

namespace td::mem {
namespace {

// Checked before any stat is registered, so a rejected timing leaves the
// registry untouched.
const DramTiming& validated(const DramTiming& t) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("dram timing: " + what); };
  if (t.channels < 1) fail(fmt::format("channels must be >= 1 (got {})", t.channels));
  if (t.interleave_bytes < 16 || (t.interleave_bytes & (t.interleave_bytes - 1)) != 0)
    fail(fmt::format("interleave_bytes must be a power of two >= 16 (got {})", t.interleave_bytes));
  if (!(t.bytes_per_clock_per_channel > 0) || !std::isfinite(t.bytes_per_clock_per_channel))
    fail(fmt::format("bytes_per_clock_per_channel must be finite and > 0 (got {})", t.bytes_per_clock_per_channel));
  return t;
}

// The first whole cycle at or after `t`. A value within a relative 1e-12 of
// a whole number is that number: an end time that is mathematically whole
// (e.g. 500 bytes at 12.8 B/clk) must not become one cycle later because
// 12.8 has no exact binary form. Genuine fractions are far larger than that.
uint64_t ceil_cycle(double t) {
  const double nearest = std::round(t);
  if (std::fabs(t - nearest) <= 1e-12 * std::max(1.0, t)) return static_cast<uint64_t>(nearest);
  return static_cast<uint64_t>(std::ceil(t));
}

}  // namespace

Dram::Dram(const DramTiming& timing, const sim::StatGroup& stats)
    : timing_(validated(timing)),
      interleave_shift_(sim::log2_ceil(timing.interleave_bytes)),
      channels_(timing.channels),
      requests_(stats.counter("requests", "requests", "requests served")),
      bytes_(stats.counter("bytes", "bytes", "bytes transferred")),
      name_(stats.prefix()) {}

MemResponse Dram::access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient*, uint64_t, Traffic) {
  const MemResponse response = serve(address, bytes, cycle);
  TD_DEBUG(kMem, cycle, name_, "{} B at {:#x}: ready at {}", bytes, address, response.cycle);
  return response;
}

MemResponse Dram::serve(uint64_t address, uint32_t bytes, uint64_t cycle) {
  ++requests_;
  bytes_.add(bytes);
  if (bytes == 0) return MemResponse{true, cycle, false};
  const double bytes_per_clock = timing_.bytes_per_clock_per_channel;
  const uint64_t end = address + bytes;
  uint64_t ready = 0;
  // One chunk per interleave block the request overlaps, each on its channel.
  for (uint64_t chunk_start = address; chunk_start < end;) {
    const uint64_t block = chunk_start >> interleave_shift_;
    const uint64_t chunk_end = std::min(end, (block + 1) << interleave_shift_);
    Channel& channel = channels_[block % channels_.size()];
    const double free = static_cast<double>(channel.origin) + static_cast<double>(channel.bytes) / bytes_per_clock;
    if (static_cast<double>(cycle) >= free) {  // idle: a new busy period starts now
      channel.origin = cycle;
      channel.bytes = 0;
    }
    channel.bytes += chunk_end - chunk_start;
    const double done = static_cast<double>(channel.origin) + static_cast<double>(channel.bytes) / bytes_per_clock;
    ready = std::max(ready, ceil_cycle(done) + timing_.latency_cycles);
    chunk_start = chunk_end;
  }
  return MemResponse{true, ready, false};
}

void Dram::invalidate() { std::fill(channels_.begin(), channels_.end(), Channel{}); }

std::string Dram::describe(uint64_t cycle) const {
  uint32_t busy = 0;
  uint64_t last = 0;
  for (const Channel& channel : channels_) {
    const uint64_t free = ceil_cycle(static_cast<double>(channel.origin) +
                                     static_cast<double>(channel.bytes) / timing_.bytes_per_clock_per_channel);
    if (free <= cycle) continue;
    ++busy;
    last = std::max(last, free);
  }
  if (busy == 0) return fmt::format("{}: no transfer queued ({} channels idle)", name_, channels_.size());
  return fmt::format("{}: {} of {} channels busy, transfers queued until cycle {} (+{} cycles latency)", name_, busy,
                     channels_.size(), last, timing_.latency_cycles);
}

}  // namespace td::mem

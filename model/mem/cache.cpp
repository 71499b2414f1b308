#include "model/mem/cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "model/sim/debug.h"
#include "model/sim/int_math.h"

namespace td::mem {
namespace {

// Checked before any stat is registered, so a rejected geometry leaves the
// registry untouched.
const CacheGeometry& validated(const CacheGeometry& g) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("cache geometry: " + what); };
  if (g.line_bytes < 16 || !sim::is_power_of_two(g.line_bytes))
    fail(fmt::format("line_bytes must be a power of two >= 16 (got {})", g.line_bytes));
  if (g.ways < 1) fail(fmt::format("ways must be >= 1 (got {})", g.ways));
  if (g.mshrs < 1) fail(fmt::format("mshrs must be >= 1 (got {})", g.mshrs));
  if (g.bytes_per_clock < 1) fail(fmt::format("bytes_per_clock must be >= 1 (got {})", g.bytes_per_clock));
  const uint64_t set_bytes = uint64_t{g.ways} * g.line_bytes;
  if (g.size_bytes % set_bytes != 0)
    fail(fmt::format("size_bytes ({}) must be a multiple of ways * line_bytes ({} * {} = {})", g.size_bytes, g.ways,
                     g.line_bytes, set_bytes));
  const uint64_t sets = g.size_bytes / set_bytes;
  if (!sim::is_power_of_two(sets) || sets > UINT32_MAX)
    fail(fmt::format("sets = size_bytes / (ways * line_bytes) = {} / {} = {} must be a power of two >= 1",
                     g.size_bytes, set_bytes, sets));
  return g;
}

}  // namespace

Cache::Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats)
    : Cache(geometry, next, stats, 1) {}

Cache::Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, uint32_t interleave)
    : geometry_(validated(geometry)),
      next_(next),
      sets_(static_cast<uint32_t>(geometry.size_bytes / (uint64_t{geometry.ways} * geometry.line_bytes))),
      line_shift_(sim::log2_ceil(geometry.line_bytes)),
      set_mask_(sets_ - 1),
      interleave_(interleave),
      interleave_shift_(sim::is_power_of_two(interleave) ? static_cast<int>(sim::log2_ceil(interleave)) : -1),
      capacity_lines_(uint64_t{sets_} * geometry.ways),
      lines_(capacity_lines_),
      mshr_release_(geometry.mshrs, 0),
      hits_(stats.counter("hits", "accesses", "line accesses that found their data present")),
      misses_(stats.counter("misses", "accesses", "line accesses that missed (including merged)")),
      merged_(stats.counter("merged", "accesses", "misses merged into a fill already in flight")),
      mshr_full_(stats.counter("mshr_full", "requests", "requests rejected because all MSHRs were busy")),
      bytes_(stats.counter("bytes", "bytes", "bytes delivered to requesters")),
      evictions_(stats.counter("evictions", "lines", "valid lines replaced by a miss")),
      port_busy_(stats.counter("port_busy_cycles", "cycles", "clocks the port spent moving data to requesters")),
      name_(stats.prefix()) {}

Cache::Line* Cache::find(uint64_t line) {
  return const_cast<Line*>(static_cast<const Cache*>(this)->find(line));
}

const Cache::Line* Cache::find(uint64_t line) const {
  const Line* way = &lines_[set_of(line) * geometry_.ways];
  for (uint32_t w = 0; w < geometry_.ways; ++w, ++way) {
    if (way->valid && way->tag == line) return way;
  }
  return nullptr;
}

Cache::Line& Cache::victim(uint64_t line) {
  Line* way = &lines_[set_of(line) * geometry_.ways];
  Line* lru = way;
  for (uint32_t w = 0; w < geometry_.ways; ++w, ++way) {
    if (!way->valid) return *way;
    if (way->last_use < lru->last_use) lru = way;
  }
  return *lru;
}

uint64_t Cache::fetch(uint64_t line, uint64_t cycle) {
  const uint64_t address = line << line_shift_;
  MemResponse r = next_.access(address, geometry_.line_bytes, cycle);
  while (!r.accepted) {
    // Levels below never reject forever; never retry at the same cycle.
    cycle = std::max(r.cycle, cycle + 1);
    r = next_.access(address, geometry_.line_bytes, cycle);
  }
  return r.cycle;
}

MemResponse Cache::check(uint64_t first_line, uint64_t count, uint64_t step, uint64_t cycle) const {
  const uint64_t start = std::max(cycle, port_free_cycle_);
  if (count > capacity_lines_) {
    throw std::invalid_argument(fmt::format("cache: a request of {} lines exceeds the cache's {} lines", count,
                                            capacity_lines_));
  }
  uint64_t needed = 0;
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (find(line) == nullptr) ++needed;
  }
  if (needed == 0) return MemResponse{true, start, false};
  if (needed > mshr_release_.size()) {
    throw std::invalid_argument(fmt::format("cache: a request missing {} lines can never get that many MSHRs (has {})",
                                            needed, mshr_release_.size()));
  }
  uint64_t free = 0;
  for (uint64_t release : mshr_release_) free += release <= start;
  if (free >= needed) return MemResponse{true, start, false};
  // Rejected: the earliest cycle by which `needed - free` more MSHRs release.
  uint64_t remaining = needed - free;
  uint64_t after = start;
  for (;;) {
    uint64_t next_release = UINT64_MAX;
    for (uint64_t release : mshr_release_) {
      if (release > after) next_release = std::min(next_release, release);
    }
    const auto at_once = static_cast<uint64_t>(std::count(mshr_release_.begin(), mshr_release_.end(), next_release));
    if (at_once >= remaining) return MemResponse{false, next_release, false};
    remaining -= at_once;
    after = next_release;
  }
}

MemResponse Cache::commit(uint64_t first_line, uint64_t count, uint64_t step, uint64_t bytes, uint64_t cycle) {
  const uint64_t start = reserve_port(bytes, cycle);
  const uint64_t hit_latency = geometry_.hit_latency_cycles;
  MemResponse result{true, port_free_cycle_, true};  // not before the transfer

  // Present lines first, so that a miss of this request evicting an LRU way
  // never evicts a line this request has yet to find present (check() counted
  // it as present).
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (Line* present = find(line)) serve_present(*present, start, result);
  }
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (find(line) != nullptr) continue;
    ++misses_;
    result.hit = false;
    Line& way = victim(line);
    if (way.valid) ++evictions_;
    const uint64_t fill = fetch(line, start + hit_latency);
    // check() guaranteed a free MSHR for every missing line.
    *std::find_if(mshr_release_.begin(), mshr_release_.end(), [start](uint64_t r) { return r <= start; }) = fill;
    way.tag = line;
    way.valid = true;
    way.fill_cycle = fill;
    way.last_use = ++use_stamp_;
    result.cycle = std::max(result.cycle, fill);
  }
  bytes_.add(bytes);
  return result;
}

uint64_t Cache::reserve_port(uint64_t bytes, uint64_t cycle) {
  const uint64_t start = std::max(cycle, port_free_cycle_);
  const uint64_t occupancy = (bytes + geometry_.bytes_per_clock - 1) / geometry_.bytes_per_clock;
  port_free_cycle_ = start + occupancy;
  port_busy_.add(occupancy);
  return start;
}

void Cache::serve_present(Line& line, uint64_t start, MemResponse& result) {
  line.last_use = ++use_stamp_;
  if (line.fill_cycle <= start) {
    ++hits_;
    result.cycle = std::max(result.cycle, start + geometry_.hit_latency_cycles);
  } else {  // fill in flight: merge into its MSHR
    ++misses_;
    ++merged_;
    result.hit = false;
    result.cycle = std::max(result.cycle, line.fill_cycle);
  }
}

MemResponse Cache::access(uint64_t address, uint32_t bytes, uint64_t cycle) {
  const MemResponse response = serve(address, bytes, cycle);
  TD_DEBUG(kMem, cycle, name_, "{} B at {:#x}: {}", bytes, address,
           !response.accepted ? fmt::format("refused, retry at {}", response.cycle)
                              : fmt::format("{}, ready at {}", response.hit ? "hit" : "miss", response.cycle));
  return response;
}

MemResponse Cache::serve(uint64_t address, uint32_t bytes, uint64_t cycle) {
  if (bytes == 0) return MemResponse{true, cycle, true};
  const uint64_t first_line = address >> line_shift_;
  const uint64_t count = ((address + bytes - 1) >> line_shift_) - first_line + 1;

  // Fast path, the common case: every line present (hit or merge), so no
  // MSHR is needed and nothing can reject; one lookup per line.
  constexpr uint64_t kFastLines = 4;
  if (count <= kFastLines) {
    Line* found[kFastLines] = {};
    bool all_present = true;
    for (uint64_t k = 0; k < count && all_present; ++k) {
      found[k] = find(first_line + k);
      all_present = found[k] != nullptr;
    }
    if (all_present) {
      const uint64_t start = reserve_port(bytes, cycle);
      MemResponse result{true, port_free_cycle_, true};  // not before the transfer
      for (uint64_t k = 0; k < count; ++k) serve_present(*found[k], start, result);
      bytes_.add(bytes);
      return result;
    }
  }

  const MemResponse checked = check(first_line, count, 1, cycle);
  if (!checked.accepted) {
    ++mshr_full_;
    return checked;
  }
  return commit(first_line, count, 1, bytes, cycle);
}

void Cache::invalidate() {
  std::fill(lines_.begin(), lines_.end(), Line{});
  std::fill(mshr_release_.begin(), mshr_release_.end(), 0);
  port_free_cycle_ = 0;
  use_stamp_ = 0;
}

uint32_t Cache::mshrs_in_use(uint64_t cycle) const {
  uint32_t in_use = 0;
  for (uint64_t release : mshr_release_) in_use += release > cycle;
  return in_use;
}

// --- SlicedCache ---------------------------------------------------------

namespace {

uint32_t validated_slices(uint32_t slices) {
  if (slices < 1) throw std::invalid_argument(fmt::format("sliced cache: slices must be >= 1 (got {})", slices));
  return slices;
}

}  // namespace

SlicedCache::SlicedCache(uint32_t slices, const CacheGeometry& slice_geometry, MemLevel& next,
                         const sim::StatGroup& stats)
    : line_bytes_(slice_geometry.line_bytes),
      line_shift_(sim::log2_ceil(slice_geometry.line_bytes)),
      name_(stats.prefix()) {
  slices_.reserve(validated_slices(slices));
  for (uint32_t i = 0; i < slices; ++i) {
    // Private constructor: std::make_unique cannot reach it.
    slices_.push_back(std::unique_ptr<Cache>(
        new Cache(slice_geometry, next, stats.child(fmt::format("slice{}", i)), slices)));
  }
}

uint32_t SlicedCache::slice_of(uint64_t address) const {
  return static_cast<uint32_t>((address >> line_shift_) % slices_.size());
}

MemResponse SlicedCache::access(uint64_t address, uint32_t bytes, uint64_t cycle) {
  const MemResponse response = serve(address, bytes, cycle);
  TD_DEBUG(kMem, cycle, name_, "{} B at {:#x} (slice {}): {}", bytes, address, slice_of(address),
           !response.accepted ? fmt::format("refused, retry at {}", response.cycle)
                              : fmt::format("{}, ready at {}", response.hit ? "hit" : "miss", response.cycle));
  return response;
}

MemResponse SlicedCache::serve(uint64_t address, uint32_t bytes, uint64_t cycle) {
  if (bytes == 0) return MemResponse{true, cycle, true};
  const uint64_t n = slices_.size();
  const uint64_t first_line = address >> line_shift_;
  const uint64_t last_line = (address + bytes - 1) >> line_shift_;
  const uint64_t count = last_line - first_line + 1;
  const uint64_t parts = std::min(count, n);
  // Part k: lines first_line + k, + n, + 2n, ... all in slice (first_line + k) % n,
  // consecutive in that slice's own line numbering.
  auto part_lines = [&](uint64_t k) { return (count - k + n - 1) / n; };

  // All or nothing: every slice must accept its part before any is served.
  bool accepted = true;
  uint64_t retry = 0;
  for (uint64_t k = 0; k < parts; ++k) {
    Cache& slice = *slices_[(first_line + k) % n];
    const MemResponse r = slice.check(first_line + k, part_lines(k), n, cycle);
    if (!r.accepted) {
      accepted = false;
      retry = std::max(retry, r.cycle);
      ++slice.mshr_full_;
    }
  }
  if (!accepted) return MemResponse{false, retry, false};

  MemResponse result{true, 0, true};
  for (uint64_t k = 0; k < parts; ++k) {
    const uint64_t lines = part_lines(k);
    uint64_t part_bytes = lines * line_bytes_;
    if (k == 0) part_bytes -= address - (first_line << line_shift_);
    if ((count - 1 - k) % n == 0) part_bytes -= ((last_line + 1) << line_shift_) - (address + bytes);
    const MemResponse r = slices_[(first_line + k) % n]->commit(first_line + k, lines, n, part_bytes, cycle);
    result.cycle = std::max(result.cycle, r.cycle);
    result.hit = result.hit && r.hit;
  }
  return result;
}

void SlicedCache::invalidate() {
  for (auto& slice : slices_) slice->invalidate();
}

}  // namespace td::mem

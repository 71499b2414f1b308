#include "model/mem/cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <array>
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

Cache::Counters::Counters(const sim::StatGroup& stats) {
  // Registered in the order reports list them.
  stats.counter_in("hits", "accesses", "line accesses that found their data present", hits);
  stats.counter_in("misses", "accesses", "line accesses that missed (including merged)", misses);
  stats.counter_in("merged", "accesses", "misses merged into a fill already in flight", merged);
  stats.counter_in("mshr_full", "requests", "requests rejected because all MSHRs were busy", mshr_full);
  stats.counter_in("bytes", "bytes", "bytes delivered to requesters", bytes);
  stats.counter_in("evictions", "lines", "valid lines replaced by a miss", evictions);
  stats.counter_in("port_busy_cycles", "cycles", "clocks the port spent moving data to requesters", port_busy);
}

Cache::LoadCounters::LoadCounters(const sim::StatGroup& stats) {
  stats.counter_in("load_hits", "accesses", "line accesses of vector loads that found their data present", hits);
  stats.counter_in("load_misses", "accesses", "line accesses of vector loads that missed (including merged)",
                   misses);
}

Cache::Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, EventSink* events,
             bool counts_loads)
    : Cache(geometry, next, stats, 1, events, counts_loads) {}

Cache::Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, uint32_t interleave,
             EventSink* events, bool counts_loads)
    : geometry_(validated(geometry)),
      sets_(static_cast<uint32_t>(geometry.size_bytes / (uint64_t{geometry.ways} * geometry.line_bytes))),
      line_shift_(sim::log2_ceil(geometry.line_bytes)),
      set_mask_(sets_ - 1),
      interleave_(interleave),
      interleave_shift_(sim::is_power_of_two(interleave) ? static_cast<int>(sim::log2_ceil(interleave)) : -1),
      capacity_lines_(uint64_t{sets_} * geometry.ways),
      dense_(capacity_lines_ <= kDenseTagLines),
      lines_(dense_ ? capacity_lines_ : 0),
      counters_(stats.registry().block<Counters>(stats)),
      load_counters_(counts_loads ? &stats.registry().block<LoadCounters>(stats) : nullptr),
      next_(next),
      mshrs_(geometry.mshrs),
      events_(events),
      name_(stats.prefix()) {}

Cache::Line* Cache::find(uint64_t line) {
  return const_cast<Line*>(static_cast<const Cache*>(this)->find(line));
}

const Cache::Line* Cache::find(uint64_t line) const {
  const Line* way;
  size_t ways;
  if (dense_) {
    way = &lines_[set_of(line) * geometry_.ways];
    ways = geometry_.ways;
  } else {
    const auto set = sparse_.find(set_of(line));
    if (set == sparse_.end()) return nullptr;
    way = set->second.data();
    ways = set->second.size();
  }
  for (size_t w = 0; w < ways; ++w, ++way) {
    if (way->tag == line) return way;
  }
  return nullptr;
}

Cache::Line& Cache::victim(uint64_t line) {
  Line* way;
  if (dense_) {
    way = &lines_[set_of(line) * geometry_.ways];
  } else {
    std::vector<Line>& set = sparse_[set_of(line)];
    if (set.size() < geometry_.ways) return set.emplace_back();  // a way not used yet
    way = set.data();
  }
  Line* lru = way;
  for (uint32_t w = 0; w < geometry_.ways; ++w, ++way) {
    if (!way->valid()) return *way;
    if (way->last_use < lru->last_use) lru = way;
  }
  return *lru;
}

void Cache::forward(uint32_t mshr, uint64_t cycle) {
  MshrFile::Mshr& m = mshrs_[mshr];
  if (m.asked || m.release != kUnknown) return;  // a second retry notice: already asked
  const MemResponse r = next_.access(m.line << line_shift_, geometry_.line_bytes, cycle, this, mshr, m.traffic);
  if (!r.accepted) {
    // Refused: again when `next` names the cycle (now, or when it knows).
    if (r.cycle != kRetryWhenTold) schedule(events_, std::max(r.cycle, cycle + 1), *this, mshr);
    return;
  }
  mshrs_[mshr].asked = true;
  if (progress_) progress_->note(cycle);  // the miss moved down a level
  if (!r.pending) heard_fill(mshr, r.cycle);
  // pending: mem_ready() calls fill() when the cycle is known
}

void Cache::defer_fills(const EventQueue* queue) {
  if (next_deferred_fill() != UINT64_MAX) throw std::logic_error("cache: defer_fills() while fills wait");
  deferring_ = queue;
}

void Cache::land_deferred_fills(uint64_t cycle) {
  while (deferred_next_ < deferred_.size() && deferred_[deferred_next_].heard <= cycle) {
    const DeferredFill f = deferred_[deferred_next_++];
    fill(f.mshr, f.cycle);
  }
  if (deferred_next_ == deferred_.size()) {
    deferred_.clear();
    deferred_next_ = 0;
  }
}

void Cache::fill(uint32_t mshr, uint64_t cycle) {
  if (!mshrs_.set_release(mshr, cycle)) return;  // not waiting for a fill
  MshrFile::Mshr& m = mshrs_[mshr];
  if (progress_) progress_->note(cycle);  // the fill lands then
  Line* line = find(m.line);
  if (line && line->fill_cycle == kUnknown && line->mshr == mshr) line->fill_cycle = cycle;
  // The release is known: promise it before the waiters' clients act.
  mshrs_.promise_releases(cycle);
  // The waiters leave the MSHR before they are told: a waiter's client may
  // issue new requests (even to this MSHR). The MSHR takes a spare vector's
  // storage and the list's goes back to the spare, so misses allocate nothing.
  std::vector<std::pair<JoinTable*, uint32_t>> waiters = std::move(spare_waiters_);
  waiters.clear();
  waiters.swap(m.waiters);
  for (const auto& [joins, join] : waiters) joins->part_ready(join, cycle);
  spare_waiters_ = std::move(waiters);
}

Cache::Check Cache::check(uint64_t first_line, uint64_t count, uint64_t step, uint64_t cycle,
                          const MemClient* client, uint64_t tag) const {
  const uint64_t start = std::max(cycle, port_free_cycle_);
  if (count > capacity_lines_) {
    throw std::invalid_argument(fmt::format("cache: a request of {} lines exceeds the cache's {} lines", count,
                                            capacity_lines_));
  }
  uint64_t needed = 0;
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (find(line) == nullptr) ++needed;
  }
  if (needed == 0) return Check{true, start, 0, 0};
  if (needed > mshrs_.size()) {
    throw std::invalid_argument(fmt::format("cache: a request missing {} lines can never get that many MSHRs (has {})",
                                            needed, mshrs_.size()));
  }
  const uint64_t more = mshrs_.lacking(needed, start, client, tag);
  return Check{more == 0, start, more, needed};
}

uint64_t Cache::retry_cycle(const Check& refused, MemClient* client, uint64_t tag, bool single) {
  return mshrs_.retry_cycle(refused.start, refused.more, client, tag, single);
}

void Cache::commit(uint64_t first_line, uint64_t count, uint64_t step, uint64_t bytes, uint64_t cycle,
                   JoinTable& joins, uint32_t join, bool& hit, const MemClient* client, uint64_t tag,
                   Traffic traffic) {
  const uint64_t start = reserve_port(bytes, cycle);
  joins.add_ready_part(join, port_free_cycle_);  // not before the transfer
  // Present lines first, so that a miss of this request evicting an LRU way
  // never evicts a line this request has yet to find present (check() counted
  // it as present).
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (Line* present = find(line)) serve_present(*present, start, joins, join, hit, traffic);
  }
  for (uint64_t k = 0, line = first_line; k < count; ++k, line += step) {
    if (find(line) != nullptr) continue;
    ++counters_.misses;
    count_kind(traffic, false);
    hit = false;
    Line& way = victim(line);
    if (way.valid()) ++counters_.evictions;
    // check() guaranteed a free MSHR for every missing line; one held for
    // this requester first.
    const uint32_t mshr = mshrs_.take(start, client, tag, line, traffic);
    mshrs_[mshr].waiters.assign(1, {&joins, join});
    joins.add_pending_part(join);
    way.tag = line;
    way.fill_cycle = kUnknown;
    way.mshr = mshr;
    way.last_use = ++use_stamp_;
    // The lookup that missed takes the hit latency; then the line is asked
    // for below, at the cycle it gets there.
    schedule(events_, start + geometry_.hit_latency_cycles, *this, mshr);
  }
  counters_.bytes.add(bytes);
}

uint64_t Cache::reserve_port(uint64_t bytes, uint64_t cycle) {
  const uint64_t start = std::max(cycle, port_free_cycle_);
  const uint64_t occupancy = (bytes + geometry_.bytes_per_clock - 1) / geometry_.bytes_per_clock;
  port_free_cycle_ = start + occupancy;
  counters_.port_busy.add(occupancy);
  return start;
}

void Cache::serve_present(Line& line, uint64_t start, JoinTable& joins, uint32_t join, bool& hit,
                          Traffic traffic) {
  line.last_use = ++use_stamp_;
  const bool present = line.fill_cycle <= start;
  count_kind(traffic, present);
  if (present) {
    ++counters_.hits;
    joins.add_ready_part(join, start + geometry_.hit_latency_cycles);
    return;
  }
  // The fill is on its way: merge into its MSHR.
  ++counters_.misses;
  ++counters_.merged;
  hit = false;
  if (line.fill_cycle != kUnknown) {
    joins.add_ready_part(join, line.fill_cycle);
  } else {
    mshrs_[line.mshr].waiters.emplace_back(&joins, join);
    joins.add_pending_part(join);
  }
}

namespace {

std::string describe_response(const MemResponse& r) {
  if (!r.accepted) return fmt::format("refused, retry at {}", r.cycle);
  if (r.pending) return "miss, pending";
  return fmt::format("{}, ready at {}", r.hit ? "hit" : "miss", r.cycle);
}

}  // namespace

MemResponse Cache::access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                          Traffic traffic) {
  const MemResponse response = serve(address, bytes, cycle, client, tag, traffic);
  TD_DEBUG(kMem, cycle, name_, "{} B at {:#x}: {}", bytes, address, describe_response(response));
  return response;
}

MemResponse Cache::serve(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                         Traffic traffic) {
  if (bytes == 0) return MemResponse{true, cycle, true};
  const uint64_t first_line = address >> line_shift_;
  const uint64_t count = ((address + bytes - 1) >> line_shift_) - first_line + 1;

  // Fast path, the common case: every line present with its fill known, so
  // no MSHR and no waiting; one lookup per line.
  constexpr uint64_t kFastLines = 4;
  if (count <= kFastLines) {
    Line* found[kFastLines] = {};
    bool all_known = true;
    for (uint64_t k = 0; k < count && all_known; ++k) {
      found[k] = find(first_line + k);
      all_known = found[k] != nullptr && found[k]->fill_cycle != kUnknown;
    }
    if (all_known) {
      const uint64_t start = reserve_port(bytes, cycle);
      MemResponse result{true, port_free_cycle_, true};  // not before the transfer
      for (uint64_t k = 0; k < count; ++k) {
        Line& line = *found[k];
        line.last_use = ++use_stamp_;
        count_kind(traffic, line.fill_cycle <= start);
        if (line.fill_cycle <= start) {
          ++counters_.hits;
          result.cycle = std::max(result.cycle, start + geometry_.hit_latency_cycles);
        } else {  // merge into a fill whose cycle is known
          ++counters_.misses;
          ++counters_.merged;
          result.hit = false;
          result.cycle = std::max(result.cycle, line.fill_cycle);
        }
      }
      counters_.bytes.add(bytes);
      if (client) mshrs_.requester_back(client, tag, cycle);
      return result;
    }
  }

  const Check checked = check(first_line, count, 1, cycle, client, tag);
  if (!checked.accepted) {
    ++counters_.mshr_full;
    return MemResponse{false, retry_cycle(checked, client, tag, checked.needed == 1), false};
  }
  const uint32_t join = joins_.open(client, tag, 0);
  bool hit = true;
  commit(first_line, count, 1, bytes, cycle, joins_, join, hit, client, tag, traffic);
  if (client) mshrs_.requester_back(client, tag, cycle);
  return joins_.close(join, hit);
}

void Cache::invalidate() {
  std::fill(lines_.begin(), lines_.end(), Line{});
  sparse_.clear();
  mshrs_.clear();
  joins_.clear();
  deferred_.clear();
  deferred_next_ = 0;
  port_free_cycle_ = 0;
  use_stamp_ = 0;
}

uint64_t Cache::tag_entries() const {
  if (dense_) return capacity_lines_;
  uint64_t lines = 0;
  for (const auto& [set, ways] : sparse_) lines += ways.size();
  return lines;
}

std::string Cache::describe(uint64_t cycle) const {
  const uint32_t busy = mshrs_in_use(cycle);
  if (busy == 0 && mshrs_.waiters() == 0) return "";
  std::string out = fmt::format("{}: {} of {} MSHRs busy", name_, busy, mshrs_.size());
  // The MSHRs that wait on something not known yet: these are what a stuck
  // run is waiting for. (Few are listed: the count says how many.)
  constexpr uint32_t kListed = 4;
  uint32_t listed = 0, unknown = 0;
  uint64_t latest = 0;
  for (uint32_t index = 0; index < mshrs_.size(); ++index) {
    const MshrFile::Mshr& m = mshrs_[index];
    if (m.release != kUnknown) {
      if (m.release > cycle) latest = std::max(latest, m.release);
      continue;
    }
    if (++unknown > kListed) continue;
    out += fmt::format("{} line {:#x} {}", listed++ ? ";" : " (fill not known:", m.line << line_shift_,
                       m.asked ? "asked of the next level, no answer yet"
                               : "not accepted by the next level yet (waiting to retry)");
    if (!m.waiters.empty())
      out += m.waiters.size() == 1 ? ", 1 request waiting on it"
                                   : fmt::format(", {} requests waiting on it", m.waiters.size());
  }
  if (unknown > kListed) out += fmt::format("; {} more", unknown - kListed);
  if (unknown > 0) out += ")";
  if (latest > 0) out += fmt::format(", {} fills known, the last landing at cycle {}", busy - unknown, latest);
  if (mshrs_.waiters() > 0)
    out += fmt::format("; {} requesters parked until an MSHR's release is known", mshrs_.waiters());
  return out;
}

// --- SlicedCache ---------------------------------------------------------

namespace {

uint32_t validated_slices(uint32_t slices) {
  if (slices < 1 || slices > SlicedCache::kMaxSlices)
    throw std::invalid_argument(
        fmt::format("sliced cache: slices must be 1 to {} (got {})", SlicedCache::kMaxSlices, slices));
  return slices;
}

}  // namespace

SlicedCache::SlicedCache(uint32_t slices, const CacheGeometry& slice_geometry, MemLevel& next,
                         const sim::StatGroup& stats, EventSink* events, bool counts_loads)
    : line_bytes_(slice_geometry.line_bytes),
      line_shift_(sim::log2_ceil(slice_geometry.line_bytes)),
      name_(stats.prefix()) {
  slices_.reserve(validated_slices(slices));
  for (uint32_t i = 0; i < slices; ++i) {
    // Private constructor: std::make_unique cannot reach it.
    slices_.push_back(std::unique_ptr<Cache>(
        new Cache(slice_geometry, next, stats.child(fmt::format("slice{}", i)), slices, events, counts_loads)));
  }
}

uint32_t SlicedCache::slice_of(uint64_t address) const {
  return static_cast<uint32_t>((address >> line_shift_) % slices_.size());
}

MemResponse SlicedCache::access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                                Traffic traffic) {
  const MemResponse response = serve(address, bytes, cycle, client, tag, traffic);
  TD_DEBUG(kMem, cycle, name_, "{} B at {:#x} (slice {}): {}", bytes, address, slice_of(address),
           describe_response(response));
  return response;
}

MemResponse SlicedCache::serve(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                               Traffic traffic) {
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
  // A refused request retries when its last refusing slice says.
  // A request needing one MSHR in all may be promised one exclusively;
  // one needing several (in one slice or across slices) may not.
  std::vector<Cache::Check>& checks = checks_;  // kept: no allocation per request
  checks.resize(parts);
  uint64_t needed = 0;
  bool refused = false;
  for (uint64_t k = 0; k < parts; ++k) {
    checks[k] = slices_[(first_line + k) % n]->check(first_line + k, part_lines(k), n, cycle, client, tag);
    needed += checks[k].needed;
    refused = refused || !checks[k].accepted;
  }
  if (refused) {
    uint64_t retry = 0;
    for (uint64_t k = 0; k < parts; ++k) {
      if (checks[k].accepted) continue;
      Cache& slice = *slices_[(first_line + k) % n];
      ++slice.counters_.mshr_full;
      retry = std::max(retry, slice.retry_cycle(checks[k], client, tag, needed == 1));
    }
    return MemResponse{false, retry, false};
  }
  const uint32_t join = joins_.open(client, tag, 0);
  bool hit = true;
  for (uint64_t k = 0; k < parts; ++k) {
    const uint64_t lines = part_lines(k);
    uint64_t part_bytes = lines * line_bytes_;
    if (k == 0) part_bytes -= address - (first_line << line_shift_);
    if ((count - 1 - k) % n == 0) part_bytes -= ((last_line + 1) << line_shift_) - (address + bytes);
    Cache& slice = *slices_[(first_line + k) % n];
    slice.commit(first_line + k, lines, n, part_bytes, cycle, joins_, join, hit, client, tag, traffic);
  }
  // Served: whatever any slice promised it, or still has it waiting for, ends.
  if (client)
    for (auto& slice : slices_) slice->mshrs_.requester_back(client, tag, cycle);
  return joins_.close(join, hit);
}

void SlicedCache::set_progress(sim::ProgressMark* mark) {
  for (auto& slice : slices_) slice->set_progress(mark);
}

void SlicedCache::invalidate() {
  for (auto& slice : slices_) slice->invalidate();
  joins_.clear();
}

}  // namespace td::mem

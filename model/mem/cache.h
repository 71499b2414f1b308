// cache.h — a set-associative cache with LRU replacement, MSHRs with miss
// merging, a hit latency and a port that moves `bytes_per_clock` bytes each
// clock; instanced as L0 (per TD), L1 (per shader array) and L2 slices.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/mem/mem_level.h"
#include "model/sim/stats.h"

namespace td::mem {

struct CacheGeometry {
  uint64_t size_bytes = 16 * 1024;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;  // power of two
  uint32_t hit_latency_cycles = 1;
  uint32_t mshrs = 16;           // lines in flight to the next level
  uint32_t bytes_per_clock = 64;  // port bandwidth toward the requester
};

class Cache final : public MemLevel {
 public:
  // `next` serves misses (another Cache, a SlicedCache or Dram); it must
  // outlive this cache. Stats are registered under `stats`.
  Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats);

  // Timing of one request (every line overlapping [address, address+bytes)):
  //  - the port is reserved for ceil(bytes / bytes_per_clock) cycles, from
  //    max(cycle, port free) = `start`;
  //  - per line: hit (valid, data present by `start`): ready at
  //    start + hit_latency; hit on a line still being filled (MSHR merge,
  //    counted in `misses` and `merged`, no MSHR, nothing sent to `next`):
  //    ready at the fill cycle, the same cycle as the miss it joins; miss:
  //    an MSHR is taken (busy from `start` until the fill) and the line
  //    requested from `next` at start + hit_latency (the lookup that
  //    missed), retried at next's retry cycle until accepted; the fill
  //    cycle is next's answer and the data goes on to the requester as it
  //    arrives: ready at the fill. (So a miss served by the next level's hit
  //    costs this level's latency plus that level's, once each.) The victim is
  //    an invalid way, else the least recently used one (even if its own
  //    fill is still in flight: that MSHR stays busy until it lands);
  //  - the request is ready when its last line and its port transfer are:
  //    max(line readies, start + ceil(bytes / bytes_per_clock));
  //    `hit` = every line hit (a merge is not a hit).
  // Rejected (no state changed: lines, LRU, MSHRs, port) when the missing
  // lines need more MSHRs than are free at `start`: `cycle` then says when
  // enough of them will have freed (for one missing line: the first release).
  // A request that could never be accepted (more missing lines than MSHRs,
  // or more lines than the cache holds) throws std::invalid_argument.
  // A zero-byte request touches nothing and is ready at `cycle`.
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle) override;
  void invalidate() override;

  const CacheGeometry& geometry() const { return geometry_; }
  uint32_t sets() const { return sets_; }
  // Lines with a fill still in flight at `cycle`.
  uint32_t mshrs_in_use(uint64_t cycle) const;

 private:
  MemResponse serve(uint64_t address, uint32_t bytes, uint64_t cycle);
  friend class SlicedCache;

  struct Line {
    uint64_t tag = 0;         // the full line number (address / line_bytes)
    bool valid = false;
    uint64_t fill_cycle = 0;  // data present from this cycle on
    uint64_t last_use = 0;    // LRU stamp
  };

  // A slice of a SlicedCache with `interleave` slices sees every
  // interleave-th line; its set index is taken from line / interleave so that
  // all its sets are used.
  Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, uint32_t interleave);

  // The lines of a request, as this cache sees them: `count` lines
  // first, first + step, ... (step 1 for a plain request, the slice count for
  // a part of a SlicedCache request).
  // check(): accepted (cycle = start) or rejected (cycle = earliest retry);
  // changes nothing. commit(): serves a request that check() accepted.
  MemResponse check(uint64_t first_line, uint64_t count, uint64_t step, uint64_t cycle) const;
  MemResponse commit(uint64_t first_line, uint64_t count, uint64_t step, uint64_t bytes, uint64_t cycle);

  uint64_t set_of(uint64_t line) const {
    return (interleave_shift_ >= 0 ? line >> interleave_shift_ : line / interleave_) & set_mask_;
  }
  Line* find(uint64_t line);
  const Line* find(uint64_t line) const;
  Line& victim(uint64_t line);  // an invalid way of the line's set, else its LRU way
  uint64_t fetch(uint64_t line, uint64_t cycle);  // next level's ready cycle, retrying rejections
  // Reserves the port for `bytes` from max(cycle, port free); returns that start.
  uint64_t reserve_port(uint64_t bytes, uint64_t cycle);
  // A present line served from `start`: a hit, or a merge into its fill.
  void serve_present(Line& line, uint64_t start, MemResponse& result);

  CacheGeometry geometry_;
  MemLevel& next_;
  uint32_t sets_ = 0;
  uint32_t line_shift_ = 0;     // log2(line_bytes)
  uint64_t set_mask_ = 0;       // sets - 1
  uint32_t interleave_ = 1;     // see the private constructor
  int interleave_shift_ = 0;    // log2(interleave_) if a power of two, else -1
  uint64_t capacity_lines_ = 0;  // sets * ways
  std::vector<Line> lines_;  // sets_ * ways, set-major
  std::vector<uint64_t> mshr_release_;  // per MSHR: fill cycle of its miss (free when <= start)
  uint64_t port_free_cycle_ = 0;
  uint64_t use_stamp_ = 0;

  sim::Counter& hits_;
  sim::Counter& misses_;
  sim::Counter& merged_;       // misses merged into an in-flight fill
  sim::Counter& mshr_full_;    // requests rejected, all MSHRs busy
  sim::Counter& bytes_;        // bytes delivered to requesters
  sim::Counter& evictions_;
  sim::Counter& port_busy_;
  std::string name_;  // hierarchical, for debug lines
};

// Several caches (L2 slices) selected by address: line index modulo slices.
// Each slice indexes its sets by line / slices, so that it uses all of them.
// A request over lines of several slices is split, one part per slice (the
// slice's port moves that part's bytes); it is accepted only if every part
// is (checked before any is served), is ready when its latest part is, and
// hits when every part hits. Rejected: `cycle` is the latest of the
// rejecting slices' retry cycles; each rejecting slice counts `mshr_full`.
// Slice i registers its stats under `stats`.child("slice<i>").
class SlicedCache final : public MemLevel {
 public:
  SlicedCache(uint32_t slices, const CacheGeometry& slice_geometry, MemLevel& next, const sim::StatGroup& stats);
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle) override;
  void invalidate() override;
  uint32_t slice_of(uint64_t address) const;
  Cache& slice(uint32_t index) { return *slices_[index]; }

 private:
  MemResponse serve(uint64_t address, uint32_t bytes, uint64_t cycle);
  uint32_t line_bytes_;
  uint32_t line_shift_;
  std::string name_;  // hierarchical, for debug lines
  std::vector<std::unique_ptr<Cache>> slices_;
};

}  // namespace td::mem

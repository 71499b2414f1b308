// cache.h — a set-associative cache with LRU replacement, MSHRs with miss
// merging, a hit latency and a port that moves `bytes_per_clock` bytes each
// clock; instanced as L0 (per TD), L1 (per shader array) and L2 slices.
//
// Tags: a cache of up to kDenseTagLines lines keeps every way in one array
// (one indexed lookup per access). A larger one keeps only the sets it has
// touched, each with the lines it holds (a hash lookup per access), so any
// size the configuration allows (up to 1 GiB per cache) costs memory in
// proportion to the lines it has actually held. Both behave the same: a set
// fills its ways, then replaces its least recently used line.
//
// The MSHRs, and the requesters refused for want of one, are an MshrFile
// (mshr.h): the cache asks it for MSHRs and tells it when fills land.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/mem/event_queue.h"
#include "model/mem/join.h"
#include "model/mem/mem_level.h"
#include "model/mem/mshr.h"
#include "model/sim/line_aligned.h"
#include "model/sim/progress.h"
#include "model/sim/stats.h"

namespace td::mem {

// No defaults of their own (a configuration's cache section gives them:
// model/chip/model_params.h); the Cache refuses a geometry it cannot be.
struct CacheGeometry {
  uint64_t size_bytes = 0;
  uint32_t ways = 0;
  uint32_t line_bytes = 0;          // power of two
  uint32_t hit_latency_cycles = 0;
  uint32_t mshrs = 0;               // lines in flight to the next level
  uint32_t bytes_per_clock = 0;     // port bandwidth toward the requester
};

class Cache final : public MemLevel, public MemClient, public EventTarget {
 public:
  // `next` serves misses (another Cache, a SlicedCache or Dram); it must
  // outlive this cache. Stats are registered under `stats`. Misses reach
  // `next` as events on `events` (nullptr: at once, as in unit tests).
  // `counts_loads`: vector loads reach it too (Traffic::kLoad), and it
  // registers their line accesses' hits and misses apart (`load_hits`,
  // `load_misses`; counted in `hits` and `misses` as well).
  Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, EventSink* events = nullptr,
        bool counts_loads = false);

  // Timing of one request (every line overlapping [address, address+bytes)):
  //  - the port is reserved for ceil(bytes / bytes_per_clock) cycles, from
  //    max(cycle, port free) = `start`;
  //  - per line: hit (valid, data present by `start`): ready at
  //    start + hit_latency; hit on a line still being filled (MSHR merge,
  //    counted in `misses` and `merged`, no MSHR, nothing sent to `next`):
  //    ready at the fill cycle, the same cycle as the miss it joins; miss:
  //    an MSHR is taken (busy from `start` until the fill) and the line
  //    requested from `next` at start + hit_latency (the lookup that
  //    missed; an event at that cycle), retried at next's retry cycle until
  //    accepted; the fill cycle is next's answer (at once, or later through
  //    mem_ready) and the data goes on to the requester as it arrives:
  //    ready at the fill. (So a miss served by the next level's hit costs
  //    this level's latency plus that level's, once each.) A fill not yet
  //    known makes the request pending (see mem_level.h). The victim is
  //    an invalid way, else the least recently used one (even if its own
  //    fill is still in flight: that MSHR stays busy until it lands);
  //  - the request is ready when its last line and its port transfer are:
  //    max(line readies, start + ceil(bytes / bytes_per_clock));
  //    `hit` = every line hit (a merge is not a hit).
  // Rejected (no state changed: lines, LRU, MSHRs, port) when the missing
  // lines need more MSHRs than are free at `start`: `cycle` then says when
  // to retry (a known release promised to this requester), or is
  // kRetryWhenTold: the requester waits in FIFO order and mem_retry tells it
  // as soon as a release is known (mshr.h). Without a
  // client the answer is a known release or the next clock.
  // A request that could never be accepted (more missing lines than MSHRs,
  // or more lines than the cache holds) throws std::invalid_argument.
  // A zero-byte request touches nothing and is ready at `cycle`.
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client = nullptr,
                     uint64_t tag = 0, Traffic traffic = Traffic::kNode) override;
  void invalidate() override;

  // A fill this cache asked `next` for (tag: the MSHR) has its cycle.
  void mem_ready(uint64_t tag, uint64_t cycle) override { heard_fill(static_cast<uint32_t>(tag), cycle); }
  // `next` refused that miss and can now take it from `cycle`.
  void mem_retry(uint64_t tag, uint64_t cycle) override {
    schedule(events_, cycle, *this, tag);
  }
  // A miss reaches `next` (arg: the MSHR).
  void on_event(uint64_t arg, uint64_t cycle) override { forward(static_cast<uint32_t>(arg), cycle); }

  const CacheGeometry& geometry() const { return geometry_; }
  uint32_t sets() const { return sets_; }
  // Lines with a fill still in flight at `cycle`.
  uint32_t mshrs_in_use(uint64_t cycle) const { return mshrs_.in_use(cycle); }
  // MSHRs whose fill cycle is not known yet (asked below, or about to be).
  uint32_t fills_not_known() const { return mshrs_.fills_not_known(); }
  // Requesters refused while no release was known, waiting to be told.
  size_t waiters() const { return mshrs_.waiters(); }

  // Caches of more lines than this keep only the sets they touch.
  static constexpr uint64_t kDenseTagLines = 8192;
  // Bytes of model state per tag entry and per MSHR (memory estimates).
  static constexpr size_t tag_entry_bytes() { return sizeof(Line); }
  static constexpr size_t mshr_bytes() { return sizeof(MshrFile::Mshr); }
  bool sparse_tags() const { return !dense_; }
  // Lines held (valid), for a sparse cache; sets * ways for a dense one.
  uint64_t tag_entries() const;

  // Deferred fills (a TD's L0 while the chip runs the TD ahead of the
  // queue, within a quantum): what this cache hears from `next` while the
  // queue runs an event (a fill's cycle) changes it only once its
  // requester's clock reaches the cycle heard at, queue.now(): until then
  // the fills wait here, and the requester lands them with
  // land_deferred_fills() before its tick of that clock — as if it had
  // heard them then. (The queue reads only a miss's line and kind, fixed
  // when it missed.) nullptr: fills land as they are heard. Change it only
  // while none waits.
  void defer_fills(const EventQueue* queue);
  // The clock the first waiting fill was heard at; UINT64_MAX if none.
  uint64_t next_deferred_fill() const {
    return deferred_next_ < deferred_.size() ? deferred_[deferred_next_].heard : UINT64_MAX;
  }
  // Lands every waiting fill heard at or before `cycle`, in the order heard.
  void land_deferred_fills(uint64_t cycle);

  // Notes the cycles this cache moves a miss down or learns when a fill
  // lands (the watchdog's progress; nullptr: none).
  void set_progress(sim::ProgressMark* mark) { progress_ = mark; }
  // What the cache holds in flight at `cycle`, for a deadlock report: one
  // line under its hierarchical name, or "" when nothing is in flight.
  std::string describe(uint64_t cycle) const;

 private:
  MemResponse serve(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                    Traffic traffic);
  friend class SlicedCache;

  static constexpr uint64_t kUnknown = MshrFile::kUnknown;  // a fill cycle not known yet
  static constexpr uint64_t kNoLine = UINT64_MAX;            // an empty way's tag

  struct Line {
    // The full line number (address / line_bytes), kNoLine while the way
    // holds nothing (no line number reaches it: addresses have 64 bits and
    // lines at least 16 bytes); a lookup is one compare per way.
    uint64_t tag = kNoLine;
    bool valid() const { return tag != kNoLine; }
    uint64_t fill_cycle = 0;  // data present from this cycle on (kUnknown: on its way)
    uint32_t mshr = 0;        // the MSHR filling it, while fill_cycle is kUnknown
    uint64_t last_use = 0;    // LRU stamp
  };

  // A slice of a SlicedCache with `interleave` slices sees every
  // interleave-th line; its set index is taken from line / interleave so that
  // all its sets are used.
  Cache(const CacheGeometry& geometry, MemLevel& next, const sim::StatGroup& stats, uint32_t interleave,
        EventSink* events, bool counts_loads);

  // The lines of a request, as this cache sees them: `count` lines
  // first, first + step, ... (step 1 for a plain request, the slice count for
  // a part of a SlicedCache request).
  // check(): accepted (cycle = start) or rejected (cycle = earliest retry);
  // changes nothing. commit(): serves a request that check() accepted.
  // commit() answers through join `join` of `joins` (the caller's): every
  // line adds a ready or a pending part to it.
  struct Check {
    bool accepted = false;
    uint64_t start = 0;  // the port's start for the request
    uint64_t more = 0;   // refused: MSHRs it lacks
    uint64_t needed = 0; // MSHRs it needs in all (its missing lines)
  };
  Check check(uint64_t first_line, uint64_t count, uint64_t step, uint64_t cycle, const MemClient* client,
              uint64_t tag) const;
  void commit(uint64_t first_line, uint64_t count, uint64_t step, uint64_t bytes, uint64_t cycle, JoinTable& joins,
              uint32_t join, bool& hit, const MemClient* client, uint64_t tag, Traffic traffic);

  uint64_t set_of(uint64_t line) const {
    return (interleave_shift_ >= 0 ? line >> interleave_shift_ : line / interleave_) & set_mask_;
  }
  Line* find(uint64_t line);
  const Line* find(uint64_t line) const;
  // An invalid way of the line's set, else its LRU way. (Sparse tags: may add
  // a way to the set, moving its other lines: hold no Line* across it.)
  Line& victim(uint64_t line);
  void forward(uint32_t mshr, uint64_t cycle);  // asks `next` for the MSHR's line
  void fill(uint32_t mshr, uint64_t cycle);     // the MSHR's line arrives at `cycle`
  void heard_fill(uint32_t mshr, uint64_t cycle) {  // fill(), or deferred (defer_fills)
    if (deferring_)
      deferred_.push_back(DeferredFill{deferring_->now(), mshr, cycle});
    else
      fill(mshr, cycle);
  }
  // A refused request's retry cycle (MshrFile::retry_cycle). `single`: the
  // whole request (all slices) needs one MSHR.
  uint64_t retry_cycle(const Check& refused, MemClient* client, uint64_t tag, bool single);
  // Reserves the port for `bytes` from max(cycle, port free); returns that start.
  uint64_t reserve_port(uint64_t bytes, uint64_t cycle);
  // A present line served from `start`: a hit, or a merge into its fill.
  void serve_present(Line& line, uint64_t start, JoinTable& joins, uint32_t join, bool& hit, Traffic traffic);
  // A line access of `traffic` kind hit (or missed): its load counter, if
  // it is a load and this cache counts them.
  void count_kind(Traffic traffic, bool hit) {
    if (traffic == Traffic::kLoad && load_counters_) ++(hit ? load_counters_->hits : load_counters_->misses);
  }

  // What a request that hits reads first, together (an L0 is asked once a
  // clock by a TD whose other state has just been read).
  CacheGeometry geometry_;
  uint32_t sets_ = 0;
  uint32_t line_shift_ = 0;     // log2(line_bytes)
  uint64_t set_mask_ = 0;       // sets - 1
  uint32_t interleave_ = 1;     // see the private constructor
  int interleave_shift_ = 0;    // log2(interleave_) if a power of two, else -1
  uint64_t capacity_lines_ = 0;  // sets * ways
  bool dense_ = true;           // capacity_lines_ <= kDenseTagLines
  sim::LineAlignedVector<Line> lines_;  // dense: sets_ * ways, set-major, a set starting on a line
  uint64_t port_free_cycle_ = 0;
  uint64_t use_stamp_ = 0;
  // The counters, one block of the registry (a hit updates three).
  struct alignas(64) Counters {
    explicit Counters(const sim::StatGroup& stats);
    Counters(const Counters&) = delete;  // the registry holds their addresses
    Counters& operator=(const Counters&) = delete;
    sim::Counter hits;
    sim::Counter bytes;      // bytes delivered to requesters
    sim::Counter port_busy;
    sim::Counter misses;
    sim::Counter merged;     // misses merged into an in-flight fill
    sim::Counter mshr_full;  // requests rejected, all MSHRs busy
    sim::Counter evictions;
  };
  Counters& counters_;
  struct LoadCounters {
    explicit LoadCounters(const sim::StatGroup& stats);
    LoadCounters(const LoadCounters&) = delete;
    LoadCounters& operator=(const LoadCounters&) = delete;
    sim::Counter hits, misses;
  };
  LoadCounters* load_counters_ = nullptr;  // registered only when the cache counts loads

  MemLevel& next_;
  // Sparse: the sets touched, each with its valid lines (at most `ways`, in
  // no order; a set fills its ways before it replaces one).
  std::unordered_map<uint64_t, std::vector<Line>> sparse_;
  MshrFile mshrs_;
  std::vector<std::pair<JoinTable*, uint32_t>> spare_waiters_;  // fill()'s: storage passed between MSHRs
  EventSink* events_ = nullptr;
  sim::ProgressMark* progress_ = nullptr;
  struct DeferredFill {
    uint64_t heard;
    uint32_t mshr;
    uint64_t cycle;
  };
  const EventQueue* deferring_ = nullptr;  // defer_fills()
  std::vector<DeferredFill> deferred_;     // the first deferred_next_ have landed
  size_t deferred_next_ = 0;
  JoinTable joins_;  // requests made to this cache directly
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
  static constexpr uint32_t kMaxSlices = 256;  // as the configuration allows
  SlicedCache(uint32_t slices, const CacheGeometry& slice_geometry, MemLevel& next, const sim::StatGroup& stats,
              EventSink* events = nullptr, bool counts_loads = false);
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client = nullptr,
                     uint64_t tag = 0, Traffic traffic = Traffic::kNode) override;
  void invalidate() override;
  uint32_t slice_of(uint64_t address) const;
  Cache& slice(uint32_t index) { return *slices_[index]; }
  const Cache& slice(uint32_t index) const { return *slices_[index]; }
  uint32_t slices() const { return static_cast<uint32_t>(slices_.size()); }
  void set_progress(sim::ProgressMark* mark);

 private:
  MemResponse serve(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client, uint64_t tag,
                    Traffic traffic);
  uint32_t line_bytes_;
  uint32_t line_shift_;
  JoinTable joins_;  // one per request: its parts are its slices' lines
  std::vector<Cache::Check> checks_;  // serve()'s per-slice checks
  std::string name_;  // hierarchical, for debug lines
  std::vector<std::unique_ptr<Cache>> slices_;
};

}  // namespace td::mem

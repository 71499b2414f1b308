// mshr.h — a cache's miss status holding registers (gem5 keeps its MSHRs
// apart from the cache likewise): which lines are in flight to the next
// level, when each becomes free, and which refused requesters wait for one.
//
// An MSHR is busy from the request that missed until its fill lands (its
// `release`; kUnknown until the next level says). A requester refused for
// want of MSHRs is told when to come back:
//   - a request needing one MSHR is promised the earliest known release
//     nobody else holds (an exclusive hold: one retry per release, no
//     stampede);
//   - one needing several holds nothing (holding part of what it needs
//     while another holds the rest would deadlock) and comes back when
//     enough known releases have passed;
//   - with no release known, it waits (FIFO) and is told through
//     MemClient::mem_retry as soon as one is (promise_releases()).
// Invariant: no requester waits to be told while an MSHR with a known
// release is promised to nobody.
//
// Nothing here scans per request: the unheld MSHRs with a known release sit
// in a min-heap (earliest release, then lowest index: the one a scan would
// pick), and the waiting requesters, and the MSHRs promised to each, are
// found by requester (RequesterTable). A saturated L1 refuses most
// requests. No SystemC.
#pragma once

#include <cstdint>
#include <deque>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "model/mem/join.h"
#include "model/mem/mem_level.h"
#include "model/mem/requester_table.h"

namespace td::mem {

class MshrFile {
 public:
  static constexpr uint64_t kUnknown = UINT64_MAX;  // a release (fill cycle) not known yet
  static constexpr uint32_t kNoMshr = UINT32_MAX;

  struct Mshr {
    uint64_t release = 0;           // its fill cycle: free from then on (kUnknown: busy)
    uint64_t line = 0;              // the line it fetches
    // Promised to the refused requester told to retry at `release`, until
    // it comes back (then used, or promised to the next waiter). An
    // exclusive promise (to a requester needing this one MSHR) keeps it free
    // for that requester only; one needing several gets a plain promise.
    MemClient* held_by = nullptr;
    uint64_t held_tag = 0;
    bool exclusive = false;
    bool asked = false;  // the next level accepted this MSHR's request (no second one)
    Traffic traffic = Traffic::kNode;  // the kind of the request that missed (passed on)
    // Bumped whenever the MSHR's release or hold changes: an entry of
    // unheld_releases_ with an older version is stale.
    uint32_t version = 0;
    // The other MSHRs promised to the same requester (a list from holds_).
    uint32_t prev_held = kNoMshr, next_held = kNoMshr;
    std::vector<std::pair<JoinTable*, uint32_t>> waiters;  // joins waiting for the fill
  };

  explicit MshrFile(uint32_t count);

  uint32_t size() const { return static_cast<uint32_t>(mshrs_.size()); }
  Mshr& operator[](uint32_t index) { return mshrs_[index]; }
  const Mshr& operator[](uint32_t index) const { return mshrs_[index]; }

  // How many more MSHRs than are free at `start` for this requester a
  // request missing `needed` lines would need (0: it can have them).
  uint64_t lacking(uint64_t needed, uint64_t start, const MemClient* client, uint64_t tag) const;
  // Takes a free MSHR for `line` at `start` (one promised to this requester
  // first; lacking() said there is one): busy until its release is known.
  uint32_t take(uint64_t start, const MemClient* client, uint64_t tag, uint64_t line, Traffic traffic);
  // The MSHR's fill lands at `cycle`: free then. False if it was not
  // waiting for a fill. The cache then marks its line and calls
  // promise_releases(), which may let waiters issue new requests.
  bool set_release(uint32_t mshr, uint64_t cycle);
  // Keeps the invariant: promises unheld known releases, earliest first, to
  // the waiters in FIFO order, and tells them when to retry.
  void promise_releases(uint64_t now);

  // A refused request (it lacked `more` MSHRs at `start`): when to retry,
  // or kRetryWhenTold (the client waits to be told). `single`: the whole
  // request needs one MSHR. Without a client: a known release or the next
  // clock.
  uint64_t retry_cycle(uint64_t start, uint64_t more, MemClient* client, uint64_t tag, bool single);
  // The requester came back: its promises end (used or not), and its place
  // among the waiters. (Called on every request; nothing to do unless
  // someone waits or holds.)
  void requester_back(const MemClient* client, uint64_t tag, uint64_t cycle) {
    if (!waiting_seq_.empty() || held_ > 0) release_holds_of(client, tag, cycle);
  }

  void clear();  // every MSHR free from cycle 0, nobody waiting or promised
  // Busy at `cycle`; releases not known yet; requesters waiting to be told.
  uint32_t in_use(uint64_t cycle) const;
  uint32_t fills_not_known() const;
  size_t waiters() const { return waiting_seq_.size(); }
  static bool free_at(const Mshr& m, uint64_t start) { return m.release != kUnknown && m.release <= start; }

 private:
  // Free at `start` for this requester (not held exclusively for another).
  static bool free_for(const Mshr& m, uint64_t start, const MemClient* client, uint64_t tag) {
    return free_at(m, start) && (!m.held_by || !m.exclusive || (m.held_by == client && m.held_tag == tag));
  }
  void release_holds_of(const MemClient* client, uint64_t tag, uint64_t cycle);
  void park(MemClient* client, uint64_t tag, bool exclusive);  // once per requester
  // Holds, always through these (they keep the counts and the index right).
  void hold(uint32_t mshr, MemClient* client, uint64_t tag, bool exclusive);
  // `relist`: put it back on unheld_releases_ (false when it is being taken).
  void unhold(uint32_t mshr, bool relist = true);
  // The unheld MSHR with the earliest known release (lowest index on a tie),
  // or nullptr: the top of unheld_releases_, stale entries dropped.
  const Mshr* earliest_unheld() const;
  // The lowest-index MSHR promised exclusively to the requester that is
  // free at `start`; nullptr if none.
  const Mshr* own_free_hold(const MemClient* client, uint64_t tag, uint64_t start) const;
  void list_every_mshr_unheld();
  uint32_t index_of(const Mshr* m) const { return static_cast<uint32_t>(m - mshrs_.data()); }

  // An MSHR with a known release and no hold, as unheld_releases_ lists it.
  struct UnheldRelease {
    uint64_t release;
    uint32_t mshr, version;
    bool operator>(const UnheldRelease& o) const { return release != o.release ? release > o.release : mshr > o.mshr; }
  };
  // A requester refused while no release was known. Indexed so that no
  // request scans them (a saturated L1 has hundreds): waiting_seq_ says
  // which requesters wait and which FIFO entry is theirs; an entry whose
  // requester came back on its own stays in the FIFO, stale, until it
  // reaches the front.
  struct Waiter {
    MemClient* client;
    uint64_t tag;
    bool exclusive;  // needs a single MSHR: the release it is promised is kept for it
    uint64_t seq;    // waiting_seq_'s value for it while it is live
  };

  std::vector<Mshr> mshrs_;
  // How many MSHRs are held in all and how many of those non-exclusively.
  uint32_t held_ = 0, held_plain_ = 0;
  RequesterTable<uint64_t> waiting_seq_;
  std::deque<Waiter> waiting_;
  uint64_t next_waiter_seq_ = 0;
  // The first MSHR promised to each requester (the rest linked through
  // prev_held/next_held).
  RequesterTable<uint32_t> holds_;
  // Every unheld MSHR with a known release, earliest first (a min-heap with
  // stale entries dropped lazily, hence mutable: the const lookups tidy it).
  mutable std::priority_queue<UnheldRelease, std::vector<UnheldRelease>, std::greater<UnheldRelease>>
      unheld_releases_;
  std::vector<uint64_t> releases_scratch_;  // retry_cycle's buffer
};

}  // namespace td::mem

#include "model/mem/mshr.h"

#include <algorithm>
#include <cassert>

namespace td::mem {

MshrFile::MshrFile(uint32_t count) : mshrs_(count) { list_every_mshr_unheld(); }

void MshrFile::list_every_mshr_unheld() {
  unheld_releases_ = {};
  for (uint32_t i = 0; i < mshrs_.size(); ++i) unheld_releases_.push(UnheldRelease{mshrs_[i].release, i, mshrs_[i].version});
}

void MshrFile::clear() {
  std::fill(mshrs_.begin(), mshrs_.end(), Mshr{});
  waiting_.clear();
  waiting_seq_.clear();
  holds_.clear();
  held_ = held_plain_ = 0;
  list_every_mshr_unheld();
}

uint64_t MshrFile::lacking(uint64_t needed, uint64_t start, const MemClient* client, uint64_t tag) const {
  // One MSHR, and no hold that anyone may use: free exactly when the
  // earliest unheld release has passed or one promised to this requester
  // has (no scan).
  if (needed == 1 && held_plain_ == 0) {
    const Mshr* earliest = earliest_unheld();
    return (earliest && earliest->release <= start) || (held_ > 0 && own_free_hold(client, tag, start)) ? 0 : 1;
  }
  // Counting stops once there are enough: only a refusal needs the total.
  uint64_t free = 0;
  for (const Mshr& m : mshrs_)
    if (free_for(m, start, client, tag) && ++free >= needed) return 0;
  return needed - free;
}

uint32_t MshrFile::take(uint64_t start, const MemClient* client, uint64_t tag, uint64_t line, Traffic traffic) {
  const Mshr* own = held_ > 0 && client ? own_free_hold(client, tag, start) : nullptr;
  const uint32_t index =
      own ? index_of(own)
          : static_cast<uint32_t>(std::find_if(mshrs_.begin(), mshrs_.end(),
                                               [&](const Mshr& m) {
                                                 return (!m.held_by || !m.exclusive) && free_at(m, start);
                                               }) -
                                  mshrs_.begin());
  assert(index < mshrs_.size());
  unhold(index, /*relist=*/false);  // taken at once: not an unheld release
  Mshr& m = mshrs_[index];
  m.release = kUnknown;
  ++m.version;
  m.line = line;
  m.asked = false;
  m.traffic = traffic;
  return index;
}

bool MshrFile::set_release(uint32_t index, uint64_t cycle) {
  Mshr& m = mshrs_[index];
  if (m.release != kUnknown) return false;  // not waiting for a fill
  m.release = cycle;
  ++m.version;
  if (!m.held_by) unheld_releases_.push(UnheldRelease{cycle, index, m.version});
  return true;
}

void MshrFile::promise_releases(uint64_t now) {
  while (!waiting_seq_.empty()) {
    const Mshr* earliest = earliest_unheld();
    if (!earliest) return;
    // The first live waiter (stale entries: requesters that came back).
    for (;;) {
      const Waiter& front = waiting_.front();
      const uint64_t* live = waiting_seq_.find(front.client, front.tag);
      if (live && *live == front.seq) break;
      waiting_.pop_front();
    }
    const Waiter waiter = waiting_.front();
    waiting_.pop_front();
    waiting_seq_.erase(waiter.client, waiter.tag);
    const uint32_t index = index_of(earliest);
    const uint64_t release = earliest->release;
    hold(index, waiter.client, waiter.tag, waiter.exclusive);
    waiter.client->mem_retry(waiter.tag, std::max(release, now));
  }
}

void MshrFile::park(MemClient* client, uint64_t tag, bool exclusive) {
  if (!waiting_seq_.emplace(client, tag, next_waiter_seq_).second) return;
  waiting_.push_back(Waiter{client, tag, exclusive, next_waiter_seq_++});
  // Stale entries behind a live front are dropped only when they reach it:
  // rebuild the FIFO when they outnumber the live ones.
  if (waiting_.size() > 2 * waiting_seq_.size() + 64) {
    std::deque<Waiter> live;
    for (const Waiter& w : waiting_) {
      const uint64_t* seq = waiting_seq_.find(w.client, w.tag);
      if (seq && *seq == w.seq) live.push_back(w);
    }
    waiting_.swap(live);
  }
}

void MshrFile::release_holds_of(const MemClient* client, uint64_t tag, uint64_t cycle) {
  waiting_seq_.erase(client, tag);  // its FIFO entry goes stale
  if (held_ > 0) {
    if (const uint32_t* first = holds_.find(client, tag)) {
      for (uint32_t index = *first; index != kNoMshr;) {
        const uint32_t next = mshrs_[index].next_held;
        unhold(index);
        index = next;
      }
    }
  }
  promise_releases(cycle);
}

void MshrFile::hold(uint32_t index, MemClient* client, uint64_t tag, bool exclusive) {
  Mshr& m = mshrs_[index];
  m.held_by = client;
  m.held_tag = tag;
  m.exclusive = exclusive;
  ++m.version;  // off the list of unheld releases
  ++held_;
  if (!exclusive) ++held_plain_;
  // First in the requester's list.
  uint32_t& first = *holds_.emplace(client, tag, kNoMshr).first;
  m.prev_held = kNoMshr;
  m.next_held = first;
  if (first != kNoMshr) mshrs_[first].prev_held = index;
  first = index;
}

void MshrFile::unhold(uint32_t index, bool relist) {
  Mshr& m = mshrs_[index];
  if (!m.held_by) return;
  // Out of the requester's list (the list and its entry go with its last MSHR).
  if (m.next_held != kNoMshr) mshrs_[m.next_held].prev_held = m.prev_held;
  if (m.prev_held != kNoMshr) {
    mshrs_[m.prev_held].next_held = m.next_held;
  } else if (m.next_held != kNoMshr) {
    *holds_.find(m.held_by, m.held_tag) = m.next_held;
  } else {
    holds_.erase(m.held_by, m.held_tag);
  }
  m.prev_held = m.next_held = kNoMshr;
  --held_;
  if (!m.exclusive) --held_plain_;
  m.held_by = nullptr;
  ++m.version;
  if (relist && m.release != kUnknown) unheld_releases_.push(UnheldRelease{m.release, index, m.version});
}

const MshrFile::Mshr* MshrFile::earliest_unheld() const {
  while (!unheld_releases_.empty()) {
    const UnheldRelease& top = unheld_releases_.top();
    const Mshr& m = mshrs_[top.mshr];
    if (m.version == top.version) return &m;
    unheld_releases_.pop();
  }
  return nullptr;
}

const MshrFile::Mshr* MshrFile::own_free_hold(const MemClient* client, uint64_t tag, uint64_t start) const {
  const uint32_t* first = holds_.find(client, tag);
  const Mshr* best = nullptr;
  for (uint32_t index = first ? *first : kNoMshr; index != kNoMshr; index = mshrs_[index].next_held) {
    const Mshr& m = mshrs_[index];
    if (m.exclusive && free_at(m, start) && (!best || &m < best)) best = &m;
  }
  return best;
}

uint64_t MshrFile::retry_cycle(uint64_t start, uint64_t more, MemClient* client, uint64_t tag, bool single) {
  if (client && held_ > 0) {
    // Promised one already (it came back early): then (the lowest-index one).
    const uint32_t* first = holds_.find(client, tag);
    const Mshr* promised = nullptr;
    for (uint32_t index = first ? *first : kNoMshr; index != kNoMshr; index = mshrs_[index].next_held) {
      const Mshr& m = mshrs_[index];
      if (m.release != kUnknown && m.release > start && (!promised || &m < promised)) promised = &m;
    }
    if (promised) return promised->release;
  }
  if (single) {
    // The earliest known release promised to nobody; promised to this client.
    // (An unheld release at or before `start` would have been free for this
    // one-MSHR request, which lacking() then allows: the earliest lies after.)
    const Mshr* earliest = earliest_unheld();
    assert(!earliest || earliest->release > start);
    if (earliest) {
      const uint64_t release = earliest->release;
      if (client) hold(index_of(earliest), client, tag, true);
      return release;
    }
  } else {
    // Several MSHRs at once (a request over several lines): when enough of
    // the known releases have passed.
    // (The more-th earliest: a selection, not a sort, into a kept buffer —
    // refusals of wide requests can be many when MSHRs stay busy for long.)
    std::vector<uint64_t>& releases = releases_scratch_;
    releases.clear();
    for (const Mshr& m : mshrs_)
      if (!free_at(m, start) && m.release != kUnknown) releases.push_back(m.release);
    if (releases.size() >= more) {
      const auto nth = releases.begin() + static_cast<std::ptrdiff_t>(more - 1);
      std::nth_element(releases.begin(), nth, releases.end());
      return *nth;
    }
  }
  if (!client) return start + 1;  // nobody to tell: poll
  park(client, tag, single);
  return kRetryWhenTold;
}

uint32_t MshrFile::in_use(uint64_t cycle) const {
  uint32_t busy = 0;
  for (const Mshr& m : mshrs_) busy += !free_at(m, cycle);
  return busy;
}

uint32_t MshrFile::fills_not_known() const {
  uint32_t unknown = 0;
  for (const Mshr& m : mshrs_) unknown += m.release == kUnknown;
  return unknown;
}

}  // namespace td::mem

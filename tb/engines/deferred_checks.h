// deferred_checks.h — checks against the golden reference kept per TD until
// the chip asks for them (WaveClient::process_returned), maybe on another
// thread than the one that took the result: each TD has its own pending
// items and its own scoreboard, and the scoreboards merge in TD order. A
// TD's pending storage is reused from clock to clock (no allocation per
// result). The wave feeder keeps whole instructions, the traversal shader
// lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tb/engines/scoreboard.h"

namespace td::tb {

template <typename Item>
class DeferredChecks {
 public:
  explicit DeferredChecks(size_t tds = 0) : tds_(tds) {}

  // A slot for one more of TD `td`'s items, to be filled by the caller (it
  // may hold an earlier item's storage: set every field, or swap in).
  Item& next_slot(uint32_t td) {
    Td& checks = tds_.at(td);
    if (checks.waiting == checks.pending.size()) checks.pending.emplace_back();
    return checks.pending[checks.waiting++];
  }
  // Runs `check(board, item)` on TD `td`'s pending items, in the order kept.
  template <typename Check>
  void run(uint32_t td, Check&& check) {
    Td& checks = tds_[td];
    for (size_t k = 0; k < checks.waiting; ++k) check(checks.board, checks.pending[k]);
    checks.waiting = 0;
  }
  // Every TD's pending items run, then the TDs' scoreboards merged into
  // `out` (after what it holds), in TD order.
  template <typename Check>
  void merge_into(Scoreboard& out, Check&& check) {
    for (uint32_t td = 0; td < tds_.size(); ++td) {
      run(td, check);
      out.merge(tds_[td].board);
    }
  }

 private:
  struct Td {
    std::vector<Item> pending;  // the first `waiting` are live
    size_t waiting = 0;
    Scoreboard board;
  };
  std::vector<Td> tds_;
};

}  // namespace td::tb

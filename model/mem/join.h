// join.h — a request answered in parts (its lines, or its slices' shares):
// ready when its last part is. A request whose parts all answer at once is
// ready at once; one with a part still on its way down is pending, and its
// client hears the ready cycle when the last part lands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "model/mem/mem_level.h"

namespace td::mem {

class JoinTable {
 public:
  // A new request whose answered parts are ready at `ready` so far.
  uint32_t open(MemClient* client, uint64_t tag, uint64_t ready) {
    uint32_t id;
    if (free_.empty()) {
      id = static_cast<uint32_t>(joins_.size());
      joins_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
    joins_[id] = Join{client, tag, ready, 0, false};
    return id;
  }
  void add_pending_part(uint32_t id) { ++joins_[id].pending; }
  void add_ready_part(uint32_t id, uint64_t ready) { joins_[id].ready = std::max(joins_[id].ready, ready); }

  // A pending part landed at `cycle`.
  void part_ready(uint32_t id, uint64_t cycle) {
    Join& j = joins_[id];
    j.ready = std::max(j.ready, cycle);
    if (--j.pending != 0 || !j.closed) return;
    MemClient* client = j.client;
    const uint64_t tag = j.tag, ready = j.ready;
    free_.push_back(id);
    client->mem_ready(tag, ready);
  }

  // Every part has been asked. Returns the response for the requester:
  // ready (and the join freed) or pending (its client will be told).
  MemResponse close(uint32_t id, bool hit) {
    Join& j = joins_[id];
    j.closed = true;
    if (j.pending == 0) {
      free_.push_back(id);
      return MemResponse{true, j.ready, hit, false};
    }
    if (!j.client) throw std::logic_error("memory: a pending answer needs a MemClient");
    return MemResponse{true, 0, false, true};
  }

  void clear() {
    joins_.clear();
    free_.clear();
  }

 private:
  struct Join {
    MemClient* client = nullptr;
    uint64_t tag = 0;
    uint64_t ready = 0;
    uint32_t pending = 0;
    bool closed = false;
  };
  std::vector<Join> joins_;
  std::vector<uint32_t> free_;
};

}  // namespace td::mem

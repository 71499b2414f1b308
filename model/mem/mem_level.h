// mem_level.h — one level of the memory hierarchy as the TD's node fetch sees
// it. The memory subsystem is timed by reservation: a request made at cycle
// `cycle` is answered at once with the cycle its data will be ready, computed
// from the level's hit latency, its MSHRs, the bytes per clock of its port
// and the levels below. Nothing here ticks every clock, so an idle memory
// costs nothing; the answers are exact for the modelled resources and
// deterministic (requests are served in the order they are made).
// Data is not carried: bytes come from the run's MemoryImage when the TD
// consumes them. No SystemC, no knowledge of the TD.
#pragma once

#include <cstdint>

namespace td::mem {

struct MemResponse {
  bool accepted = false;
  // accepted: the cycle the requested bytes are available to the requester.
  // rejected (MSHRs full): the earliest cycle a retry can be accepted.
  uint64_t cycle = 0;
  bool hit = false;  // accepted and served by this level without a miss
};

class MemLevel {
 public:
  virtual ~MemLevel() = default;
  // `bytes` at `address` (the range may span several lines), requested at
  // `cycle`. A level serves requests in the order they are made; one that
  // arrives with an earlier `cycle` than one already served (a miss from a
  // slower path) queues behind it — a known approximation, see
  // docs/timing-model.md "Memory".
  virtual MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle) = 0;
  // Drops all cached lines and pending state (between independent batches).
  virtual void invalidate() = 0;
};

}  // namespace td::mem

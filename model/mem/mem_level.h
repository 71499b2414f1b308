// mem_level.h — one level of the memory hierarchy as its requester sees it.
// A request made at cycle `cycle` is answered at once: refused (MSHRs full,
// retry at `cycle`), ready (data at `cycle`), or pending — the data's cycle
// is not known yet (a miss on its way down) and the requester's MemClient
// is told when it is. Levels are timed by reservation (hit latency, MSHRs
// with miss merging, port bytes per clock), and misses reach the next level
// as events at their arrival cycle (event_queue.h), so each level serves its
// requests in cycle order. Data is not carried: bytes come from the run's
// MemoryImage when the TD consumes them. No SystemC, no knowledge of the TD.
#pragma once

#include <cstdint>

namespace td::mem {

struct MemResponse {
  bool accepted = false;
  // accepted and not pending: the cycle the requested bytes are available.
  // refused: the earliest cycle a retry can be accepted, or kRetryWhenTold.
  uint64_t cycle = 0;
  bool hit = false;      // accepted and served by this level without a miss
  bool pending = false;  // accepted; MemClient::mem_ready will give the cycle
};

// What a request carries, for the per-kind counters a level keeps when told
// to (a BVH node for the TD's datapaths, or a shader's vector-load data):
// its timing is the same either way. A miss passes its kind down with it (a
// line first missed by a node fetch stays a node line when a load merges
// into its fill).
enum class Traffic : uint8_t { kNode, kLoad };

// A requester that can wait for a pending answer.
class MemClient {
 public:
  virtual ~MemClient() = default;
  // The request made with `tag` is ready at `cycle` (never before the call).
  virtual void mem_ready(uint64_t tag, uint64_t cycle) = 0;
  // A request refused with kRetryWhenTold may be made again from `cycle`.
  virtual void mem_retry(uint64_t tag, uint64_t cycle) = 0;
};

// A refusal's retry cycle when no MSHR's release is known yet: the level
// calls the client's mem_retry() as soon as one is.
constexpr uint64_t kRetryWhenTold = UINT64_MAX;

class MemLevel {
 public:
  virtual ~MemLevel() = default;
  // `bytes` at `address` (the range may span several lines), requested at
  // `cycle`; requests to one level come in non-decreasing `cycle` order. A
  // pending answer needs `client` (else std::logic_error).
  virtual MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client = nullptr,
                             uint64_t tag = 0, Traffic traffic = Traffic::kNode) = 0;
  // Drops all cached lines and pending state (between independent batches).
  virtual void invalidate() = 0;
};

}  // namespace td::mem

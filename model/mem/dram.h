// dram.h — DRAM as a latency plus a bandwidth: `channels` channels
// interleaved by `interleave_bytes`, each moving bytes_per_clock_per_channel
// bytes a clock. A request is ready `latency_cycles` after its channel's
// transfer ends. No banks or refresh: the level the TD sees is the L2 miss
// path, whose throughput the bandwidth bounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/mem/mem_level.h"
#include "model/sim/stats.h"

namespace td::mem {

// No defaults of their own (model/chip/model_params.h makes them from a
// configuration's dram section); Dram refuses timing it cannot be.
struct DramTiming {
  uint32_t channels = 0;
  uint32_t interleave_bytes = 0;
  double bytes_per_clock_per_channel = 0;  // may be fractional (GB/s / clock)
  uint32_t latency_cycles = 0;
};

class Dram final : public MemLevel {
 public:
  Dram(const DramTiming& timing, const sim::StatGroup& stats);
  // Never rejects (DRAM queues are modelled by bandwidth alone).
  // Always ready at once (DRAM is the last level: no miss to wait for).
  MemResponse access(uint64_t address, uint32_t bytes, uint64_t cycle, MemClient* client = nullptr,
                     uint64_t tag = 0, Traffic traffic = Traffic::kNode) override;
  // Frees every channel (between independent batches, as Cache::invalidate).
  void invalidate() override;
  // Its transfers still queued at `cycle`, for a deadlock report: one line
  // under its hierarchical name.
  std::string describe(uint64_t cycle) const;

 private:
  MemResponse serve(uint64_t address, uint32_t bytes, uint64_t cycle);
  // A channel has been busy without a gap since `origin` and has moved
  // `bytes` since then: it is free at origin + bytes / bytes_per_clock. One
  // division from an integer origin, never a running sum of fractions, so a
  // fractional bandwidth costs no rounding drift however long the run.
  struct Channel {
    uint64_t origin = 0;
    uint64_t bytes = 0;
  };
  DramTiming timing_;
  uint32_t interleave_shift_ = 0;  // log2(interleave_bytes)
  std::vector<Channel> channels_;
  sim::Counter& requests_;
  sim::Counter& bytes_;
  std::string name_;  // hierarchical, for debug lines
};

}  // namespace td::mem

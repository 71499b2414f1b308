// wave.h — one image_bvh[64]_intersect_ray instruction of one wave, as a SIMD
// hands it to the TD (32 or 64 lanes, one descriptor), and what comes back.
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/lane.h"

namespace td {

struct WaveInstr {
  uint64_t id = 0;  // unique within a run: scoreboards match results by it
  Descriptor descriptor;
  std::vector<LaneInput> lanes;  // 32 or 64; EXEC is each lane's `exec`

  static constexpr uint32_t kMaxLanes = 64;
};

struct WaveResult {
  uint64_t id = 0;
  std::vector<LaneResult> lanes;  // same order as WaveInstr::lanes
  uint64_t accept_cycle = 0;      // the TD took the instruction
  uint64_t complete_cycle = 0;    // results back at the wave
};

}  // namespace td

// wave.h — one wave instruction as a SIMD hands it to the TD (32 or 64
// lanes, EXEC per lane), and what comes back. Two kinds travel the same
// stream and return in the order the TD accepted them:
//  - kIntersect: image_bvh[64]_intersect_ray. Each lane's node pointer and
//    ray (LaneInput), one descriptor for the instruction.
//  - kLoad: a vector memory load (buffer_load_dword[x2,x3,x4],
//    global_load_dword*). Each lane's byte address and dword count, 1 to 4
//    (LaneInput::load_address(), LaneInput::load_dwords), inside one 64-byte
//    unit (model/ref/load.h); the descriptor is not used. The lane's result
//    is the dwords read, little-endian, the rest 0.
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/lane.h"

namespace td {

enum class InstrKind : uint8_t { kIntersect, kLoad };

inline const char* instr_kind_name(InstrKind kind) { return kind == InstrKind::kLoad ? "load" : "intersect"; }

struct WaveInstr {
  uint64_t id = 0;  // unique within a run: scoreboards match results by it
  InstrKind kind = InstrKind::kIntersect;
  Descriptor descriptor;         // kIntersect's
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

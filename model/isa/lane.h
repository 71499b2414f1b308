// lane.h — one lane's operands of image_bvh[64]_intersect_ray and its result.
// LaneInput holds the raw VGPR dwords exactly as the instruction receives
// them (f32 or A16-packed); Ray is the binary32 view every datapath uses.
#pragma once

#include <array>
#include <cstdint>

#include "model/isa/node.h"

namespace td {

enum class Opcode : uint8_t { kBvh, kBvh64 };

// The ray after A16 widening: every component binary32.
struct Ray {
  float extent = 0;
  Vec3 origin{};
  Vec3 dir{};
  Vec3 inv_dir{};
};

struct LaneInput {
  Opcode op = Opcode::kBvh;
  bool a16 = false;
  bool exec = true;
  uint64_t node_ptr = 0;
  // extent, origin.xyz, then dir.xyz, inv_dir.xyz (a16 = false: 10 dwords) or
  // the three packed words w0..w2 (a16 = true: 7 dwords, the rest unused).
  std::array<uint32_t, 10> ray_dwords{};

  static constexpr int kRayDwordsF32 = 10;
  static constexpr int kRayDwordsA16 = 7;
  int ray_dword_count() const { return a16 ? kRayDwordsA16 : kRayDwordsF32; }

  NodePtr pointer() const { return NodePtr{node_ptr, op == Opcode::kBvh64}; }

  // Widens the operands to binary32 (exact for A16).
  Ray ray() const;

  // Builders: from a binary32 ray, and from one whose dir/inv_dir are A16.
  static LaneInput from_ray(const Ray& ray, uint64_t node_ptr, Opcode op = Opcode::kBvh);
  static LaneInput from_a16(float extent, const Vec3& origin, const std::array<uint16_t, 3>& dir,
                            const std::array<uint16_t, 3>& inv_dir, uint64_t node_ptr,
                            Opcode op = Opcode::kBvh);
};

// Why a lane produced what it did: the timing model and reports count these.
enum class LaneOutcome : uint8_t {
  kInactive,         // EXEC off or NaN/Inf operand: no fetch, no write
  kDescriptorFault,  // descriptor breaks a "must": all ones, no fetch
  kReservedType,     // node type 6 or 7: all ones, no fetch
  kOutOfBounds,      // node past descriptor size: all ones, no fetch
  kBoxNode,          // four ray/box tests performed
  kTriangle,         // one ray/triangle test performed
};

const char* outcome_name(LaneOutcome outcome);

struct LaneResult {
  bool written = false;  // false: the lane writes nothing (inactive)
  std::array<uint32_t, 4> dwords{};
  LaneOutcome outcome = LaneOutcome::kInactive;

  static LaneResult no_write() { return LaneResult{}; }
  static LaneResult all_ones(LaneOutcome why) {
    return LaneResult{true, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, why};
  }

  // What an observer of the VGPRs sees: whether it wrote, and the dwords.
  bool same_value(const LaneResult& other) const {
    return written == other.written && (!written || dwords == other.dwords);
  }
};

}  // namespace td

// lane.h — one lane's operands of a wave instruction (wave.h) and its result.
// For image_bvh[64]_intersect_ray, LaneInput holds the raw VGPR dwords
// exactly as the instruction receives them (f32 or A16-packed); Ray is the
// binary32 view every datapath uses. For a vector memory load it holds the
// lane's byte address and dword count (LaneInput::load()).
#pragma once

#include <array>
#include <cstdint>
#include <string>

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
  Opcode op = Opcode::kBvh;  // intersect: BVH or BVH64
  bool a16 = false;          // intersect: the ray's dir and inv_dir are A16
  bool exec = true;
  uint8_t load_dwords = 0;   // load: dwords read, 1 to 4
  // Intersect: the node pointer. Load: the byte address (load_address()).
  uint64_t node_ptr = 0;
  // extent, origin.xyz, then dir.xyz, inv_dir.xyz (a16 = false: 10 dwords) or
  // the three packed words w0..w2 (a16 = true: 7 dwords, the rest unused).
  std::array<uint32_t, 10> ray_dwords{};

  static constexpr int kRayDwordsF32 = 10;
  static constexpr int kRayDwordsA16 = 7;
  int ray_dword_count() const { return a16 ? kRayDwordsA16 : kRayDwordsF32; }

  NodePtr pointer() const { return NodePtr{node_ptr, op == Opcode::kBvh64}; }

  // A load lane's operands: the byte address of its first dword, and the
  // bytes it reads (4 per dword).
  uint64_t load_address() const { return node_ptr; }
  uint32_t load_bytes() const { return 4u * load_dwords; }

  // Widens the operands to binary32 (exact for A16).
  Ray ray() const;

  // Builders: from a binary32 ray, and from one whose dir/inv_dir are A16.
  static LaneInput from_ray(const Ray& ray, uint64_t node_ptr, Opcode op = Opcode::kBvh);
  static LaneInput from_a16(float extent, const Vec3& origin, const std::array<uint16_t, 3>& dir,
                            const std::array<uint16_t, 3>& inv_dir, uint64_t node_ptr,
                            Opcode op = Opcode::kBvh);
  // A load lane: `dwords` dwords from byte address `address`.
  static LaneInput load(uint64_t address, uint32_t dwords, bool exec = true);
};
static_assert(sizeof(LaneInput) == 56, "a load's operands fit in an intersect lane's");

// Why a lane produced what it did: the timing model and reports count these.
enum class LaneOutcome : uint8_t {
  kInactive,         // EXEC off or NaN/Inf operand: no fetch, no write
  kDescriptorFault,  // descriptor breaks a "must": all ones, no fetch
  kReservedType,     // node type 6 or 7: all ones, no fetch
  kOutOfBounds,      // node past descriptor size: all ones, no fetch
  kBoxNode,          // four ray/box tests performed
  kTriangle,         // one ray/triangle test performed
  kLoad,             // vector memory load: the dwords read
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

// A result as the vector files (.tdv) spell it: "r0,r1,r2,r3" in hex, or
// "none" when the lane writes nothing. Mismatch reports use it too.
std::string format_result(const LaneResult& result);

}  // namespace td

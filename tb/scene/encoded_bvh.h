// encoded_bvh.h — a BVH in the hardware's formats, ready to trace: the
// memory holding its nodes, the descriptor, the root pointer, and the maps
// from a triangle node pointer back to the mesh triangle it tests.
//
// One level (a mesh, --flatten, the `basic` scene): one BVH from the
// descriptor's base (after its parent links, when built with them).
// Two levels (a scene of instances): memory from address 0 holds the TLAS's
// parent links (if any), then the TLAS from the descriptor's base — box nodes, then
// its leaves, the instance nodes (type 6, 128 bytes each, InstanceNode
// below) — then every BLAS, each from a 256-byte boundary, its root (an
// FP32 box node) at its own unit 0 and its child pointers relative to that
// unit. (A BLAS with no usable triangle has no nodes, nor do its instances.) One descriptor spans all of them (base 0): a lane in a BLAS adds the
// BLAS's base to every child pointer it follows (the drivers' BLAS base from
// the instance node). Node pointers are 32-bit while every unit is within
// reach of 29 bits (32 GiB), else the 64-bit form (image_bvh64_intersect_ray).
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/lane.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"
#include "tb/scene/bvh_report.h"
#include "tb/scene/scene.h"
#include "tb/scene/triangle_packing.h"

namespace td::scene {

// Parent links (BvhOptions::parent_links): the parent's node pointer of
// the node at unit u of a BVH whose unit 0 is at byte address B sits at
// B - 4 u - 4 (RADV's layout); the root's is this.
constexpr uint32_t kNoParent = 0xffffffffu;

// Where one BVH's nodes lie in the image and what its triangle slots hold.
struct BvhLayout {
  uint32_t root = 0;                 // node pointer of the root box node, relative to base_unit
  uint64_t base_unit = 0;            // the BVH's unit 0, counted from the descriptor's base
  uint64_t unit_count = 0;           // 64-byte units it spans from base_unit
  uint64_t first_triangle_unit = 0;  // triangle nodes occupy [first_triangle_unit, unit_count) (relative)
  // Mesh primitive of triangle slot 4 * (unit - first_triangle_unit) + t,
  // kNoPrimitive where no triangle is stored. In return mode 0 a node's id
  // is 4 * (unit - first_triangle_unit), so the returned id + t indexes here.
  std::vector<uint32_t> slot_primitive;
  Aabb bounds;  // of the root's stored child boxes
  BvhReport report;

  // Mesh primitive a triangle node pointer (type 0..3, relative to
  // base_unit) tests; kNoPrimitive for a pointer outside the triangle nodes
  // or at an unused slot.
  uint32_t primitive_of(uint64_t node_ptr) const {
    const uint64_t unit = node_ptr >> 3;
    const auto t = static_cast<uint32_t>(node_ptr & 7u);
    if (t > 3 || unit < first_triangle_unit || unit >= unit_count) return kNoPrimitive;
    return slot_primitive[4 * (unit - first_triangle_unit) + t];
  }
};

// The instance node (type 6, 128 bytes: two units, on a 128-byte boundary),
// laid out as RDNA2's (gpurt InstanceDesc.hlsli / InstanceNode1_0.hlsli):
//   bytes   0..47  world-to-object 3x4, rows first (Transform3x4)
//   bytes  48..51  user id (bits 0-23) | mask << 24
//   bytes  52..55  hit-group contribution (bits 0-23) | flags << 24 (0 here)
//   bytes  56..63  the BLAS root's node pointer, 64-bit, absolute (its
//                  unit is the BLAS's base: child pointers add base << 3)
//   bytes  64..67  instance index (the scene's numbering)
//   bytes  68..71  the start node's pointer, relative to the BLAS (gpurt's
//                  sideband blasNodePointer): the root's, or with TAPU a
//                  node below it (scene_bvh.h)
//   bytes  72..79  0
//   bytes  80..127 object-to-world 3x4
// A traversal reads the first 64 bytes (four 16-byte loads), and bytes
// 64..79 too where the image has TAPU entries (EncodedBvh::tapu: gpurt
// reads blasNodePointer when rebraid is on); the rest is for the hit
// (index, object-to-world).
struct InstanceNode {
  Transform3x4 world_to_object;
  uint32_t id = 0;
  uint8_t mask = 0xff;
  uint64_t blas_root = 0;
  uint32_t start = static_cast<uint32_t>(NodeType::kBox32);  // the root, at the BLAS's unit 0
  uint32_t index = 0;
  Transform3x4 object_to_world;
};
constexpr NodeType kInstanceNodeType = NodeType::kReserved6;  // the drivers' "user node 0"
constexpr uint32_t kInstanceNodeBytes = 128;
constexpr uint32_t kInstanceTraversalBytes = 64;      // the part a traversal loads
constexpr uint32_t kInstanceTapuTraversalBytes = 80;  // with TAPU entries: and the start pointer's 16 bytes
void encode_instance(const InstanceNode& node, uint8_t* out /* 128 bytes */);
InstanceNode decode_instance(const uint8_t* bytes /* 128 bytes */);

struct EncodedBvh : BvhLayout {
  // For two levels, the BvhLayout part is the TLAS's (it has no triangles).
  MemoryImage memory;
  Descriptor descriptor;  // base, size, box_sort = 1, box_grow, return mode
  Opcode op = Opcode::kBvh;  // kBvh64 when a unit lies past 32-bit pointers' reach
  bool parent_links = false;  // every BVH in it has its parent links (BvhOptions::parent_links)
  bool tapu = false;          // some instance node starts below its BLAS's root (scene_bvh.h: TAPU)

  // Two levels: every BLAS, by the scene's BLAS index; and the instance
  // nodes, from first_instance_unit two units each, in the order
  // instance_index lists their scene instances (instances of an empty BLAS
  // have no node).
  std::vector<BvhLayout> blases;
  uint64_t first_instance_unit = 0;
  std::vector<uint32_t> instance_index;  // by instance-node ordinal
  std::vector<uint32_t> instance_blas;   // by instance-node ordinal
  SceneReport scene_report;
  bool two_level() const { return !blases.empty(); }

  // The instance node at an absolute node pointer: its ordinal, or
  // kNoPrimitive outside the instance nodes.
  uint32_t instance_ordinal(uint64_t node_ptr) const {
    const uint64_t unit = node_ptr >> 3;
    if (!two_level() || unit < first_instance_unit || (unit - first_instance_unit) / 2 >= instance_index.size())
      return kNoPrimitive;
    return static_cast<uint32_t>((unit - first_instance_unit) / 2);
  }
};

}  // namespace td::scene

// encoded_bvh.h — a BVH in the hardware's formats, ready to trace: the
// memory holding its nodes, the descriptor, the root pointer, and the map
// from a triangle node pointer back to the mesh triangle it tests.
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"
#include "tb/scene/bvh_report.h"
#include "tb/scene/triangle_packing.h"

namespace td::scene {

struct EncodedBvh {
  MemoryImage memory;     // box nodes from unit 0 (root first), then triangle nodes
  Descriptor descriptor;  // base, size, box_sort = 1, box_grow, return mode
  uint32_t root = 0;      // node pointer of the root box node (32-bit form)
  uint64_t unit_count = 0;           // 64-byte units the descriptor spans
  uint64_t first_triangle_unit = 0;  // triangle nodes occupy [first_triangle_unit, unit_count)
  // Mesh primitive of triangle slot 4 * (unit - first_triangle_unit) + t,
  // kNoPrimitive where no triangle is stored. In return mode 0 a node's id
  // is 4 * (unit - first_triangle_unit), so the returned id + t indexes here.
  std::vector<uint32_t> slot_primitive;
  Aabb bounds;  // of the root's stored child boxes
  BvhReport report;

  // Mesh primitive a triangle node pointer (type 0..3) tests; kNoPrimitive
  // for a pointer outside the triangle nodes or at an unused slot.
  uint32_t primitive_of(uint32_t node_ptr) const {
    const uint64_t unit = node_ptr >> 3;
    const uint32_t t = node_ptr & 7u;
    if (t > 3 || unit < first_triangle_unit || unit >= unit_count) return kNoPrimitive;
    return slot_primitive[4 * (unit - first_triangle_unit) + t];
  }
};

}  // namespace td::scene

// bvh_tree.h — a 4-wide BVH as the builder leaves it and the encoder reads
// it: box nodes whose up to four slots each hold a box node or exactly one
// triangle (an index into the input mesh) — or, in a TLAS, exactly one
// instance (an index into the scene's instances). No memory layout, no
// formats yet.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/isa/node.h"

namespace td::scene {

struct BvhSlot {
  Aabb bounds;              // binary32, exact: rounding to FP16 is the encoder's
  bool is_triangle = false;  // a leaf: a triangle (BLAS) or an instance (TLAS)
  uint32_t index = 0;       // a BvhTree::nodes index, or the leaf's primitive or instance index
};

struct BvhBoxNode {
  std::array<BvhSlot, 4> slots{};
  uint32_t slot_count = 0;  // 1..4, slots [0, slot_count) used
};

struct BvhTree {
  // nodes[0] is the root; every other node is the child of exactly one slot,
  // and is listed after its parent (depth-first preorder).
  std::vector<BvhBoxNode> nodes;
  uint32_t depth = 0;                // box-node levels on the longest path (root alone: 1)
  uint64_t triangle_references = 0;  // triangle slots; > triangles when spatial splits duplicated some
};

}  // namespace td::scene

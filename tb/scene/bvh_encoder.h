// bvh_encoder.h — lays a BvhTree out in the hardware node formats (FP16 or
// FP32 box nodes, packed triangle nodes) through model/isa's encode_*, the
// one node writer every tool shares.
#pragma once

#include <functional>
#include <vector>

#include "tb/scene/bvh_options.h"
#include "tb/scene/bvh_tree.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// Layout: box nodes from unit 0 in the tree's preorder (root first), each
// FP32 node on a 128-byte boundary (one L0 line; a later FP16 node fills the
// 64-byte hole it may leave); then the triangle nodes in packing order,
// which follows the tree's leaf order. A slot whose node is FP16 stores its
// box rounded outward (it always contains the child's geometry), and a slot
// holding a box node stores the union of that node's stored boxes, so every
// stored box contains every stored box below it.
// The report's build_seconds is left for the caller, which ran the build.
EncodedBvh encode_bvh(const Mesh& mesh, const BvhTree& tree, const BvhOptions& options);

// The same layout written into `memory` from the absolute unit `place`
// returns when given the BVH's size in units (its parent links, if any,
// go in the 4 x units bytes before it: `place` leaves room); the layout's
// base_unit is that unit, its pointers relative to it. `root_fp32` keeps
// the root an FP32 box node (a BLAS's, as the drivers' traversal expects).
BvhLayout encode_bvh_into(const Mesh& mesh, const BvhTree& tree, const BvhOptions& options, bool root_fp32,
                          const std::function<uint64_t(uint64_t units)>& place, MemoryImage& memory);

// Bytes of parent links before a BVH of `units` units, rounded up so that
// the BVH after them starts on a 256-byte boundary.
inline uint64_t link_region_bytes(uint64_t units) { return (4 * units + 255) / 256 * 256; }

// The descriptor of a BVH at `base_address` spanning `unit_count` units.
Descriptor bvh_descriptor(uint64_t base_address, uint64_t unit_count, const BvhOptions& options);

// The box-node part of an encoding, shared by the BLAS and the TLAS
// encoders: each tree node's boxes (stored boxes of the nodes below, FP16
// ones rounded outward), format and unit (relative to the BVH's unit 0).
struct BoxNodes {
  std::vector<BoxNode> boxes;
  std::vector<bool> fp16;
  std::vector<uint64_t> unit;
  uint64_t unit_count = 0;
  uint64_t padding_units = 0;
};
// Which box nodes are FP16 (bvh_options.h: Fp16Policy; the threshold for mixed).
struct Fp16Choice {
  Fp16Policy policy = Fp16Policy::kMixed;
  double threshold = 0;
  static Fp16Choice of(const BvhOptions& options) { return {options.fp16, options.fp16_threshold}; }
  static Fp16Choice fp32() { return {Fp16Policy::kNone, 0}; }
};
BoxNodes plan_box_nodes(const BvhTree& tree, const Fp16Choice& choice, bool root_fp32);
// Writes the box nodes at the absolute unit out.base_unit; a leaf slot's
// child pointer is leaf_pointer(tree node, slot). Sets out.root, out.bounds
// and the report's box counts, padding, depth, FP16 fraction and SAH cost.
// `links` (by unit; nullptr: none kept) gets each child's parent pointer.
void write_box_nodes(const BvhTree& tree, const BoxNodes& nodes,
                     const std::function<uint32_t(uint32_t node, uint32_t slot)>& leaf_pointer, MemoryImage& memory,
                     BvhLayout& out, std::vector<uint32_t>* links = nullptr);

// Writes `links` (by unit of the BVH at absolute unit base_unit) before it.
void write_parent_links(const std::vector<uint32_t>& links, uint64_t base_unit, MemoryImage& memory);

// True when a box node whose first `slot_count` boxes are these is stored as
// FP16 under `fp16_threshold` (see BvhOptions): rounding outward grows the
// boxes' total surface area by at most that fraction.
bool use_fp16(const BoxNode& boxes, uint32_t slot_count, double fp16_threshold);

}  // namespace td::scene

// bvh_encoder.h — lays a BvhTree out in the hardware node formats (FP16 or
// FP32 box nodes, packed triangle nodes) through model/isa's encode_*, the
// one node writer every tool shares.
#pragma once

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

// True when a box node whose first `slot_count` boxes are these is stored as
// FP16 under `fp16_threshold` (see BvhOptions): rounding outward grows the
// boxes' total surface area by at most that fraction.
bool use_fp16(const BoxNode& boxes, uint32_t slot_count, double fp16_threshold);

}  // namespace td::scene

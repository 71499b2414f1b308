// runtime_build.h — the builders drivers run on the GPU at run time, on the
// host: LBVH (Karras, "Maximizing Parallelism in the Construction of BVHs,
// Octrees, and k-d Trees", HPG 2012) and PLOC (Meister and Bittner,
// "Parallel Locally-Ordered Clustering for Bounding Volume Hierarchy
// Construction", TVCG 2018), each over 30-bit Morton codes of the leaves'
// box centres, into a binary tree collapsed to 4-wide as RADV's encode.comp
// does: a node's children are its two, then the child of largest surface
// area opened in turn while fewer than four. Every leaf (a triangle or an
// instance) is one slot. Deterministic: ties break on the leaf's index, and
// the result depends on nothing but the boxes: not on `threads`, the host
// threads the builds' loops run on (the caller's among them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tb/scene/bvh_options.h"
#include "tb/scene/bvh_tree.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// The leaves' boxes (empty ones, min > max, left out) into a 4-wide tree
// by `builder` (kLbvh or kPloc; PLOC's search radius `ploc_radius`, 1..64).
// Throws SceneError naming `name` when no box is usable.
BvhTree build_runtime_tree_of_boxes(const std::vector<Aabb>& boxes, BvhBuilder builder, uint32_t ploc_radius,
                                    const std::string& name, unsigned threads = 1);

// A mesh's usable triangles, as build_bvh_tree (embree_build.h) takes them.
BvhTree build_runtime_tree(const Mesh& mesh, BvhBuilder builder, uint32_t ploc_radius, unsigned threads = 1);

}  // namespace td::scene

// embree_build.h — builds the 4-wide SAH BVH of a mesh with Embree 3's
// rtcBuildBVH (spatial splits at quality high) into a BvhTree.
#pragma once

#include "tb/scene/bvh_options.h"
#include "tb/scene/bvh_tree.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// Degenerate triangles are left out (no ray can hit them). Deterministic:
// Embree runs on one thread (its parallel partition's array order, which
// the fallback split of coincident centroids reads, depends on the thread
// count) and each leaf's triangles are sorted by primitive index.
// Throws SceneError naming the mesh when no triangle is usable.
BvhTree build_bvh_tree(const Mesh& mesh, const BvhOptions& options);

}  // namespace td::scene

// embree_build.h — builds the 4-wide SAH BVH of a mesh with Embree 3's
// rtcBuildBVH (spatial splits at quality high) into a BvhTree.
#pragma once

#include <string>
#include <vector>

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

// The same SAH build (binned, no spatial splits) over arbitrary leaf boxes:
// a TLAS over its instances' world boxes. Leaf slot index i is boxes[i];
// empty boxes (min > max) are left out. `name` names the structure in errors.
BvhTree build_bvh_tree_of_boxes(const std::vector<Aabb>& boxes, const std::string& name, const BvhOptions& options);

}  // namespace td::scene

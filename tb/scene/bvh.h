// bvh.h — mesh to traceable hardware BVH in one call: the tree's build
// (Embree's or a run-time builder), then encoding, timed.
#pragma once

#include "tb/scene/bvh_options.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// Same mesh and options, same bytes (memory, descriptor, root, slot map)
// for any number of host `threads` (the run-time builders' loops run on
// them; Embree's on one); only the report's times differ. Throws
// std::invalid_argument with validate()'s line for bad options, SceneError
// for an unusable mesh.
EncodedBvh build_bvh(const Mesh& mesh, const BvhOptions& options, unsigned threads = 1);

}  // namespace td::scene

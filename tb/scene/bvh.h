// bvh.h — mesh to traceable hardware BVH in one call: Embree build, then
// encoding, timed.
#pragma once

#include "tb/scene/bvh_options.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// Same mesh and options, same bytes (memory, descriptor, root, slot map);
// only the report's times differ. Throws std::invalid_argument with
// validate()'s line for bad options, SceneError for an unusable mesh.
EncodedBvh build_bvh(const Mesh& mesh, const BvhOptions& options);

}  // namespace td::scene

// mesh_import.h — reads a mesh file with Assimp (OBJ, PLY, OFF, STL, glTF,
// ... whatever the installed Assimp imports) into one triangle Mesh.
#pragma once

#include <cstdint>
#include <string>

#include "tb/common/forked_call.h"
#include "tb/scene/mesh.h"
#include "tb/scene/scene.h"

namespace td::scene {

// Polygons are triangulated, node transforms applied (glTF/FBX scenes come
// out in world space), points and lines dropped. Primitive indices are the
// triangles in Assimp's output order: the file's order for single-mesh
// formats (OBJ, OFF, PLY, STL), a polygon counting as its fan of triangles.
// Throws SceneError naming `path` when the file cannot be read, holds no
// triangle, or holds only degenerate ones, and when the importer fails
// inside: Assimp reads in a child process (tb::call_forked), so its
// assertions, hangs and runaway allocations on broken files end that process,
// not this one. Throws sim::Interrupted on SIGINT/SIGTERM meanwhile.
Mesh load_mesh(const std::string& path);

// The child's limits: a minute and 4 GiB, plus 10 s and 64 bytes of address
// space for every byte of the file (a 20 MB, 1 M-triangle mesh: 4 min, 5.3 GiB).
constexpr double kImportBaseSeconds = 60;
constexpr double kImportSecondsPerMiB = 10;
constexpr uint64_t kImportBaseBytes = uint64_t{4} << 30;
constexpr uint64_t kImportBytesPerFileByte = 64;
tb::ForkLimits default_import_limits(const std::string& path);
Mesh load_mesh(const std::string& path, const tb::ForkLimits& limits);

// The file as a two-level scene, its node graph kept (no transforms
// applied): each Assimp mesh is one BLAS, built once however many nodes
// place it; each (node, mesh of aiNode::mMeshes) pair is one instance, with
// the node's transform accumulated from the root (in double, rounded once),
// numbered in a depth-first pre-order walk from the root node, a node's
// meshes in order. Files without a node graph (OBJ, OFF, PLY, STL) come out
// as one identity instance per mesh. A glTF node's extras may set the mask
// of its instances: {"tdsim": {"mask": 0-255}}. Same errors as load_mesh,
// and a mask out of range or a non-finite transform names the node.
Scene load_scene(const std::string& path);
Scene load_scene(const std::string& path, const tb::ForkLimits& limits);

}  // namespace td::scene

// mesh_import.h — reads a mesh file with Assimp (OBJ, PLY, OFF, STL, glTF,
// ... whatever the installed Assimp imports) into one triangle Mesh.
#pragma once

#include <cstdint>
#include <string>

#include "tb/common/forked_call.h"
#include "tb/scene/mesh.h"

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

}  // namespace td::scene

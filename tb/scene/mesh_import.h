// mesh_import.h — reads a mesh file with Assimp (OBJ, PLY, OFF, STL, glTF,
// ... whatever the installed Assimp imports) into one triangle Mesh.
#pragma once

#include <string>

#include "tb/scene/mesh.h"

namespace td::scene {

// Polygons are triangulated, node transforms applied (glTF/FBX scenes come
// out in world space), points and lines dropped. Primitive indices are the
// triangles in Assimp's output order: the file's order for single-mesh
// formats (OBJ, OFF, PLY, STL), a polygon counting as its fan of triangles.
// Throws SceneError naming `path` when the file cannot be read, holds no
// triangle, or holds only degenerate ones.
Mesh load_mesh(const std::string& path);

}  // namespace td::scene

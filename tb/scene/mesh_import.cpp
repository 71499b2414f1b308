#include "tb/scene/mesh_import.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <assimp/Importer.hpp>
#include <fstream>

#include "tb/scene/scene_error.h"

namespace td::scene {

namespace {

// Assimp's messages may span lines; the error must stay one line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

void append_triangles(const aiMesh& source, Mesh& mesh) {
  const auto first_vertex = static_cast<uint32_t>(mesh.positions.size());
  for (unsigned v = 0; v < source.mNumVertices; ++v) {
    const aiVector3D& p = source.mVertices[v];
    mesh.positions.push_back(Vec3{p.x, p.y, p.z});
  }
  for (unsigned f = 0; f < source.mNumFaces; ++f) {
    const aiFace& face = source.mFaces[f];
    if (face.mNumIndices != 3) continue;  // points and lines: nothing to hit
    mesh.triangles.push_back(TriangleIndices{first_vertex + face.mIndices[0], first_vertex + face.mIndices[1],
                                             first_vertex + face.mIndices[2]});
  }
}

// Assimp's PLY reader never returns from a header without its end_header
// line (the mesh fuzz target found it: a truncated ASCII header): a file
// that starts like PLY must end its header within kPlyHeaderBytes.
constexpr size_t kPlyHeaderBytes = 64 * 1024;
void check_ply_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kPlyHeaderBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const bool looks_like_ply = head.rfind("ply\n", 0) == 0 || head.rfind("ply\r\n", 0) == 0;
  if (looks_like_ply && head.find("\nend_header") == std::string::npos)
    throw SceneError(fmt::format("{}: PLY header has no end_header line in its first {} KiB", path,
                                 kPlyHeaderBytes / 1024));
}

}  // namespace

Mesh load_mesh(const std::string& path) {
  // Assimp says "file not found" in its own words; an explicit check names
  // the cause the way every other input error of the tool does.
  if (!std::ifstream(path)) throw SceneError(fmt::format("{}: cannot open mesh file", path));
  check_ply_header(path);

  Assimp::Importer importer;
  // Drop points and lines at import so SortByPType leaves triangle meshes only.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (scene == nullptr)
    throw SceneError(fmt::format("{}: cannot read mesh: {}", path, one_line(importer.GetErrorString())));

  Mesh mesh;
  mesh.name = path;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) append_triangles(*scene->mMeshes[m], mesh);
  if (mesh.triangles.empty()) throw SceneError(fmt::format("{}: mesh has no triangles", path));
  if (usable_triangle_count(mesh) == 0)
    throw SceneError(fmt::format("{}: all {} triangles are degenerate (zero area, non-finite or past 1.844e18)", path,
                                 mesh.triangles.size()));
  return mesh;
}

}  // namespace td::scene

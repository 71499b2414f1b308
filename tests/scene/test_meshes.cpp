#include "tests/scene/test_meshes.h"

#include <filesystem>
#include <fstream>

namespace td::scene::test {

namespace fs = std::filesystem;

std::string small_mesh_path() { return std::string(TDSIM_SOURCE_DIR) + "/tests/data/sphere_and_sheet.off"; }

namespace {

const std::string kCgalMeshes = std::string(TDSIM_SCENE_MESH_DIR) + "/data/meshes";
const std::string kAssimpModels = "/usr/share/assimp/models";

}  // namespace

std::string missing_mesh_packages() {
  std::string missing;
  if (!fs::exists(kCgalMeshes + "/bunny00.off")) missing = "libcgal-demo";
  if (!fs::exists(kAssimpModels + "/OFF/Wuson.off")) missing += std::string(missing.empty() ? "" : ", ") + "assimp-testmodels";
  return missing;
}

std::vector<std::string> real_mesh_paths() {
  const std::vector<std::string> candidates = {
      kCgalMeshes + "/bunny00.off",
      kCgalMeshes + "/elephant.off",
      kAssimpModels + "/OFF/Wuson.off",
      kAssimpModels + "/PLY/Wuson.ply",
  };
  std::vector<std::string> paths;
  for (const auto& path : candidates)
    if (fs::exists(path)) paths.push_back(path);
  paths.push_back(small_mesh_path());
  return paths;
}

std::string largest_mesh_path() { return real_mesh_paths().front(); }

std::string temp_dir(const std::string& test_name) {
  const fs::path dir = fs::temp_directory_path() / ("tdsim_scene_test_" + test_name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

Mesh mesh_of(const std::vector<Vec3>& positions, const std::vector<TriangleIndices>& triangles) {
  Mesh mesh;
  mesh.name = "hand-made mesh";
  mesh.positions = positions;
  mesh.triangles = triangles;
  return mesh;
}

}  // namespace td::scene::test

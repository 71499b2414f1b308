// Mesh import: formats Assimp reads, and the three bad inputs (unreadable,
// empty, all degenerate), each a SceneError whose one line names the file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "tb/scene/mesh_import.h"
#include "tb/scene/scene_error.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

// The SceneError `load_mesh(path)` throws: its message, checked to be one
// line that names the file.
std::string load_error(const std::string& path) {
  try {
    load_mesh(path);
  } catch (const SceneError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << path << ": no SceneError";
  return {};
}

TEST(MeshImport, SmallCommittedMeshLoads) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  EXPECT_EQ(mesh.triangle_count(), 384u);
  EXPECT_EQ(mesh.positions.size(), 207u);
  EXPECT_EQ(usable_triangle_count(mesh), 384u);
  EXPECT_EQ(mesh.name, test::small_mesh_path());
}

TEST(MeshImport, EveryInstalledRealMeshLoads) {
  for (const std::string& path : test::real_mesh_paths()) {
    SCOPED_TRACE(path);
    const Mesh mesh = load_mesh(path);
    EXPECT_GT(usable_triangle_count(mesh), 100u);
  }
}

TEST(MeshImport, ObjQuadsAreTriangulatedInFileOrder) {
  const std::string path = test::temp_dir("obj") + "/quad.obj";
  test::write_file(path,
                   "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
                   "f 1 2 3 4\n"
                   "f 2 5 3\n");
  const Mesh mesh = load_mesh(path);
  ASSERT_EQ(mesh.triangle_count(), 3u);  // the quad's two triangles, then the triangle
  const Vec3& last = mesh.vertex(2, 1);
  EXPECT_EQ(last, (Vec3{2, 0, 0}));
}

TEST(MeshImport, AsciiPlyLoads) {
  const std::string path = test::temp_dir("ply") + "/tri.ply";
  test::write_file(path,
                   "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                   "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
                   "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  const Mesh mesh = load_mesh(path);
  ASSERT_EQ(mesh.triangle_count(), 1u);
  EXPECT_EQ(mesh.vertex(0, 1), (Vec3{1, 0, 0}));
}

TEST(MeshImport, MissingFileIsASceneErrorNamingIt) {
  const std::string message = load_error(test::temp_dir("missing") + "/no_such_mesh.obj");
  EXPECT_NE(message.find("cannot open"), std::string::npos) << message;
}

TEST(MeshImport, UnreadableFileIsASceneErrorNamingIt) {
  const std::string path = test::temp_dir("garbage") + "/garbage.ply";
  test::write_file(path, "ply\nthis is not a ply header\n\x01\x02\x03");
  load_error(path);
}

// Assimp's PLY reader had never returned from these (the mesh fuzz target).
TEST(MeshImport, PlyHeaderWithoutEndHeaderIsASceneErrorNotAHang) {
  const std::string dir = test::temp_dir("truncated");
  test::write_file(dir + "/cut.ply", "ply\nformat ascii 1.0\nelement vertex 3\n");
  EXPECT_NE(load_error(dir + "/cut.ply").find("end_header"), std::string::npos);
  test::write_file(dir + "/fuzzed.ply",
                   "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty floatroperty float x\n"
                   "property float y y");
  EXPECT_NE(load_error(dir + "/fuzzed.ply").find("end_header"), std::string::npos);
  // The same bytes under another name: Assimp knows PLY by its first line too.
  test::write_file(dir + "/cut.mesh", "ply\r\nformat ascii 1.0\r\nelement vertex 3\r\n");
  EXPECT_NE(load_error(dir + "/cut.mesh").find("end_header"), std::string::npos);
}

TEST(MeshImport, EmptyMeshIsASceneErrorNamingIt) {
  const std::string dir = test::temp_dir("empty");
  test::write_file(dir + "/empty.off", "OFF\n0 0 0\n");
  load_error(dir + "/empty.off");
  test::write_file(dir + "/points.obj", "v 0 0 0\nv 1 0 0\n");
  load_error(dir + "/points.obj");
  test::write_file(dir + "/nothing.obj", "");
  load_error(dir + "/nothing.obj");
}

TEST(MeshImport, AllDegenerateMeshIsASceneErrorNamingIt) {
  const std::string path = test::temp_dir("degenerate") + "/flat.off";
  // A repeated corner and three collinear corners: no area anywhere.
  test::write_file(path, "OFF\n4 2 0\n0 0 0\n1 1 1\n2 2 2\n5 0 0\n3 0 1 2\n3 3 3 0\n");
  const std::string message = load_error(path);
  EXPECT_NE(message.find("degenerate"), std::string::npos) << message;
}

TEST(MeshImport, AssimpsOwnInvalidModelsAreSceneErrors) {
  for (const char* name : {"empty.off", "empty.ply", "empty.obj", "malformed.obj"}) {
    const std::string path = std::string("/usr/share/assimp/models/invalid/") + name;
    if (!std::filesystem::exists(path)) continue;  // assimp-testmodels not installed
    SCOPED_TRACE(path);
    load_error(path);
  }
}

TEST(Mesh, DegenerateTrianglesAreRecognised) {
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {NAN, 0, 0}},
                                  {{0, 1, 2}, {0, 1, 3}, {0, 0, 2}, {0, 1, 4}, {0, 2, 1}});
  EXPECT_FALSE(is_degenerate(mesh, 0));
  EXPECT_TRUE(is_degenerate(mesh, 1));  // collinear
  EXPECT_TRUE(is_degenerate(mesh, 2));  // repeated corner
  EXPECT_TRUE(is_degenerate(mesh, 3));  // NaN
  EXPECT_FALSE(is_degenerate(mesh, 4));
  EXPECT_EQ(usable_triangle_count(mesh), 2u);
}

TEST(Mesh, TrianglesPastTheBuildersRangeAreLeftOut) {
  const float edge = std::nextafter(kMaxCoordinate, 0.0f);
  const Mesh mesh = test::mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {edge, 0, 0}, {-kMaxCoordinate, 0, 0}},
                                  {{0, 1, 2}, {0, 3, 2}, {0, 4, 2}});
  EXPECT_FALSE(is_degenerate(mesh, 0));
  EXPECT_FALSE(is_degenerate(mesh, 1));  // just inside
  EXPECT_TRUE(is_degenerate(mesh, 2));   // on the limit
}

}  // namespace
}  // namespace td::scene

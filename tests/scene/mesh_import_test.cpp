// Mesh import: formats Assimp reads, and the three bad inputs (unreadable,
// empty, all degenerate), each a SceneError whose one line names the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>

#include "tb/scene/mesh_import.h"
#include "tb/scene/scene_error.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

// The SceneError `load_mesh(path)` throws: its message, checked to be one
// line that names the file.
std::string load_error(const std::string& path, const tb::ForkLimits& limits) {
  try {
    load_mesh(path, limits);
  } catch (const SceneError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << path << ": no SceneError";
  return {};
}
std::string load_error(const std::string& path) { return load_error(path, default_import_limits(path)); }

TEST(MeshImport, SmallCommittedMeshLoads) {
  const Mesh mesh = load_mesh(test::small_mesh_path());
  EXPECT_EQ(mesh.triangle_count(), 384u);
  EXPECT_EQ(mesh.positions.size(), 207u);
  EXPECT_EQ(usable_triangle_count(mesh), 384u);
  EXPECT_EQ(mesh.name, test::small_mesh_path());
}

TEST(MeshImport, EveryInstalledRealMeshLoads) {
  TDSIM_SKIP_WITHOUT_REAL_MESHES();
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
  // A first line that is not quite "ply" in a .ply file; "end_header" with
  // no line break, or another byte, after it.
  for (const char* text : {"ply\312\nformat ascii 1.0\ncomm", "pLy\nformat ascii 1.0\nend_header",
                           "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\b0\n"}) {
    SCOPED_TRACE(text);
    test::write_file(dir + "/fuzzed.ply", text);
    EXPECT_NE(load_error(dir + "/fuzzed.ply").find("end_header"), std::string::npos);
  }
}

// Inputs the mesh fuzz target found that make Debian's Assimp fail an
// assertion (abort), fault or take a bus error: it reads in a child process,
// so each is one SceneError here (whatever a later Assimp makes of them).
TEST(MeshImport, FilesThatCrashTheImporterAreSceneErrorsNotTheEndOfTheProcess) {
  const std::string dir = test::temp_dir("crashers");
  const char binary_ply[] =
      "ply\nformat binary_lattle_endian 1.0\nelement vertex 4\nproperty float x\nprop\272erty float y\n"
      "property float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n"
      "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200?\000\000";
  const struct {
    const char* name;
    std::string bytes;
  } crashers[] = {
      {"counts_only.off", "OFF\n6 4 0"},  // ai_assert in TriangulateProcess.cpp: abort
      {"faces_first.off",
       "OFF\n6 4 0 1 5 4\n3 2 3 4\n\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n14\n\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n"
       "0 0 1\n1 0 1\n3 0 1 2\n3  0 1\n3 0 1 2\n3 0 2 3\n4 0 1 5 4\n3 2 3 4\n"},  // segmentation fault
      {"bad_format.ply", std::string(binary_ply, sizeof binary_ply - 1)},              // segmentation fault
      {"two_headers.ply",
       "ply\nformat ascii 1.0\ncomment a pyramid\nelement vertex 5\nproperty float x\nproperty float y\n"
       "property float z\nelement face 5\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n"
       "1 1 0\n0 1 0\n0.5 0.5 1\n4 0 1 2 3\n3 0 1 4ces\nend_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 1\n"
       "4 0 1 2 3\n3 0 1 4\n301 2 4\n3\n301 2 4\n3 2 3 4vt \n3 3 0 4\n"},  // bus error
  };
  for (const auto& crasher : crashers) {
    SCOPED_TRACE(crasher.name);
    test::write_file(dir + "/" + crasher.name, crasher.bytes);
    EXPECT_NE(load_error(dir + "/" + crasher.name).find("cannot read mesh"), std::string::npos);
  }
}

TEST(MeshImport, AnImporterPastItsTimeLimitIsASceneError) {
  const std::string path = test::temp_dir("slow") + "/big.obj";
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n";
  test::write_file(path, text);
  tb::ForkLimits limits = default_import_limits(path);
  EXPECT_EQ(limits.seconds, kImportBaseSeconds + kImportSecondsPerMiB * static_cast<double>(text.size()) / (1 << 20));
  limits.seconds = 0.001;
  EXPECT_NE(load_error(path, limits).find("stopped: no answer within 0.001 s"), std::string::npos);
}

TEST(MeshImport, ADirectoryOrAFifoIsASceneErrorNotAHang) {
  const std::string dir = test::temp_dir("not_files");
  EXPECT_NE(load_error(dir).find("not a regular file"), std::string::npos);
  const std::string fifo = dir + "/pipe.obj";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);  // opening it for reading would wait for a writer
  EXPECT_NE(load_error(fifo).find("not a regular file"), std::string::npos);
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
  if (!std::filesystem::exists("/usr/share/assimp/models/invalid"))
    GTEST_SKIP() << "assimp-testmodels not installed: this test needs its invalid models";
  for (const char* name : {"empty.off", "empty.ply", "empty.obj", "malformed.obj"}) {
    const std::string path = std::string("/usr/share/assimp/models/invalid/") + name;
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

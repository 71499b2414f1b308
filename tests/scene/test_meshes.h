// test_meshes.h — the meshes scene tests run on: real ones when their
// packages are installed, the committed small mesh always.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tb/scene/mesh.h"

namespace td::scene::test {

// tests/data/sphere_and_sheet.off: a closed icosphere and an open bent
// sheet, 384 triangles. Always present.
std::string small_mesh_path();

// libcgal-demo's Stanford bunny (75 k triangles) and elephant, assimp-
// testmodels' Wuson (OFF and PLY), whichever are installed, then the small
// mesh: never empty.
std::vector<std::string> real_mesh_paths();

// The Debian packages of the real meshes that are not installed
// ("libcgal-demo", "assimp-testmodels", both comma-separated, or "").
std::string missing_mesh_packages();
// First in a test that is about the real meshes: without them it would
// test the small mesh only and pass for the wrong reason, so it is skipped,
// naming what to install (scripts/bootstrap installs both).
#define TDSIM_SKIP_WITHOUT_REAL_MESHES()                                                    \
  if (const std::string missing = ::td::scene::test::missing_mesh_packages(); !missing.empty()) \
  GTEST_SKIP() << missing << " not installed: this test needs its real meshes"

// The largest real mesh available (the bunny when installed).
std::string largest_mesh_path();

// A fresh directory under the build tree's temp area for files a test writes.
std::string temp_dir(const std::string& test_name);

// Writes `text` to `path` (for malformed-input tests).
void write_file(const std::string& path, const std::string& text);

// A one-triangle-per-call mesh builder for hand-made cases.
Mesh mesh_of(const std::vector<Vec3>& positions, const std::vector<TriangleIndices>& triangles);

}  // namespace td::scene::test

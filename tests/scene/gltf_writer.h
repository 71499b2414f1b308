// gltf_writer.h — writes a Scene as a glTF 2.0 file (JSON plus one .bin
// buffer) with a node graph: the two-level scenes the import and traversal
// tests read back through Assimp, made from real meshes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tb/scene/scene.h"

namespace td::scene::test {

// One glTF node: a local transform, at most one mesh, children by index.
struct GltfNode {
  std::string name;
  Transform3x4 local;
  std::optional<uint32_t> mesh;
  std::vector<uint32_t> children;
  std::optional<int> mask;  // extras {"tdsim": {"mask": N}} (any int, to test the range check)
  std::optional<int> tapu = std::nullopt;  // extras {"tdsim": {"tapu": N}} (any int, likewise)
};

// Writes `path` (.gltf) and `path` + ".bin"; the scene's roots are nodes
// that no other node lists as a child, in index order.
void write_gltf(const std::string& path, const std::vector<Mesh>& meshes, const std::vector<GltfNode>& nodes);

// The instances a two-level import should make of these nodes: depth-first
// pre-order from the roots, transforms accumulated in double.
std::vector<Instance> expected_instances(const std::vector<GltfNode>& nodes);

// A transform from a rotation about a unit axis (radians), a scale per axis
// (negative: mirrored) and a translation: p' = R (S p) + t.
Transform3x4 make_transform(const Vec3& axis, double angle, const Vec3& scale, const Vec3& translation);

}  // namespace td::scene::test

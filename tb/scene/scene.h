// scene.h — a two-level scene as titles build it: bottom-level geometry
// (BLASes: one triangle Mesh each, built once however often it is placed)
// and instances (which BLAS, where: a 3x4 object-to-world transform, an
// 8-bit visibility mask, a 24-bit user id). Knows no hardware format: the
// encoder lays it out (TLAS box nodes over instance nodes over BLASes).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/isa/node.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// A 3x4 affine transform, rows first: row r is (m[4r], m[4r+1], m[4r+2],
// m[4r+3]), and p'[r] = ((m[4r]*x + m[4r+1]*y) + m[4r+2]*z) + m[4r+3] in
// binary32, in that order, in every engine (apply_point()).
struct Transform3x4 {
  std::array<float, 12> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

  static Transform3x4 identity() { return Transform3x4{}; }
  bool is_identity() const { return m == identity().m; }
};

// The binary32 evaluation order of a transform, shared by the encoder, the
// traversal and the tests: point (with the translation) and direction.
inline Vec3 apply_point(const Transform3x4& t, const Vec3& p) {
  Vec3 out{};
  for (int r = 0; r < 3; ++r) out[r] = ((t.m[4 * r] * p[0] + t.m[4 * r + 1] * p[1]) + t.m[4 * r + 2] * p[2]) + t.m[4 * r + 3];
  return out;
}
inline Vec3 apply_direction(const Transform3x4& t, const Vec3& d) {
  Vec3 out{};
  for (int r = 0; r < 3; ++r) out[r] = (t.m[4 * r] * d[0] + t.m[4 * r + 1] * d[1]) + t.m[4 * r + 2] * d[2];
  return out;
}

constexpr uint32_t kMaxInstanceId = (1u << 24) - 1;  // 24 bits in the instance node
constexpr uint64_t kMaxInstances = uint64_t{1} << 24;

struct Instance {
  uint32_t blas = 0;  // index into Scene::blases
  Transform3x4 object_to_world;
  uint8_t mask = 0xff;  // the ray's mask AND this must be non-zero for the ray to enter
  uint32_t id = 0;      // user id, 24 bits (InstanceID() in DXR); 0 by default
  // TLAS pull-up (TAPU, seeds 001 and 003; XDXR's INSTANCE_FLAG_TAPU4/16):
  // 0, or 4 / 16: the TLAS gets this instance's BLAS's first / second level
  // of boxes instead of one box (scene_bvh.h), under BvhOptions::tapu scene.
  uint8_t tapu = 0;
  std::string node;     // where it came from (a file's node path, a generator's part name): errors name it
};

struct Scene {
  std::string name;            // the file it came from, or the generator's name
  std::vector<Mesh> blases;    // each built once
  std::vector<Instance> instances;  // numbered 0.. in this order (the hits' inst)

  uint64_t unique_triangles() const {
    uint64_t n = 0;
    for (const Mesh& mesh : blases) n += mesh.triangle_count();
    return n;
  }
  uint64_t instanced_triangles() const {
    uint64_t n = 0;
    for (const Instance& instance : instances) n += blases[instance.blas].triangle_count();
    return n;
  }
};

}  // namespace td::scene

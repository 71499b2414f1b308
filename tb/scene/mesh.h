// mesh.h — an indexed triangle mesh as imported or generated: the one
// geometry every builder, encoder and test reads. Primitive index i is
// triangles[i]; every hit the traversal reports names it and its own vertex
// order (P0, P1, P2), whatever the BVH did with it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/isa/node.h"

namespace td::scene {

using TriangleIndices = std::array<uint32_t, 3>;

struct Mesh {
  std::string name;  // the file it came from, or the generator's name
  std::vector<Vec3> positions;
  std::vector<TriangleIndices> triangles;

  size_t triangle_count() const { return triangles.size(); }
  const Vec3& vertex(uint32_t primitive, int corner) const {
    return positions[triangles[primitive][corner]];
  }
};

// A triangle no ray can hit and no box should hold: a non-finite coordinate,
// or a zero area (coincident or collinear corners, computed in double).
// Also one with a coordinate of magnitude kMaxCoordinate or more: the BVH
// builder's arithmetic (centroid sums, bin scales) overflows there, and
// Embree leaves such triangles out of its own scenes (its documented limit).
constexpr float kMaxCoordinate = 1.844e18f;
bool is_degenerate(const Mesh& mesh, uint32_t primitive);

// Number of triangles that are not degenerate.
size_t usable_triangle_count(const Mesh& mesh);

// Tight bounds of the usable triangles (min > max on every axis when none).
Aabb usable_bounds(const Mesh& mesh);

Aabb triangle_bounds(const Mesh& mesh, uint32_t primitive);

// Surface area of a box (2(xy + yz + zx)) in double: the SAH's measure.
// (Inline, as merge: the run-time builders call both per candidate pair.)
inline double surface_area(const Aabb& box) {
  const double dx = static_cast<double>(box.max[0]) - box.min[0];
  const double dy = static_cast<double>(box.max[1]) - box.min[1];
  const double dz = static_cast<double>(box.max[2]) - box.min[2];
  if (dx < 0 || dy < 0 || dz < 0) return 0;
  return 2 * (dx * dy + dy * dz + dz * dx);
}

// The smallest box holding both.
inline Aabb merge(const Aabb& a, const Aabb& b) {
  Aabb out;
  for (int k = 0; k < 3; ++k) {
    out.min[k] = std::min(a.min[k], b.min[k]);
    out.max[k] = std::max(a.max[k], b.max[k]);
  }
  return out;
}
Aabb empty_box();  // min = +Inf, max = -Inf: the identity of merge

}  // namespace td::scene

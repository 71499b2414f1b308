#include "tb/scene/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace td::scene {

bool is_degenerate(const Mesh& mesh, uint32_t primitive) {
  std::array<std::array<double, 3>, 3> p{};
  for (int corner = 0; corner < 3; ++corner) {
    const Vec3& v = mesh.vertex(primitive, corner);
    for (int a = 0; a < 3; ++a) {
      if (!(std::fabs(v[a]) < kMaxCoordinate)) return true;  // NaN, infinite or out of range
      p[corner][a] = v[a];
    }
  }
  // In double, so that only coincident or (to double precision) collinear
  // corners count: a thin float sliver still has an area and can be hit.
  const double e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
  const double e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
  const double cx = e1[1] * e2[2] - e1[2] * e2[1];
  const double cy = e1[2] * e2[0] - e1[0] * e2[2];
  const double cz = e1[0] * e2[1] - e1[1] * e2[0];
  return cx == 0 && cy == 0 && cz == 0;
}

size_t usable_triangle_count(const Mesh& mesh) {
  size_t count = 0;
  for (uint32_t i = 0; i < mesh.triangle_count(); ++i) count += is_degenerate(mesh, i) ? 0 : 1;
  return count;
}

Aabb empty_box() {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  return Aabb{{kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
}

Aabb triangle_bounds(const Mesh& mesh, uint32_t primitive) {
  Aabb box = empty_box();
  for (int corner = 0; corner < 3; ++corner) {
    const Vec3& v = mesh.vertex(primitive, corner);
    box = merge(box, Aabb{v, v});
  }
  return box;
}

Aabb usable_bounds(const Mesh& mesh) {
  Aabb box = empty_box();
  for (uint32_t i = 0; i < mesh.triangle_count(); ++i)
    if (!is_degenerate(mesh, i)) box = merge(box, triangle_bounds(mesh, i));
  return box;
}

}  // namespace td::scene

#include "model/ref/triangle_test.h"

#include <utility>

#include "model/isa/fp32.h"

namespace td::ref {

namespace {

struct Shear {
  int kx, ky, kz;
  float sx, sy, sz;
};

// Step 1-2: the dominant axis becomes z; kx/ky swap keeps the winding.
Shear make_shear(const Ray& ray) {
  const float dx = abs_value(ray.dir[0]), dy = abs_value(ray.dir[1]), dz = abs_value(ray.dir[2]);
  int kz;
  if (dx >= dy && dx >= dz)
    kz = 0;
  else if (dy >= dz)
    kz = 1;
  else
    kz = 2;
  int kx = (kz + 1) % 3, ky = (kz + 2) % 3;
  if (ray.dir[kz] < 0.0f) std::swap(kx, ky);
  const float sz = ray.inv_dir[kz];
  return Shear{kx, ky, kz, ray.dir[kx] * sz, ray.dir[ky] * sz, sz};
}

struct Sheared {
  float x, y, z;
};

// Step 3: vertex relative to the origin, sheared into ray space.
Sheared shear_vertex(const Shear& s, const Ray& ray, const Vec3& vertex) {
  const Vec3 p{vertex[0] - ray.origin[0], vertex[1] - ray.origin[1], vertex[2] - ray.origin[2]};
  return Sheared{p[s.kx] - s.sx * p[s.kz], p[s.ky] - s.sy * p[s.kz], s.sz * p[s.kz]};
}

}  // namespace

TriangleTestResult triangle_test(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Shear shear = make_shear(ray);
  const Sheared A = shear_vertex(shear, ray, a);
  const Sheared B = shear_vertex(shear, ray, b);
  const Sheared C = shear_vertex(shear, ray, c);

  TriangleTestResult r;
  r.u = C.x * B.y - C.y * B.x;
  r.v = A.x * C.y - A.y * C.x;
  r.w = B.x * A.y - B.y * A.x;
  const bool any_negative = r.u < 0.0f || r.v < 0.0f || r.w < 0.0f;
  const bool any_positive = r.u > 0.0f || r.v > 0.0f || r.w > 0.0f;
  const bool edges_ok = !(any_negative && any_positive);

  r.det = (r.u + r.v) + r.w;
  r.t_num = (r.u * A.z + r.v * B.z) + r.w * C.z;
  const float extent_scaled = ray.extent * r.det;
  // Written as comparisons so that any NaN makes the test a miss.
  const bool range_ok =
      (r.det > 0.0f && r.t_num >= 0.0f && r.t_num <= extent_scaled) ||
      (r.det < 0.0f && r.t_num <= 0.0f && r.t_num >= extent_scaled);
  r.hit = edges_ok && range_ok;
  return r;
}

TriangleTestResult triangle_node_test(const Ray& ray, const TriangleNode& node, uint32_t t) {
  const std::array<int, 3> abc = triangle_vertices(t);
  return triangle_test(ray, node.vertex[abc[0]], node.vertex[abc[1]], node.vertex[abc[2]]);
}

std::array<uint32_t, 4> triangle_result(const TriangleNode& node, uint32_t t, uint32_t return_mode,
                                        const TriangleTestResult& test) {
  if (return_mode == 0) {
    const uint32_t id = node.id + t;  // 32-bit wrapping add
    if (test.hit) return {bits_of(test.t_num), bits_of(test.det), id, 1u};
    return {kPlusInfBits, kOneBits, id, 0u};
  }
  if (!test.hit) return {kPlusInfBits, kOneBits, 0u, 0u};
  const std::array<float, 3> weights{test.u, test.v, test.w};
  const auto remapped = [&](uint32_t source) {
    return source == 3 ? 0u : bits_of(weights[source]);  // source 3 reads +0.0
  };
  const uint32_t i_src = (node.id >> (8 * t)) & 3u;
  const uint32_t j_src = (node.id >> (8 * t + 2)) & 3u;
  return {bits_of(test.t_num), bits_of(test.det), remapped(i_src), remapped(j_src)};
}

}  // namespace td::ref

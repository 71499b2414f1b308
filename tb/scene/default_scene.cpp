#include "tb/scene/default_scene.h"

#include <cmath>
#include <map>
#include <utility>

#include "tb/common/rng.h"

namespace td::scene {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Appends a part: its vertices and triangles indexed from 0.
class MeshBuilder {
 public:
  explicit MeshBuilder(Mesh& mesh) : mesh_(mesh) {}
  uint32_t base() const { return static_cast<uint32_t>(mesh_.positions.size()); }
  void vertex(double x, double y, double z) {
    mesh_.positions.push_back(Vec3{static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)});
  }
  void triangle(uint32_t a, uint32_t b, uint32_t c) { mesh_.triangles.push_back(TriangleIndices{a, b, c}); }

 private:
  Mesh& mesh_;
};

// A grid of (cells+1)^2 vertices, two triangles per cell (y up).
void add_terrain(MeshBuilder& out, int cells, double half_width) {
  const uint32_t base = out.base();
  for (int j = 0; j <= cells; ++j) {
    for (int i = 0; i <= cells; ++i) {
      const double x = -half_width + 2 * half_width * i / cells;
      const double z = -half_width + 2 * half_width * j / cells;
      const double y = 0.9 * std::sin(0.31 * x) * std::cos(0.23 * z) + 0.35 * std::sin(0.9 * x + 0.7 * z) - 1.0;
      out.vertex(x, y, z);
    }
  }
  const auto index = [&](int i, int j) { return base + static_cast<uint32_t>(j * (cells + 1) + i); };
  for (int j = 0; j < cells; ++j) {
    for (int i = 0; i < cells; ++i) {
      out.triangle(index(i, j), index(i, j + 1), index(i + 1, j));
      out.triangle(index(i + 1, j), index(i, j + 1), index(i + 1, j + 1));
    }
  }
}

// A floor under everything and a wall behind it: two huge quads.
void add_backdrop(MeshBuilder& out) {
  const uint32_t base = out.base();
  out.vertex(-60, -2.2, 40);
  out.vertex(60, -2.2, 40);
  out.vertex(60, -2.2, -24);
  out.vertex(-60, -2.2, -24);
  out.vertex(60, 30, -24);
  out.vertex(-60, 30, -24);
  out.triangle(base, base + 1, base + 2);  // floor, normal +y
  out.triangle(base, base + 2, base + 3);
  out.triangle(base + 3, base + 2, base + 4);  // wall, normal +z
  out.triangle(base + 3, base + 4, base + 5);
}

// Icosahedron subdivided `levels` times, vertices pushed onto the sphere.
void add_icosphere(MeshBuilder& out, double cx, double cy, double cz, double radius, int levels) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  std::vector<std::array<double, 3>> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                                          {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                                          {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<TriangleIndices> faces = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                        {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                        {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                        {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7}, {9, 8, 1}};
  const auto normalise = [](std::array<double, 3> p) {
    const double length = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return std::array<double, 3>{p[0] / length, p[1] / length, p[2] / length};
  };
  for (auto& p : v) p = normalise(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> midpoint;  // ordered: deterministic
    const auto middle = [&](uint32_t a, uint32_t b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      const auto found = midpoint.find(key);
      if (found != midpoint.end()) return found->second;
      v.push_back(normalise({(v[a][0] + v[b][0]) / 2, (v[a][1] + v[b][1]) / 2, (v[a][2] + v[b][2]) / 2}));
      const auto index = static_cast<uint32_t>(v.size() - 1);
      midpoint.emplace(key, index);
      return index;
    };
    std::vector<TriangleIndices> finer;
    finer.reserve(faces.size() * 4);
    for (const auto& f : faces) {
      const uint32_t ab = middle(f[0], f[1]), bc = middle(f[1], f[2]), ca = middle(f[2], f[0]);
      finer.push_back({f[0], ab, ca});
      finer.push_back({f[1], bc, ab});
      finer.push_back({f[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    faces = std::move(finer);
  }
  const uint32_t base = out.base();
  for (const auto& p : v) out.vertex(cx + radius * p[0], cy + radius * p[1], cz + radius * p[2]);
  for (const auto& f : faces) out.triangle(base + f[0], base + f[1], base + f[2]);
}

// Torus around a tilted axis: `rings` x `sides` quads, two triangles each.
void add_torus(MeshBuilder& out, double cx, double cy, double cz, double major, double minor, int rings,
               int sides) {
  const uint32_t base = out.base();
  const double tilt = 0.6;  // radians about x: no face lines up with an axis
  for (int r = 0; r < rings; ++r) {
    const double u = 2 * kPi * r / rings;
    for (int s = 0; s < sides; ++s) {
      const double w = 2 * kPi * s / sides;
      const double x = (major + minor * std::cos(w)) * std::cos(u);
      const double y = minor * std::sin(w);
      const double z = (major + minor * std::cos(w)) * std::sin(u);
      out.vertex(cx + x, cy + y * std::cos(tilt) - z * std::sin(tilt), cz + y * std::sin(tilt) + z * std::cos(tilt));
    }
  }
  const auto index = [&](int r, int s) { return base + static_cast<uint32_t>((r % rings) * sides + (s % sides)); };
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < sides; ++s) {
      out.triangle(index(r, s), index(r, s + 1), index(r + 1, s));
      out.triangle(index(r + 1, s), index(r, s + 1), index(r + 1, s + 1));
    }
  }
}

// An open cylinder from `from` to `to`: one ring of long slender triangles.
void add_tube(MeshBuilder& out, const std::array<double, 3>& from, const std::array<double, 3>& to, double radius,
              int segments) {
  const std::array<double, 3> axis = {to[0] - from[0], to[1] - from[1], to[2] - from[2]};
  // Two unit vectors perpendicular to the axis.
  std::array<double, 3> e1 = {axis[1], -axis[0], 0};
  const double l1 = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1]);
  for (double& c : e1) c /= l1;
  std::array<double, 3> e2 = {axis[1] * e1[2] - axis[2] * e1[1], axis[2] * e1[0] - axis[0] * e1[2],
                              axis[0] * e1[1] - axis[1] * e1[0]};
  const double l2 = std::sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
  for (double& c : e2) c /= l2;
  const uint32_t base = out.base();
  for (int end = 0; end < 2; ++end) {
    const auto& centre = end == 0 ? from : to;
    for (int s = 0; s < segments; ++s) {
      const double a = 2 * kPi * s / segments;
      const double c = radius * std::cos(a), d = radius * std::sin(a);
      out.vertex(centre[0] + c * e1[0] + d * e2[0], centre[1] + c * e1[1] + d * e2[1],
                 centre[2] + c * e1[2] + d * e2[2]);
    }
  }
  const auto n = static_cast<uint32_t>(segments);
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t next = (s + 1) % n;
    out.triangle(base + s, base + next, base + n + s);
    out.triangle(base + n + s, base + next, base + n + next);
  }
}

// Closed unit cubes scaled, rotated and placed at random in a box.
void add_cube_cluster(MeshBuilder& out, int count, uint64_t seed) {
  static constexpr std::array<std::array<int, 3>, 8> kCorners = {
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
  static constexpr std::array<TriangleIndices, 12> kFaces = {{{0, 2, 1},
                                                               {0, 3, 2},
                                                               {4, 5, 6},
                                                               {4, 6, 7},
                                                               {0, 1, 5},
                                                               {0, 5, 4},
                                                               {3, 6, 2},
                                                               {3, 7, 6},
                                                               {0, 4, 7},
                                                               {0, 7, 3},
                                                               {1, 2, 6},
                                                               {1, 6, 5}}};
  tb::Rng rng(seed);
  for (int k = 0; k < count; ++k) {
    // Edge length log-uniform in [0.002, 0.2].
    const double size = 0.002 * std::pow(100.0, static_cast<double>(rng.uniform(0, 1)));
    const double px = rng.uniform(-14, -4), py = rng.uniform(-0.5, 3), pz = rng.uniform(-4, 8);
    const double yaw = rng.uniform(0, 6.2831853f), pitch = rng.uniform(0, 6.2831853f);
    const double cy = std::cos(yaw), sy = std::sin(yaw), cp = std::cos(pitch), sp = std::sin(pitch);
    const uint32_t base = out.base();
    for (const auto& corner : kCorners) {
      const double x = size * (corner[0] - 0.5), y = size * (corner[1] - 0.5), z = size * (corner[2] - 0.5);
      // Yaw about y, then pitch about x.
      const double x1 = cy * x + sy * z, z1 = -sy * x + cy * z;
      const double y2 = cp * y - sp * z1, z2 = sp * y + cp * z1;
      out.vertex(px + x1, py + y2, pz + z2);
    }
    for (const auto& f : kFaces) out.triangle(base + f[0], base + f[1], base + f[2]);
  }
}

}  // namespace

Mesh make_default_scene() {
  Mesh mesh;
  mesh.name = "basic scene";
  MeshBuilder out(mesh);
  add_terrain(out, 160, 20);
  add_backdrop(out);
  add_icosphere(out, 0, 4, 0, 3, 5);
  add_icosphere(out, -8, 2.5, 5, 1.2, 4);
  add_icosphere(out, 7, 2, 6, 0.6, 3);
  add_torus(out, 10, 3, -6, 4, 0.8, 128, 48);
  add_tube(out, {-18, -1, 12}, {14, 9, -16}, 0.3, 16);
  add_cube_cluster(out, 2000, 0x5eed);
  return mesh;
}

Camera default_scene_camera() {
  Camera camera;
  camera.eye = {16, 9, 30};
  camera.look_at = {-1, 2, -3};
  camera.up = {0, 1, 0};
  camera.vertical_fov_degrees = 50;
  return camera;
}

}  // namespace td::scene

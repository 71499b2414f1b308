#include "tb/scene/default_level.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tb/common/rng.h"

namespace td::scene {

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// Small double-precision vector maths (geometry is made in double, stored in
// binary32).

struct P3 {
  double x = 0, y = 0, z = 0;
};
P3 operator+(const P3& a, const P3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
P3 operator-(const P3& a, const P3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
P3 operator*(const P3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(const P3& a, const P3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
P3 cross(const P3& a, const P3& b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(const P3& a) { return std::sqrt(dot(a, a)); }
P3 normalise(const P3& a) { return a * (1 / length(a)); }

double smoothstep(double edge0, double edge1, double x) {
  const double t = std::clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
  return t * t * (3 - 2 * t);
}

// A draw in [lo, hi) from the testbench generator (binary32 steps).
double draw(tb::Rng& rng, double lo, double hi) {
  return static_cast<double>(rng.uniform(static_cast<float>(lo), static_cast<float>(hi)));
}

// A local frame: p -> origin + x ax + y ay + z az. The frames used inside a
// part are orthonormal and right-handed, so windings keep their sense.
struct Frame {
  P3 origin{};
  P3 ax{1, 0, 0}, ay{0, 1, 0}, az{0, 0, 1};
  P3 at(const P3& p) const { return origin + ax * p.x + ay * p.y + az * p.z; }
  P3 dir(const P3& d) const { return ax * d.x + ay * d.y + az * d.z; }
};

// Rotation by `yaw` about +y (x goes to (cos, 0, -sin), z to (sin, 0, cos)).
Frame yawed(const P3& origin, double yaw) {
  const double c = std::cos(yaw), s = std::sin(yaw);
  return Frame{origin, {c, 0, -s}, {0, 1, 0}, {s, 0, c}};
}

// ---------------------------------------------------------------------------
// Geometry primitives.

// Appends vertices and triangles; the quad and triangle overloads that take
// points wind the face so its front (counter-clockwise side) faces `outward`.
class MeshBuilder {
 public:
  explicit MeshBuilder(Mesh& mesh) : mesh_(mesh) {}
  uint32_t next_vertex() const { return static_cast<uint32_t>(mesh_.positions.size()); }
  uint32_t vertex(const P3& p) {
    mesh_.positions.push_back(Vec3{static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)});
    return static_cast<uint32_t>(mesh_.positions.size() - 1);
  }
  void triangle(uint32_t a, uint32_t b, uint32_t c) { mesh_.triangles.push_back(TriangleIndices{a, b, c}); }
  void quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    triangle(a, b, c);
    triangle(a, c, d);
  }
  void quad(const P3& a, const P3& b, const P3& c, const P3& d, const P3& outward) {
    const bool front = dot(cross(c - a, d - b), outward) >= 0;
    const uint32_t ia = vertex(a), ib = vertex(b), ic = vertex(c), id = vertex(d);
    if (front) {
      quad(ia, ib, ic, id);
    } else {
      quad(ia, id, ic, ib);
    }
  }
  void triangle(const P3& a, const P3& b, const P3& c, const P3& outward) {
    const bool front = dot(cross(b - a, c - a), outward) >= 0;
    const uint32_t ia = vertex(a), ib = vertex(b), ic = vertex(c);
    if (front) {
      triangle(ia, ib, ic);
    } else {
      triangle(ia, ic, ib);
    }
  }

 private:
  Mesh& mesh_;
};

// Eight corners of a logical box (bit 0: +x side, bit 1: +y, bit 2: +z),
// any shape; six quads facing away from the centre.
void add_hexahedron(MeshBuilder& out, const std::array<P3, 8>& c) {
  static constexpr std::array<std::array<int, 4>, 6> kFaces = {
      {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}}};
  P3 centre{};
  for (const P3& p : c) centre = centre + p * 0.125;
  for (const auto& f : kFaces) {
    const P3 face_centre = (c[f[0]] + c[f[1]] + c[f[2]] + c[f[3]]) * 0.25;
    out.quad(c[f[0]], c[f[1]], c[f[2]], c[f[3]], face_centre - centre);
  }
}

void add_box(MeshBuilder& out, const Frame& frame, const P3& lo, const P3& hi) {
  std::array<P3, 8> c;
  for (int i = 0; i < 8; ++i) c[i] = frame.at({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  add_hexahedron(out, c);
}
void add_box(MeshBuilder& out, const P3& lo, const P3& hi) { add_box(out, Frame{}, lo, hi); }

// Two unit vectors perpendicular to the unit `axis`, (e1, e2, axis) right-handed.
void perpendicular_basis(const P3& axis, P3& e1, P3& e2) {
  const P3 helper = std::fabs(axis.y) < 0.9 ? P3{0, 1, 0} : P3{1, 0, 0};
  e1 = normalise(cross(helper, axis));
  e2 = cross(axis, e1);
}

// A beam of rectangular section from a to b.
void add_beam(MeshBuilder& out, const P3& a, const P3& b, double half_w, double half_h) {
  P3 e1, e2;
  perpendicular_basis(normalise(b - a), e1, e2);
  std::array<P3, 8> c;
  for (int i = 0; i < 8; ++i) {
    const P3 end = i & 1 ? b : a;
    c[i] = end + e2 * (i & 2 ? half_h : -half_h) + e1 * (i & 4 ? half_w : -half_w);
  }
  add_hexahedron(out, c);
}

// A tube through `centres` (two or more) with one radius per centre and
// `segments` sides; rings follow the path (parallel transport), ends capped
// on request. Faces outward.
void add_tube(MeshBuilder& out, const std::vector<P3>& centres, const std::vector<double>& radii, int segments,
              bool cap_start, bool cap_end) {
  const size_t n = centres.size();
  std::vector<uint32_t> ring(n);
  P3 e1, e2;
  for (size_t k = 0; k < n; ++k) {
    const P3 tangent = normalise(centres[std::min(k + 1, n - 1)] - centres[k > 0 ? k - 1 : 0]);
    if (k == 0) {
      perpendicular_basis(tangent, e1, e2);
    } else {
      e1 = normalise(e1 - tangent * dot(e1, tangent));
      e2 = cross(tangent, e1);
    }
    ring[k] = out.vertex(centres[k] + e1 * radii[k]);
    for (int s = 1; s < segments; ++s) {
      const double a = 2 * kPi * s / segments;
      out.vertex(centres[k] + e1 * (radii[k] * std::cos(a)) + e2 * (radii[k] * std::sin(a)));
    }
  }
  const auto index = [&](size_t k, int s) { return ring[k] + static_cast<uint32_t>(s % segments); };
  for (size_t k = 0; k + 1 < n; ++k)
    for (int s = 0; s < segments; ++s) out.quad(index(k, s), index(k, s + 1), index(k + 1, s + 1), index(k + 1, s));
  if (cap_start) {
    const uint32_t centre = out.vertex(centres.front());
    for (int s = 0; s < segments; ++s) out.triangle(centre, index(0, s + 1), index(0, s));
  }
  if (cap_end) {
    const uint32_t centre = out.vertex(centres.back());
    for (int s = 0; s < segments; ++s) out.triangle(centre, index(n - 1, s), index(n - 1, s + 1));
  }
}

// A straight tube from a (radius r0) to b (radius r1) in `sections` pieces.
void add_cylinder(MeshBuilder& out, const P3& a, const P3& b, double r0, double r1, int segments, int sections,
                  bool caps) {
  std::vector<P3> centres;
  std::vector<double> radii;
  for (int k = 0; k <= sections; ++k) {
    const double t = static_cast<double>(k) / sections;
    centres.push_back(a + (b - a) * t);
    radii.push_back(r0 + (r1 - r0) * t);
  }
  add_tube(out, centres, radii, segments, caps, caps);
}

// An icosahedron subdivided `levels` times, on the unit sphere; outward faces.
struct UnitSphere {
  std::vector<P3> v;
  std::vector<TriangleIndices> faces;
};
UnitSphere unit_icosphere(int levels) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  UnitSphere s;
  s.v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  s.faces = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
             {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
             {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (P3& p : s.v) p = normalise(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> midpoint;  // ordered: deterministic
    const auto middle = [&](uint32_t a, uint32_t b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      const auto found = midpoint.find(key);
      if (found != midpoint.end()) return found->second;
      s.v.push_back(normalise((s.v[a] + s.v[b]) * 0.5));
      const auto index = static_cast<uint32_t>(s.v.size() - 1);
      midpoint.emplace(key, index);
      return index;
    };
    std::vector<TriangleIndices> finer;
    finer.reserve(s.faces.size() * 4);
    for (const auto& f : s.faces) {
      const uint32_t ab = middle(f[0], f[1]), bc = middle(f[1], f[2]), ca = middle(f[2], f[0]);
      finer.push_back({f[0], ab, ca});
      finer.push_back({f[1], bc, ab});
      finer.push_back({f[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    s.faces = std::move(finer);
  }
  return s;
}

// A closed lumpy ellipsoid: an icosphere with per-axis radii, a smooth
// radial wobble of relative size `bumps` and a per-vertex one of `jitter`.
void add_blob(MeshBuilder& out, const P3& centre, const P3& radii, int levels, double bumps, double jitter,
              tb::Rng& rng) {
  const UnitSphere sphere = unit_icosphere(levels);
  const double p1 = draw(rng, 0, 6.28), p2 = draw(rng, 0, 6.28), p3 = draw(rng, 0, 6.28);
  const uint32_t base = out.next_vertex();
  for (const P3& p : sphere.v) {
    const double wobble = std::sin(3.1 * p.x + p1) * std::sin(2.7 * p.y + p2) * std::sin(3.3 * p.z + p3) +
                          0.5 * std::sin(5.3 * p.x + 7.1 * p.z + p2);
    const double noise = jitter > 0 ? draw(rng, -jitter, jitter) : 0.0;
    const double r = 1 + bumps * wobble + noise;
    out.vertex(centre + P3{p.x * radii.x * r, p.y * radii.y * r, p.z * radii.z * r});
  }
  for (const auto& f : sphere.faces) out.triangle(base + f[0], base + f[1], base + f[2]);
}

// One layer of a conifer: a drooping cone about +y from its apex down to a
// jagged rim `radius` out and `height` below, closed underneath.
void add_cone_layer(MeshBuilder& out, const P3& apex, double radius, double height, double droop, int segments,
                    int rings, tb::Rng& rng) {
  const uint32_t top = out.vertex(apex);
  std::vector<uint32_t> ring(rings + 1);
  for (int k = 1; k <= rings; ++k) {
    const double f = static_cast<double>(k) / rings;
    ring[k] = out.next_vertex();
    for (int s = 0; s < segments; ++s) {
      const double a = 2 * kPi * s / segments;
      const double r = radius * f * (k == rings ? draw(rng, 0.8, 1.15) : draw(rng, 0.95, 1.05));
      out.vertex(apex + P3{r * std::cos(a), -height * f - droop * f * f, -r * std::sin(a)});
    }
  }
  const auto index = [&](int k, int s) { return k == 0 ? top : ring[k] + static_cast<uint32_t>(s % segments); };
  for (int s = 0; s < segments; ++s) out.triangle(top, index(1, s), index(1, s + 1));
  for (int k = 1; k < rings; ++k)
    for (int s = 0; s < segments; ++s) out.quad(index(k, s), index(k + 1, s), index(k + 1, s + 1), index(k, s + 1));
  const uint32_t under = out.vertex(apex + P3{0, -height * 0.55, 0});
  for (int s = 0; s < segments; ++s) out.triangle(under, index(rings, s + 1), index(rings, s));
}

// A rectangular hole in a wall, in the wall's (u, v); `mullion` adds a
// window cross that leaves four panes open.
struct Opening {
  double u0, u1, v0, v1;
  bool mullion = false;
};

// A wall with real holes, in an orthonormal right-handed `frame`: u along x
// from 0 to `length`, v up from v_lo to v_hi, thickness along z centred on
// 0 (outer face +z). Faces are cut on the grid of every opening edge; each
// opening gets its four reveals.
void add_wall(MeshBuilder& out, const Frame& frame, double length, double v_lo, double v_hi, double thickness,
              const std::vector<Opening>& openings) {
  std::vector<double> us{0, length}, vs{v_lo, v_hi};
  for (const Opening& o : openings) {
    us.push_back(o.u0);
    us.push_back(o.u1);
    vs.push_back(o.v0);
    vs.push_back(o.v1);
  }
  const auto tidy = [](std::vector<double>& x) {
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end(), [](double a, double b) { return b - a < 1e-6; }), x.end());
  };
  tidy(us);
  tidy(vs);
  const auto open = [&](double u, double v) {
    for (const Opening& o : openings)
      if (u > o.u0 && u < o.u1 && v > o.v0 && v < o.v1) return true;
    return false;
  };
  const double h = thickness / 2;
  for (int side = 0; side < 2; ++side) {
    const double w = side == 0 ? h : -h;
    std::vector<int64_t> node(us.size() * vs.size(), -1);
    const auto corner = [&](size_t i, size_t j) {
      int64_t& slot = node[j * us.size() + i];
      if (slot < 0) slot = out.vertex(frame.at({us[i], vs[j], w}));
      return static_cast<uint32_t>(slot);
    };
    for (size_t j = 0; j + 1 < vs.size(); ++j) {
      for (size_t i = 0; i + 1 < us.size(); ++i) {
        if (open((us[i] + us[i + 1]) / 2, (vs[j] + vs[j + 1]) / 2)) continue;
        const uint32_t a = corner(i, j), b = corner(i + 1, j), c = corner(i + 1, j + 1), d = corner(i, j + 1);
        if (side == 0) {
          out.quad(a, b, c, d);
        } else {
          out.quad(a, d, c, b);
        }
      }
    }
  }
  const auto at = [&](double u, double v, double w) { return frame.at({u, v, w}); };
  for (const Opening& o : openings) {
    out.quad(at(o.u0, o.v0, -h), at(o.u1, o.v0, -h), at(o.u1, o.v0, h), at(o.u0, o.v0, h), frame.dir({0, 1, 0}));
    out.quad(at(o.u0, o.v1, -h), at(o.u1, o.v1, -h), at(o.u1, o.v1, h), at(o.u0, o.v1, h), frame.dir({0, -1, 0}));
    out.quad(at(o.u0, o.v0, -h), at(o.u0, o.v1, -h), at(o.u0, o.v1, h), at(o.u0, o.v0, h), frame.dir({1, 0, 0}));
    out.quad(at(o.u1, o.v0, -h), at(o.u1, o.v1, -h), at(o.u1, o.v1, h), at(o.u1, o.v0, h), frame.dir({-1, 0, 0}));
    if (o.mullion) {
      const double um = (o.u0 + o.u1) / 2, vm = (o.v0 + o.v1) / 2;
      add_box(out, frame, {um - 0.035, o.v0 - 0.02, -0.04}, {um + 0.035, o.v1 + 0.02, 0.04});
      add_box(out, frame, {o.u0 - 0.02, vm - 0.035, -0.04}, {o.u1 + 0.02, vm + 0.035, 0.04});
    }
  }
  out.quad(at(0, v_lo, -h), at(0, v_hi, -h), at(0, v_hi, h), at(0, v_lo, h), frame.dir({-1, 0, 0}));
  out.quad(at(length, v_lo, -h), at(length, v_hi, -h), at(length, v_hi, h), at(length, v_lo, h), frame.dir({1, 0, 0}));
  out.quad(at(0, v_hi, -h), at(length, v_hi, -h), at(length, v_hi, h), at(0, v_hi, h), frame.dir({0, 1, 0}));
  out.quad(at(0, v_lo, -h), at(length, v_lo, -h), at(length, v_lo, h), at(0, v_lo, h), frame.dir({0, -1, 0}));
}

// ---------------------------------------------------------------------------
// The terrain: a height field with two flattened roads crossing at the
// origin (the main road along z, a cross road along x).

constexpr int kTerrainCells = 200;
constexpr double kTerrainHalfWidth = 200;
constexpr double kTerrainCell = 2 * kTerrainHalfWidth / kTerrainCells;  // 2 m
constexpr double kRoadHalfWidth = 5;

double hills(double x, double z) {
  return 4.0 * std::sin(0.019 * x + 0.4) * std::cos(0.023 * z - 0.3) + 2.0 * std::sin(0.047 * x - 0.061 * z) +
         0.7 * std::sin(0.13 * x + 0.5) * std::sin(0.11 * z + 1.1);
}
double road_distance(double x, double z) { return std::min(std::fabs(x), std::fabs(z)); }
double ground(double x, double z) {
  const double road = 0.6 * std::sin(0.013 * z) + 0.4 * std::sin(0.017 * x + 0.2);
  const double w = smoothstep(kRoadHalfWidth + 2, 28, road_distance(x, z));
  return road + (hills(x, z) - road) * w;
}
double grid_coordinate(int i) { return -kTerrainHalfWidth + kTerrainCell * i; }
float grid_height(int i, int j) { return static_cast<float>(ground(grid_coordinate(i), grid_coordinate(j))); }

// The height of the terrain mesh itself at (x, z): the grid triangle's plane.
double surface_height(double x, double z) {
  const double gx = (x + kTerrainHalfWidth) / kTerrainCell, gz = (z + kTerrainHalfWidth) / kTerrainCell;
  const int i = std::clamp(static_cast<int>(std::floor(gx)), 0, kTerrainCells - 1);
  const int j = std::clamp(static_cast<int>(std::floor(gz)), 0, kTerrainCells - 1);
  const double u = gx - i, v = gz - j;
  const double y00 = grid_height(i, j), y10 = grid_height(i + 1, j), y01 = grid_height(i, j + 1);
  const double y11 = grid_height(i + 1, j + 1);
  if (u + v <= 1) return y00 + u * (y10 - y00) + v * (y01 - y00);
  return y11 + (1 - u) * (y01 - y11) + (1 - v) * (y10 - y11);
}

Mesh make_terrain() {
  Mesh mesh;
  mesh.name = "terrain";
  MeshBuilder out(mesh);
  for (int j = 0; j <= kTerrainCells; ++j)
    for (int i = 0; i <= kTerrainCells; ++i) out.vertex({grid_coordinate(i), grid_height(i, j), grid_coordinate(j)});
  const auto index = [](int i, int j) { return static_cast<uint32_t>(j * (kTerrainCells + 1) + i); };
  for (int j = 0; j < kTerrainCells; ++j) {
    for (int i = 0; i < kTerrainCells; ++i) {
      out.triangle(index(i, j), index(i, j + 1), index(i + 1, j));
      out.triangle(index(i + 1, j), index(i, j + 1), index(i + 1, j + 1));
    }
  }
  return mesh;
}

// ---------------------------------------------------------------------------
// Trees. Local frame: trunk foot at the origin (sunk 0.6 m into the ground),
// +y up.

std::vector<P3> trunk_path(double top, int sections, double wobble, double lean_x, tb::Rng& rng) {
  std::vector<P3> c;
  const double p = draw(rng, 0, 6.28);
  for (int k = 0; k <= sections; ++k) {
    const double f = static_cast<double>(k) / sections;
    c.push_back(
        {wobble * std::sin(1.3 * k + p) + lean_x * f * f, -0.6 + (top + 0.6) * f, wobble * std::cos(1.7 * k + p)});
  }
  return c;
}
std::vector<double> taper(int sections, double r0, double r1) {
  std::vector<double> r;
  for (int k = 0; k <= sections; ++k) r.push_back(r0 + (r1 - r0) * k / sections);
  return r;
}

Mesh make_tree_oak() {
  Mesh mesh;
  mesh.name = "tree_oak";
  MeshBuilder out(mesh);
  tb::Rng rng(0x0a4);
  add_tube(out, trunk_path(4.6, 6, 0.1, 0, rng), taper(6, 0.55, 0.3), 14, true, true);
  add_blob(out, {0, 7.4, 0}, {2.8, 2.3, 2.8}, 3, 0.1, 0.05, rng);
  for (int b = 0; b < 6; ++b) {
    const double angle = 2 * kPi * b / 6 + draw(rng, -0.3, 0.3);
    const double distance = draw(rng, 2.1, 2.7);
    const double y = draw(rng, 5.6, 7.8);
    const double radius = draw(rng, 1.7, 2.2);
    const P3 centre{distance * std::cos(angle), y, distance * std::sin(angle)};
    add_blob(out, centre, {radius, radius * 0.85, radius}, 3, 0.12, 0.05, rng);
    add_cylinder(out, {0, 3.4 + 0.2 * b, 0}, centre * 0.75, 0.17, 0.07, 8, 3, true);
  }
  return mesh;
}

Mesh make_tree_maple() {
  Mesh mesh;
  mesh.name = "tree_maple";
  MeshBuilder out(mesh);
  tb::Rng rng(0x3a91e);
  add_tube(out, trunk_path(5.5, 7, 0.08, 0.2, rng), taper(7, 0.45, 0.22), 12, true, true);
  add_blob(out, {0.2, 8.6, 0}, {3.3, 2.9, 3.3}, 4, 0.12, 0.03, rng);
  for (int b = 0; b < 4; ++b) {
    const double angle = 2 * kPi * b / 4 + 0.5;
    const double radius = draw(rng, 1.5, 1.9);
    const P3 centre{2.6 * std::cos(angle), draw(rng, 6.0, 6.8), 2.6 * std::sin(angle)};
    add_blob(out, centre, {radius, radius * 0.8, radius}, 3, 0.15, 0.05, rng);
    add_cylinder(out, {0, 4.5, 0}, centre * 0.7, 0.14, 0.06, 8, 3, true);
  }
  return mesh;
}

Mesh make_tree_birch() {
  Mesh mesh;
  mesh.name = "tree_birch";
  MeshBuilder out(mesh);
  tb::Rng rng(0xb12c4);
  add_tube(out, trunk_path(9.5, 9, 0.06, 0.5, rng), taper(9, 0.2, 0.06), 10, true, true);
  for (int b = 0; b < 14; ++b) {
    const double angle = 2.39996 * b;  // golden angle: blobs spread round the trunk
    const double y = 4.6 + 5.0 * b / 13;
    const double distance = (1.6 - 0.9 * b / 13) * draw(rng, 0.8, 1.2);
    const double radius = draw(rng, 0.8, 1.25);
    const P3 centre{0.5 * ((y + 0.6) / 10.1) * ((y + 0.6) / 10.1) + distance * std::cos(angle), y,
                    distance * std::sin(angle)};
    add_blob(out, centre, {radius, radius * 1.1, radius}, 2, 0.15, 0.08, rng);
    add_cylinder(out, {centre.x * 0.3, y - 0.8, centre.z * 0.2}, centre, 0.05, 0.025, 6, 2, true);
  }
  return mesh;
}

Mesh make_conifer(const char* name, uint64_t seed, double height, int layers, double base_radius, double first,
                  double layer_height, double droop, int segments, int rings) {
  Mesh mesh;
  mesh.name = name;
  MeshBuilder out(mesh);
  tb::Rng rng(seed);
  add_tube(out, trunk_path(height, 8, 0.04, 0, rng), taper(8, 0.32, 0.06), 10, true, true);
  for (int layer = 0; layer < layers; ++layer) {
    const double f = static_cast<double>(layer) / layers;
    const double apex_y = first + (height - first) * f + layer_height;
    const double radius = base_radius * (1 - f) + 0.35;
    add_cone_layer(out, {0, apex_y, 0}, radius, layer_height, droop * (1 - f), segments, rings, rng);
  }
  return mesh;
}

void add_dead_branch(MeshBuilder& out, const P3& from, const P3& dir, double len, double radius, int depth,
                     tb::Rng& rng) {
  const P3 to = from + dir * len;
  const double bx = draw(rng, -0.1, 0.1), bz = draw(rng, -0.1, 0.1);
  const P3 mid = from + dir * (len / 2) + P3{bx * len, 0, bz * len};
  add_tube(out, {from, mid, to}, {radius, radius * 0.8, radius * 0.6}, depth >= 2 ? 8 : 5, false, true);
  if (depth == 0) return;
  for (int c = 0; c < 3; ++c) {
    const double px = draw(rng, -1, 1), py = draw(rng, -0.2, 0.6), pz = draw(rng, -1, 1);
    const P3 child = normalise(dir + P3{px, py + 0.25, pz} * 0.9);
    add_dead_branch(out, to - dir * (radius * 0.5), child, len * 0.68, radius * 0.55, depth - 1, rng);
  }
}

Mesh make_tree_dead() {
  Mesh mesh;
  mesh.name = "tree_dead";
  MeshBuilder out(mesh);
  tb::Rng rng(0xdead);
  add_tube(out, trunk_path(3.2, 4, 0.1, 0.3, rng), taper(4, 0.38, 0.26), 10, true, false);
  add_dead_branch(out, {0.3, 3.1, 0}, normalise({0.1, 1, 0.05}), 3.0, 0.25, 3, rng);
  return mesh;
}

Mesh make_bush() {
  Mesh mesh;
  mesh.name = "bush";
  MeshBuilder out(mesh);
  tb::Rng rng(0xb054);
  for (int b = 0; b < 6; ++b) {
    const double angle = 2 * kPi * b / 6;
    const double radius = draw(rng, 0.55, 0.85);
    const double distance = b == 0 ? 0.0 : 0.7;
    add_blob(out, {distance * std::cos(angle), 0.45 + draw(rng, 0, 0.4), distance * std::sin(angle)},
             {radius, radius * 0.8, radius}, 2, 0.15, 0.1, rng);
  }
  return mesh;
}

Mesh make_rock(const char* name, uint64_t seed, const P3& radii, int levels, double bumps) {
  Mesh mesh;
  mesh.name = name;
  MeshBuilder out(mesh);
  tb::Rng rng(seed);
  add_blob(out, {0, radii.y * 0.45, 0}, radii, levels, bumps, 0.03, rng);
  return mesh;
}

// A clump of thin curved blades (each a tapering strip of 7 triangles).
Mesh make_grass_clump() {
  Mesh mesh;
  mesh.name = "grass_clump";
  MeshBuilder out(mesh);
  tb::Rng rng(0x96a55);
  for (int blade = 0; blade < 70; ++blade) {
    const double a = draw(rng, 0, 2 * kPi), r = draw(rng, 0, 0.3);
    const double height = draw(rng, 0.3, 0.75), lean = draw(rng, 0.05, 0.35);
    const double heading = draw(rng, 0, 2 * kPi);
    const P3 base{r * std::cos(a), -0.05, r * std::sin(a)};
    const P3 toward{std::cos(heading), 0, std::sin(heading)};
    const P3 side{-toward.z, 0, toward.x};
    const double width = draw(rng, 0.015, 0.03);
    std::array<uint32_t, 8> strip{};
    for (int k = 0; k < 4; ++k) {
      const double f = k / 4.0;
      const P3 c = base + toward * (lean * f * f) + P3{0, height * f, 0};
      strip[2 * k] = out.vertex(c - side * (width * (1 - f)));
      strip[2 * k + 1] = out.vertex(c + side * (width * (1 - f)));
    }
    const uint32_t tip = out.vertex(base + toward * lean + P3{0, height, 0});
    for (int k = 0; k < 3; ++k) out.quad(strip[2 * k], strip[2 * k + 1], strip[2 * k + 3], strip[2 * k + 2]);
    out.triangle(strip[6], strip[7], tip);
  }
  return mesh;
}

// ---------------------------------------------------------------------------
// Buildings. Local frame: footprint centred on the origin, width along x,
// depth along z, the front (door) facing +z, ground floor at y = 0 and
// walls reaching 2.5 m below it into the ground.

struct BuildingSpec {
  const char* name;
  double width, depth;
  int storeys;
  double storey_height;
  double window_width, window_height, sill;
  double door_width, door_height;
  bool gable;       // pitched roof (else flat roof behind a parapet)
  bool shop_front;  // big ground-floor windows either side of the door
  bool partition;   // an inner wall with doors: two rooms per storey
};

std::vector<Opening> storey_windows(const BuildingSpec& b, double length, int storey, double skip_u0, double skip_u1) {
  std::vector<Opening> openings;
  const int count = std::max(1, static_cast<int>((length - 1.0) / (b.window_width + 1.4)));
  for (int m = 0; m < count; ++m) {
    const double uc = length * (m + 0.5) / count;
    const Opening o{uc - b.window_width / 2, uc + b.window_width / 2, storey * b.storey_height + b.sill,
                    storey * b.storey_height + b.sill + b.window_height, true};
    if (o.u1 > skip_u0 && o.u0 < skip_u1) continue;
    openings.push_back(o);
  }
  return openings;
}

Mesh make_building(const BuildingSpec& b) {
  Mesh mesh;
  mesh.name = b.name;
  MeshBuilder out(mesh);
  const double t = 0.25, w = b.width, d = b.depth, height = b.storeys * b.storey_height;
  const double top = b.gable ? height : height + 0.9;
  const double foot = -2.5;
  // Front and back walls span the width; the side walls fit between them.
  const double door_u0 = w / 2 - b.door_width / 2, door_u1 = w / 2 + b.door_width / 2;
  std::vector<Opening> front, back, left, right;
  front.push_back({door_u0, door_u1, 0, b.door_height});
  back.push_back({w * 0.7 - 0.45, w * 0.7 + 0.45, 0, 2.1});
  for (int k = 0; k < b.storeys; ++k) {
    const bool ground = k == 0;
    if (ground && b.shop_front) {
      front.push_back({0.8, door_u0 - 0.6, 0.5, b.storey_height - 0.7, true});
      front.push_back({door_u1 + 0.6, w - 0.8, 0.5, b.storey_height - 0.7, true});
    } else {
      for (const Opening& o : storey_windows(b, w, k, ground ? door_u0 - 0.4 : 1e9, ground ? door_u1 + 0.4 : -1e9))
        front.push_back(o);
    }
    for (const Opening& o : storey_windows(b, w, k, ground ? w * 0.7 - 0.85 : 1e9, ground ? w * 0.7 + 0.85 : -1e9))
      back.push_back(o);
    for (const Opening& o : storey_windows(b, d - 2 * t, k, 1e9, -1e9)) {
      left.push_back(o);
      right.push_back(o);
    }
  }
  add_wall(out, Frame{{-w / 2, 0, d / 2 - t / 2}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, w, foot, top, t, front);
  add_wall(out, Frame{{w / 2, 0, -d / 2 + t / 2}, {-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}, w, foot, top, t, back);
  add_wall(out, Frame{{w / 2 - t / 2, 0, d / 2 - t}, {0, 0, -1}, {0, 1, 0}, {1, 0, 0}}, d - 2 * t, foot, top, t, right);
  add_wall(out, Frame{{-w / 2 + t / 2, 0, -d / 2 + t}, {0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}, d - 2 * t, foot, top, t,
           left);
  // Floors (and the roof slab or attic floor).
  for (int k = 0; k <= b.storeys; ++k)
    add_box(out, {-w / 2 + t, k * b.storey_height - 0.25, -d / 2 + t}, {w / 2 - t, k * b.storey_height, d / 2 - t});
  if (b.partition) {
    std::vector<Opening> doors;
    for (int k = 0; k < b.storeys; ++k)
      doors.push_back(
          {(d - 2 * t) * 0.3 - 0.45, (d - 2 * t) * 0.3 + 0.45, k * b.storey_height, k * b.storey_height + 2.1});
    add_wall(out, Frame{{0, 0, -d / 2 + t}, {0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}, d - 2 * t, 0, height - 0.25, 0.12,
             doors);
  }
  // Furniture in the ground-floor rooms: a table and a cupboard each.
  for (int side = -1; side <= 1; side += 2) {
    const double cx = side * w / 4;
    add_box(out, {cx - 0.7, 0.72, -0.45}, {cx + 0.7, 0.77, 0.45});
    for (int leg = 0; leg < 4; ++leg) {
      const double lx = cx + (leg & 1 ? 0.62 : -0.62), lz = leg & 2 ? 0.38 : -0.38;
      add_box(out, {lx - 0.03, 0, lz - 0.03}, {lx + 0.03, 0.72, lz + 0.03});
    }
    add_box(out, {cx - 0.8, 0, -d / 2 + t + 0.05}, {cx + 0.8, 1.9, -d / 2 + t + 0.6});
  }
  if (b.gable) {
    const double overhang = 0.45, rise = 0.42 * d, thick = 0.18;
    const double eave_y = height - rise * overhang / (d / 2);
    for (int side = -1; side <= 1; side += 2) {
      std::array<P3, 8> c;
      for (int i = 0; i < 8; ++i) {
        const double x = i & 1 ? w / 2 + overhang : -w / 2 - overhang;
        const double dy = i & 2 ? thick : 0;
        c[i] = i & 4 ? P3{x, height + rise + dy, 0} : P3{x, eave_y + dy, side * (d / 2 + overhang)};
      }
      add_hexahedron(out, c);
      // Gable ends: outer and inner faces of the triangle above each side wall.
      const double gx = side * w / 2, ix = side * (w / 2 - t);
      out.triangle({gx, height, -d / 2}, {gx, height, d / 2}, {gx, height + rise, 0},
                   {static_cast<double>(side), 0, 0});
      out.triangle({ix, height, -d / 2 + t}, {ix, height, d / 2 - t}, {ix, height + rise * (1 - 2 * t / d), 0},
                   {-static_cast<double>(side), 0, 0});
    }
    add_box(out, {w / 4, height + rise * 0.3, -d / 4 - 0.4}, {w / 4 + 0.7, height + rise + 0.8, -d / 4 + 0.3});
  } else {
    add_box(out, {-w / 4 - 1.0, height, -d / 4 - 0.8}, {-w / 4 + 1.0, height + 1.2, -d / 4 + 0.8});  // plant room
    add_cylinder(out, {w / 4, height, 0}, {w / 4, height + 2.0, 0}, 0.9, 0.9, 20, 2, true);          // water tank
  }
  if (b.shop_front) {
    add_box(out, {-3.0, b.storey_height + 0.1, d / 2}, {3.0, b.storey_height + 0.9, d / 2 + 0.15});  // sign
    std::array<P3, 8> c;  // awning over the shop windows
    for (int i = 0; i < 8; ++i) {
      const double x = i & 1 ? w / 2 - 0.5 : -w / 2 + 0.5;
      const double dy = i & 2 ? 0.06 : 0;
      c[i] = i & 4 ? P3{x, b.storey_height - 0.75 + dy, d / 2 + 1.7} : P3{x, b.storey_height - 0.25 + dy, d / 2};
    }
    add_hexahedron(out, c);
  }
  return mesh;
}

// ---------------------------------------------------------------------------
// Street furniture. Local frames: origin at the foot, +y up.

// Pole at the origin, mast arm along -x over the road at 6.7 m, three
// signal heads facing -z hanging from it: a big, mostly empty box.
Mesh make_traffic_light() {
  Mesh mesh;
  mesh.name = "traffic_light";
  MeshBuilder out(mesh);
  tb::Rng rng(0x7a1);
  add_cylinder(out, {0, -0.5, 0}, {0, 7.4, 0}, 0.17, 0.12, 16, 6, true);
  add_box(out, {-0.3, -0.5, -0.3}, {0.3, 0.15, 0.3});
  add_cylinder(out, {0.1, 6.7, 0}, {-11.2, 6.95, 0}, 0.13, 0.06, 12, 10, true);
  add_cylinder(out, {0, 5.6, 0}, {-3.2, 6.75, 0}, 0.05, 0.04, 8, 3, true);
  for (const double hx : {-3.4, -6.9, -10.4}) {
    add_cylinder(out, {hx, 6.9, 0}, {hx, 6.25, 0}, 0.04, 0.04, 8, 1, true);
    add_box(out, {hx - 0.18, 5.1, -0.16}, {hx + 0.18, 6.25, 0.16});
    add_box(out, {hx - 0.36, 4.95, 0.16}, {hx + 0.36, 6.4, 0.2});
    for (int lamp = 0; lamp < 3; ++lamp) {
      const double yc = 5.3 + 0.37 * lamp;
      add_blob(out, {hx, yc, -0.16}, {0.12, 0.12, 0.05}, 2, 0, 0, rng);
      add_box(out, {hx - 0.14, yc + 0.12, -0.42}, {hx + 0.14, yc + 0.14, -0.16});
      add_box(out, {hx - 0.14, yc - 0.08, -0.4}, {hx - 0.12, yc + 0.12, -0.16});
      add_box(out, {hx + 0.12, yc - 0.08, -0.4}, {hx + 0.14, yc + 0.12, -0.16});
    }
  }
  add_box(out, {-0.17, 2.5, -0.55}, {0.17, 3.1, -0.17});  // pedestrian signal
  add_box(out, {-0.06, 1.0, -0.24}, {0.06, 1.2, -0.16});  // push button
  add_box(out, {-2.0, 7.15, -0.02}, {-0.6, 7.45, 0.02});  // street name sign
  add_cylinder(out, {-1.8, 6.95, 0}, {-1.8, 7.15, 0}, 0.02, 0.02, 6, 1, false);
  add_cylinder(out, {-0.8, 6.93, 0}, {-0.8, 7.15, 0}, 0.02, 0.02, 6, 1, false);
  return mesh;
}

Mesh make_lamp_post() {
  Mesh mesh;
  mesh.name = "lamp_post";
  MeshBuilder out(mesh);
  tb::Rng rng(0x1a3b);
  add_cylinder(out, {0, -0.5, 0}, {0, 7.8, 0}, 0.14, 0.08, 12, 6, true);
  add_cylinder(out, {0, -0.5, 0}, {0, 0.6, 0}, 0.22, 0.2, 12, 1, true);
  add_tube(out, {{0, 7.4, 0}, {-0.4, 7.75, 0}, {-1.0, 7.92, 0}, {-1.7, 7.95, 0}}, {0.06, 0.055, 0.05, 0.05}, 8, true,
           true);
  add_box(out, {-2.4, 7.8, -0.22}, {-1.5, 8.0, 0.22});
  add_blob(out, {-1.95, 7.78, 0}, {0.32, 0.06, 0.16}, 2, 0, 0, rng);
  return mesh;
}

// Pole with a cross arm along z: the outer wires hang from (0, 8.32, +-1.0),
// the middle one from (0, 8.7, 0).
constexpr double kWireAttachY = 8.32;
Mesh make_power_pole(bool transformer) {
  Mesh mesh;
  mesh.name = transformer ? "power_pole_transformer" : "power_pole";
  MeshBuilder out(mesh);
  add_cylinder(out, {0, -1.0, 0}, {0, 8.5, 0}, 0.16, 0.12, 12, 8, true);
  add_box(out, {-0.06, 8.0, -1.2}, {0.06, 8.12, 1.2});
  for (const double z : {-1.0, 1.0}) add_cylinder(out, {0, 8.12, z}, {0, 8.32, z}, 0.045, 0.035, 8, 2, true);
  add_cylinder(out, {0, 8.5, 0}, {0, 8.7, 0}, 0.045, 0.035, 8, 2, true);
  add_beam(out, {0, 7.4, 0}, {0, 8.0, -0.8}, 0.03, 0.03);  // braces
  add_beam(out, {0, 7.4, 0}, {0, 8.0, 0.8}, 0.03, 0.03);
  if (transformer) {
    add_cylinder(out, {0.5, 6.0, 0}, {0.5, 7.1, 0}, 0.33, 0.33, 20, 3, true);
    add_box(out, {0.1, 6.4, -0.12}, {0.2, 6.7, 0.12});
    for (const double z : {-0.15, 0.15}) add_cylinder(out, {0.5, 7.1, z}, {0.5, 7.35, z}, 0.04, 0.03, 8, 1, true);
  }
  return mesh;
}

// Three sagging wires from x = 0 to x = kSpan (pole to pole), at the
// attachment points of make_power_pole: long, thin, slightly off-axis
// triangles (4-sided tubes 24 mm across) in a 40 m box.
constexpr double kSpan = 40;
Mesh make_power_wires() {
  Mesh mesh;
  mesh.name = "power_wires";
  MeshBuilder out(mesh);
  const std::array<P3, 3> attach = {{{0, 0, -1.0}, {0, 0.38, 0}, {0, 0, 1.0}}};
  for (const P3& a : attach) {
    std::vector<P3> centres;
    std::vector<double> radii;
    for (int k = 0; k <= 40; ++k) {
      const double f = k / 40.0;
      centres.push_back({kSpan * f, a.y - 1.1 * 4 * f * (1 - f), a.z});
      radii.push_back(0.012);
    }
    add_tube(out, centres, radii, 4, false, false);
  }
  return mesh;
}

// A 10 m run of fence from x = 0 to x = kFenceRun: four posts, two rails.
constexpr double kFenceRun = 10;
Mesh make_fence() {
  Mesh mesh;
  mesh.name = "fence";
  MeshBuilder out(mesh);
  for (int p = 0; p < 4; ++p) {
    const double x = kFenceRun * p / 4;
    add_box(out, {x - 0.05, -0.4, -0.05}, {x + 0.05, 1.15, 0.05});
  }
  add_box(out, {0, 0.45, 0.05}, {kFenceRun, 0.55, 0.09});
  add_box(out, {0, 0.95, 0.05}, {kFenceRun, 1.05, 0.09});
  return mesh;
}

Mesh make_bench() {
  Mesh mesh;
  mesh.name = "bench";
  MeshBuilder out(mesh);
  for (const double x : {-0.8, 0.8}) {
    add_box(out, {x - 0.04, -0.05, -0.25}, {x + 0.04, 0.43, -0.19});
    add_box(out, {x - 0.04, -0.05, 0.17}, {x + 0.04, 0.43, 0.23});
    add_box(out, {x - 0.04, 0.38, -0.25}, {x + 0.04, 0.43, 0.25});
    add_box(out, {x - 0.04, 0.62, -0.25}, {x + 0.04, 0.67, 0.2});
    add_beam(out, {x, 0.43, -0.2}, {x, 0.95, -0.32}, 0.03, 0.03);
  }
  for (int s = 0; s < 4; ++s) add_box(out, {-0.95, 0.43, -0.22 + 0.115 * s}, {0.95, 0.47, -0.13 + 0.115 * s});
  for (int s = 0; s < 3; ++s) {
    const double y = 0.55 + 0.14 * s, z = -0.23 - 0.03 * s;
    add_beam(out, {-0.95, y, z}, {0.95, y, z}, 0.04, 0.012);
  }
  return mesh;
}

Mesh make_barrel() {
  Mesh mesh;
  mesh.name = "barrel";
  MeshBuilder out(mesh);
  std::vector<P3> centres;
  std::vector<double> radii;
  for (int k = 0; k <= 10; ++k) {
    centres.push_back({0, 0.9 * k / 10, 0});
    radii.push_back(0.28 + 0.04 * std::sin(kPi * k / 10));
  }
  add_tube(out, centres, radii, 24, true, true);
  add_cylinder(out, {0, 0.15, 0}, {0, 0.2, 0}, 0.315, 0.315, 24, 1, false);
  add_cylinder(out, {0, 0.7, 0}, {0, 0.75, 0}, 0.315, 0.315, 24, 1, false);
  return mesh;
}

Mesh make_hydrant() {
  Mesh mesh;
  mesh.name = "hydrant";
  MeshBuilder out(mesh);
  tb::Rng rng(0x4d2);
  add_cylinder(out, {0, -0.2, 0}, {0, 0.08, 0}, 0.17, 0.16, 16, 1, true);
  add_cylinder(out, {0, 0.08, 0}, {0, 0.7, 0}, 0.12, 0.11, 16, 4, true);
  add_blob(out, {0, 0.7, 0}, {0.12, 0.1, 0.12}, 2, 0, 0, rng);
  add_cylinder(out, {-0.22, 0.45, 0}, {0.22, 0.45, 0}, 0.05, 0.05, 10, 2, true);
  add_cylinder(out, {0, 0.42, 0}, {0, 0.42, 0.2}, 0.07, 0.07, 10, 1, true);
  return mesh;
}

// A stop sign (an octagon facing +z) over a street-name plate.
Mesh make_road_sign() {
  Mesh mesh;
  mesh.name = "road_sign";
  MeshBuilder out(mesh);
  add_cylinder(out, {0, -0.4, 0}, {0, 2.45, 0}, 0.035, 0.035, 8, 3, true);
  add_cylinder(out, {0, 2.1, 0.04}, {0, 2.1, 0.07}, 0.38, 0.38, 8, 1, true);
  add_box(out, {-0.45, 1.55, 0.04}, {0.45, 1.72, 0.06});
  return mesh;
}

// Open to +z: four posts, a roof, a barred back and a bench.
Mesh make_bus_shelter() {
  Mesh mesh;
  mesh.name = "bus_shelter";
  MeshBuilder out(mesh);
  for (const double x : {-1.95, 1.95})
    for (const double z : {-0.75, 0.75}) add_box(out, {x - 0.05, -0.3, z - 0.05}, {x + 0.05, 2.45, z + 0.05});
  add_box(out, {-2.1, 2.45, -0.95}, {2.1, 2.55, 0.95});
  for (const double y : {0.4, 1.2, 2.0}) add_box(out, {-1.9, y - 0.03, -0.78}, {1.9, y + 0.03, -0.72});
  for (const double x : {-1.95, 1.95})
    for (const double y : {0.4, 1.2, 2.0}) add_box(out, {x - 0.03, y - 0.03, -0.7}, {x + 0.03, y + 0.03, 0.7});
  add_box(out, {-1.6, 0.42, -0.7}, {1.6, 0.47, -0.3});
  for (const double x : {-1.4, 0.0, 1.4}) add_box(out, {x - 0.03, -0.05, -0.55}, {x + 0.03, 0.42, -0.45});
  return mesh;
}

void add_wheel(MeshBuilder& out, const P3& centre, double radius, double width) {
  add_cylinder(out, centre + P3{-width / 2, 0, 0}, centre + P3{width / 2, 0, 0}, radius, radius, 20, 2, true);
}

// Length along z (front +z), wheels on y = 0: the cabin is pillars and a
// roof over open windows, with seats inside.
Mesh make_car_sedan() {
  Mesh mesh;
  mesh.name = "car_sedan";
  MeshBuilder out(mesh);
  tb::Rng rng(0xca5);
  for (const double x : {-0.78, 0.78})
    for (const double z : {-1.35, 1.35}) add_wheel(out, {x, 0.33, z}, 0.33, 0.24);
  std::array<P3, 8> body;
  for (int i = 0; i < 8; ++i) {
    const bool up = i & 2, fore = i & 4;
    const double x = (i & 1 ? 1 : -1) * (up ? 0.86 : 0.9);
    body[i] = {x, up ? 0.92 : 0.3, fore ? (up ? 2.0 : 2.25) : (up ? -2.15 : -2.25)};
  }
  add_hexahedron(out, body);
  for (const double x : {-1.0, 1.0}) {
    add_beam(out, {x * 0.82, 0.92, 0.9}, {x * 0.7, 1.42, 0.25}, 0.05, 0.04);
    add_beam(out, {x * 0.84, 0.92, -0.3}, {x * 0.72, 1.42, -0.3}, 0.05, 0.04);
    add_beam(out, {x * 0.82, 0.92, -1.35}, {x * 0.7, 1.42, -0.9}, 0.05, 0.04);
    add_box(out, {x * 0.95 - 0.05, 0.95, 0.7}, {x * 0.95 + 0.05, 1.08, 0.82});   // mirror
    add_blob(out, {x * 0.6, 0.75, 2.2}, {0.15, 0.08, 0.06}, 1, 0, 0, rng);       // headlight
    add_box(out, {x * 0.65 - 0.15, 0.7, -2.27}, {x * 0.65 + 0.15, 0.82, -2.2});  // tail light
  }
  add_box(out, {-0.72, 1.42, -0.95}, {0.72, 1.47, 0.3});
  add_box(out, {-0.92, 0.3, 2.25}, {0.92, 0.48, 2.35});
  add_box(out, {-0.92, 0.3, -2.35}, {0.92, 0.48, -2.25});
  for (const double x : {-0.4, 0.4}) {
    add_box(out, {x - 0.25, 0.45, -0.3}, {x + 0.25, 0.62, 0.2});
    add_box(out, {x - 0.25, 0.62, -0.38}, {x + 0.25, 1.2, -0.26});
  }
  add_box(out, {-0.7, 0.45, -1.3}, {0.7, 0.6, -0.8});
  add_box(out, {-0.7, 0.6, -1.4}, {0.7, 1.15, -1.28});
  add_box(out, {-0.8, 0.92, 0.55}, {0.8, 1.05, 0.85});
  add_cylinder(out, {-0.4, 1.0, 0.42}, {-0.4, 1.04, 0.47}, 0.18, 0.18, 16, 1, false);
  return mesh;
}

// A van: walls of its own with window holes, a nose, wheels, seats, cargo.
Mesh make_car_van() {
  Mesh mesh;
  mesh.name = "car_van";
  MeshBuilder out(mesh);
  for (const double x : {-0.88, 0.88})
    for (const double z : {-1.8, 1.9}) add_wheel(out, {x, 0.36, z}, 0.36, 0.26);
  const double len = 5.0, t = 0.06;
  add_wall(out, Frame{{-1.0 + t / 2, 0, -2.5}, {0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}, len, 0.35, 2.3, t,
           {{3.6, 4.6, 1.3, 2.05}, {0.5, 3.2, 1.35, 1.95}});
  add_wall(out, Frame{{1.0 - t / 2, 0, 2.5}, {0, 0, -1}, {0, 1, 0}, {1, 0, 0}}, len, 0.35, 2.3, t,
           {{0.4, 1.4, 1.3, 2.05}, {1.8, 4.5, 1.35, 1.95}});
  add_wall(out, Frame{{-1.0 + t, 0, 2.5 - t / 2}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 2.0 - 2 * t, 0.35, 2.3, t,
           {{0.12, 1.76, 1.3, 2.15}});
  add_wall(out, Frame{{1.0 - t, 0, -2.5 + t / 2}, {-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}, 2.0 - 2 * t, 0.35, 2.3, t,
           {{0.15, 0.85, 1.35, 2.0}, {1.03, 1.73, 1.35, 2.0}});
  add_box(out, {-1.0, 2.3, -2.5}, {1.0, 2.36, 2.5});
  add_box(out, {-0.97, 0.35, -2.47}, {0.97, 0.45, 2.47});
  std::array<P3, 8> nose;
  for (int i = 0; i < 8; ++i) {
    const bool up = i & 2, fore = i & 4;
    nose[i] = {(i & 1 ? 1 : -1) * 0.98, up ? 1.15 : 0.35, fore ? (up ? 2.95 : 3.1) : 2.5};
  }
  add_hexahedron(out, nose);
  for (const double x : {-0.45, 0.45}) {
    add_box(out, {x - 0.25, 0.45, 1.2}, {x + 0.25, 0.9, 1.7});
    add_box(out, {x - 0.25, 0.9, 1.1}, {x + 0.25, 1.6, 1.22});
  }
  for (int c = 0; c < 3; ++c) add_box(out, {-0.8 + 0.55 * c, 0.45, -2.3}, {-0.35 + 0.55 * c, 1.0 + 0.2 * c, -1.6});
  return mesh;
}

// Several small objects in one BLAS (crates, stones, planks, tyres) strewn
// over 16 m x 16 m: a big box that is nearly all empty space.
Mesh make_junk_pile() {
  Mesh mesh;
  mesh.name = "junk_pile";
  MeshBuilder out(mesh);
  tb::Rng rng(0x1c4);
  for (int k = 0; k < 40; ++k) {
    const double x = draw(rng, -8, 8), z = draw(rng, -8, 8), yaw = draw(rng, 0, 2 * kPi);
    const Frame f = yawed({x, 0, z}, yaw);
    switch (k % 4) {
      case 0: {
        const double s = draw(rng, 0.4, 0.9);
        add_box(out, f, {-s / 2, -0.1, -s / 2}, {s / 2, s - 0.1, s / 2});
        break;
      }
      case 1: {
        const double r = draw(rng, 0.15, 0.45);
        add_blob(out, {x, r * 0.3, z}, {r, r * 0.7, r * 0.9}, 1, 0.2, 0.1, rng);
        break;
      }
      case 2: {
        const double l = draw(rng, 1.5, 3.0);
        add_beam(out, f.at({-l / 2, 0.03, 0}), f.at({l / 2, 0.08, 0}), 0.1, 0.025);
        break;
      }
      default:
        add_cylinder(out, {x, -0.02, z}, {x, 0.2, z}, 0.35, 0.35, 16, 1, true);
        break;
    }
  }
  return mesh;
}

// ---------------------------------------------------------------------------
// Instances.

Transform3x4 affine(const P3& xcol, const P3& ycol, const P3& zcol, const P3& t) {
  Transform3x4 out;
  out.m = {static_cast<float>(xcol.x), static_cast<float>(ycol.x), static_cast<float>(zcol.x), static_cast<float>(t.x),
           static_cast<float>(xcol.y), static_cast<float>(ycol.y), static_cast<float>(zcol.y), static_cast<float>(t.y),
           static_cast<float>(xcol.z), static_cast<float>(ycol.z), static_cast<float>(zcol.z), static_cast<float>(t.z)};
  return out;
}
// Scale (sx, sy, sz) in the part's frame (a negative one mirrors), then yaw.
Transform3x4 placement(const P3& at, double yaw, double sx, double sy, double sz) {
  const double c = std::cos(yaw), s = std::sin(yaw);
  return affine(P3{c, 0, -s} * sx, P3{0, sy, 0}, P3{s, 0, c} * sz, at);
}
Transform3x4 placement(const P3& at, double yaw, double scale = 1) { return placement(at, yaw, scale, scale, scale); }

// A part spanning x = 0..run in its frame stretched from a to b: x follows
// b - a (sheared where b is higher than a), y stays vertical, z turns with
// the run's heading.
Transform3x4 span(const P3& a, const P3& b, double run, double sy = 1) {
  const P3 along = b - a;
  const double horizontal = std::sqrt(along.x * along.x + along.z * along.z);
  return affine(along * (1 / run), P3{0, sy, 0}, P3{-along.z / horizontal, 0, along.x / horizontal}, a);
}
// The yaw turning the part's +x toward the heading (dx, dz), as a transform.
Transform3x4 heading(const P3& at, double dx, double dz, double sy = 1) {
  const double h = std::sqrt(dx * dx + dz * dz);
  return affine(P3{dx / h, 0, dz / h}, P3{0, sy, 0}, P3{-dz / h, 0, dx / h}, at);
}

P3 on_ground(double x, double z, double sink = 0) { return {x, surface_height(x, z) - sink, z}; }

// A placed building's footprint (world), kept clear of trees and grass.
struct Lot {
  double x, z, radius;
};

class LevelBuilder {
 public:
  explicit LevelBuilder(Scene& scene) : scene_(scene) {}
  uint32_t add(Mesh mesh) {
    scene_.blases.push_back(std::move(mesh));
    placed_.push_back(0);
    return static_cast<uint32_t>(scene_.blases.size() - 1);
  }
  void place(uint32_t blas, const Transform3x4& transform, uint8_t mask = 0xff, uint8_t tapu = 0) {
    Instance instance;
    instance.blas = blas;
    instance.object_to_world = transform;
    instance.mask = mask;
    instance.tapu = tapu;
    instance.node = scene_.blases[blas].name + "#" + std::to_string(placed_[blas]++);
    scene_.instances.push_back(std::move(instance));
  }
  void add_lot(double x, double z, double radius) { lots_.push_back({x, z, radius}); }
  bool on_lot(double x, double z, double margin) const {
    for (const Lot& lot : lots_) {
      const double dx = x - lot.x, dz = z - lot.z;
      if (dx * dx + dz * dz < (lot.radius + margin) * (lot.radius + margin)) return true;
    }
    return false;
  }

 private:
  Scene& scene_;
  std::vector<uint32_t> placed_;
  std::vector<Lot> lots_;
};

bool in_village(double x, double z) {
  return (std::fabs(x) < 40 && std::fabs(z) < 100) || (std::fabs(z) < 40 && std::fabs(x) < 100);
}

// The camera stands on the main road's centre line under the near-side
// traffic light's mast arm (the light at (7.5, -9.5), arm over x < 7.5).
constexpr double kNearLightX = 7.5, kNearLightZ = -9.5;
// The instances a title would flag for TLAS pull-up (TAPU, bvh.tapu:
// scene): the seeds' own example, traffic lights whose mast arm leaves
// their box mostly empty with the road under it, and the XDXR notes'
// hanging power wires, long thin spans whose boxes cover the road.
constexpr uint8_t kTrafficLightTapu = 4, kWiresTapu = 4;
constexpr double kCameraX = 0.5, kCameraZ = kNearLightZ - 0.2;

}  // namespace

Scene make_default_level() {
  Scene scene;
  scene.name = "default level";
  LevelBuilder level(scene);

  const uint32_t terrain = level.add(make_terrain());
  const uint32_t oak = level.add(make_tree_oak());
  const uint32_t maple = level.add(make_tree_maple());
  const uint32_t birch = level.add(make_tree_birch());
  const uint32_t pine = level.add(make_conifer("tree_pine", 0x9193, 14, 10, 3.3, 2.4, 1.5, 0.6, 48, 4));
  const uint32_t spruce = level.add(make_conifer("tree_spruce", 0x5b7c, 16, 16, 2.4, 1.5, 1.1, 0.45, 36, 3));
  const uint32_t dead = level.add(make_tree_dead());
  const uint32_t bush = level.add(make_bush());
  const uint32_t rock_small = level.add(make_rock("rock_small", 0x70c1, {0.6, 0.45, 0.55}, 3, 0.25));
  const uint32_t boulder = level.add(make_rock("rock_boulder", 0x70c2, {1.9, 1.4, 1.6}, 4, 0.22));
  const uint32_t rock_slab = level.add(make_rock("rock_slab", 0x70c3, {1.4, 0.35, 0.9}, 3, 0.15));
  const uint32_t grass = level.add(make_grass_clump());
  const std::array<BuildingSpec, 5> specs = {{
      {"building_house_small", 8, 7, 1, 2.9, 1.2, 1.3, 0.9, 1.0, 2.1, true, false, true},
      {"building_house", 10, 8, 2, 2.9, 1.2, 1.4, 0.9, 1.1, 2.2, true, false, true},
      {"building_apartment", 16, 11, 4, 3.0, 1.4, 1.5, 0.9, 1.4, 2.3, false, false, true},
      {"building_shop", 13, 10, 1, 3.8, 1.4, 1.5, 1.0, 1.6, 2.5, false, true, false},
      {"building_warehouse", 18, 12, 1, 6.0, 2.0, 1.2, 3.6, 4.0, 4.5, true, false, false},
  }};
  std::array<uint32_t, 5> building{};
  for (size_t k = 0; k < specs.size(); ++k) building[k] = level.add(make_building(specs[k]));
  const uint32_t traffic_light = level.add(make_traffic_light());
  const uint32_t lamp = level.add(make_lamp_post());
  const uint32_t pole = level.add(make_power_pole(false));
  const uint32_t pole_transformer = level.add(make_power_pole(true));
  const uint32_t wires = level.add(make_power_wires());
  const uint32_t fence = level.add(make_fence());
  const uint32_t bench = level.add(make_bench());
  const uint32_t barrel = level.add(make_barrel());
  const uint32_t hydrant = level.add(make_hydrant());
  const uint32_t sign = level.add(make_road_sign());
  const uint32_t shelter = level.add(make_bus_shelter());
  const uint32_t sedan = level.add(make_car_sedan());
  const uint32_t van = level.add(make_car_van());
  const uint32_t junk = level.add(make_junk_pile());

  level.place(terrain, Transform3x4::identity());

  // The village: buildings facing the roads, their yards around them.
  tb::Rng rng(0x1e7e1);
  struct Placed {
    double x, z, yaw, width, depth;
    size_t kind;
  };
  std::vector<Placed> buildings;
  const auto put_building = [&](size_t kind, double x, double z, double yaw, double sx, double sz) {
    const double s = draw(rng, 0.95, 1.08);
    const double w = specs[kind].width * s * std::fabs(sx), d = specs[kind].depth * s * sz;
    // The floor sits on the highest ground under the footprint; the walls
    // reach 2.5 m below it.
    const double c = std::cos(yaw), sn = std::sin(yaw);
    double floor_y = surface_height(x, z);
    for (int corner = 0; corner < 4; ++corner) {
      const double lx = (corner & 1 ? 0.5 : -0.5) * w, lz = (corner & 2 ? 0.5 : -0.5) * d;
      floor_y = std::max(floor_y, surface_height(x + lx * c + lz * sn, z - lx * sn + lz * c));
    }
    level.place(building[kind], placement({x, floor_y + 0.05, z}, yaw, s * sx, s, s * sz));
    level.add_lot(x, z, 0.5 * std::sqrt(w * w + d * d) + 1);
    buildings.push_back({x, z, yaw, w, d, kind});
  };
  const std::array<size_t, 4> main_kinds = {3, 2, 1, 0};  // shops near the crossing, then flats, houses
  for (int side = -1; side <= 1; side += 2) {
    for (int slot = 0; slot < 8; ++slot) {
      const double z = (slot < 4 ? -1 : 1) * (24 + 20 * (slot % 4));
      const size_t kind = main_kinds[slot % 4] == 0 && slot == 7 ? 4 : main_kinds[slot % 4];
      const bool mirrored = (slot + (side > 0 ? 1 : 0)) % 3 == 0;
      const bool stretched = slot == 2 && side > 0;
      const double sx = (mirrored ? -1 : 1) * (stretched ? 1.12 : 1.0), sz = stretched ? 0.92 : 1.0;
      const double depth = specs[kind].depth * sz;
      put_building(kind, side * (12.5 + depth / 2 + 0.5), z, side > 0 ? -kPi / 2 : kPi / 2, sx, sz);
    }
    for (int slot = 0; slot < 6; ++slot) {
      const double x = (slot < 3 ? -1 : 1) * (44 + 20 * (slot % 3));
      const size_t kind = slot % 3 == 2 ? 4 : (slot + (side > 0 ? 1 : 0)) % 2;
      const bool mirrored = slot == 1 || (slot == 4 && side < 0);
      put_building(kind, x, side * (12.5 + specs[kind].depth / 2 + 0.5), side > 0 ? kPi : 0, mirrored ? -1 : 1, 1);
    }
  }
  // Farms out in the fields.
  const std::array<std::array<double, 3>, 5> farms = {
      {{128, 86, 0.4}, {-134, -112, 2.1}, {-120, 140, -0.8}, {150, -130, 1.3}, {96, 160, 2.9}}};
  for (size_t k = 0; k < farms.size(); ++k)
    put_building(k % 2 == 0 ? 4 : 1, farms[k][0], farms[k][1], farms[k][2], 1, 1);

  // Yard props round every building: barrels by a wall, a bench out front,
  // a parked car, a junk pile behind the warehouses.
  for (const Placed& b : buildings) {
    const double c = std::cos(b.yaw), s = std::sin(b.yaw);
    const auto world = [&](double lx, double lz) {
      return std::array<double, 2>{b.x + lx * c + lz * s, b.z - lx * s + lz * c};
    };
    const int barrels = 2 + static_cast<int>(rng.below(3));
    for (int k = 0; k < barrels; ++k) {
      const double along = draw(rng, -0.3, 0.3);
      const auto p = world(b.width / 2 + 0.45, along * b.depth + 0.75 * k);
      const double yaw = draw(rng, 0, 2 * kPi);
      level.place(barrel, placement(on_ground(p[0], p[1], 0.02), yaw, draw(rng, 0.95, 1.05)));
    }
    {
      const auto p = world(0, b.depth / 2 + 1.3);
      level.place(bench, placement(on_ground(p[0], p[1], 0.02), b.yaw));
    }
    if (rng.chance(60)) {
      const auto p = world(-b.width / 2 - 1.8, b.depth * 0.2);
      const bool mirror = rng.chance(30);
      const uint32_t car = rng.chance(30) ? van : sedan;
      const double yaw = b.yaw + draw(rng, -0.1, 0.1);
      level.place(car, placement(on_ground(p[0], p[1], 0), yaw, mirror ? -1 : 1, 1, 1));
    }
    if (b.kind == 4) {
      const auto p = world(0, -b.depth / 2 - 9);
      level.place(junk, placement(on_ground(p[0], p[1], 0), draw(rng, 0, 2 * kPi)));
    }
  }

  // The crossing: four traffic lights, their mast arms over the roads.
  level.place(traffic_light, placement(on_ground(kNearLightX, kNearLightZ, 0), 0), 0xff, kTrafficLightTapu);   // the camera is under this one
  level.place(traffic_light, placement(on_ground(kNearLightX, -kNearLightZ, 0), 0), 0xff, kTrafficLightTapu);  // far side, facing the camera
  level.place(traffic_light, placement(on_ground(-7.5, 9.5, 0), kPi), 0xff, kTrafficLightTapu);
  level.place(traffic_light, placement(on_ground(9.5, -7.5, 0), kPi / 2), 0xff, kTrafficLightTapu);
  level.place(traffic_light, placement(on_ground(-9.5, -7.5, 0), -kPi / 2, -1, 1, 1), 0xff, kTrafficLightTapu);  // mirrored
  for (const auto& p : std::array<std::array<double, 3>, 4>{
           {{-7.0, -7.0, 0}, {7.0, 7.0, kPi}, {-7.0, 7.2, kPi / 2}, {7.2, -7.0, -kPi / 2}}})
    level.place(sign, placement(on_ground(p[0], p[1], 0), p[2]));

  // Lamp posts along both sides of the main road and the cross road.
  for (int k = 0; k < 16; ++k) {
    const double along = -190 + 25 * k;
    if (std::fabs(along) < 12) continue;
    level.place(lamp, placement(on_ground(6.5, along, 0), 0));
    level.place(lamp, placement(on_ground(-6.5, along, 0), kPi));
    level.place(lamp, placement(on_ground(along, 6.5, 0), -kPi / 2));
    level.place(lamp, placement(on_ground(along, -6.5, 0), kPi / 2));
  }

  // Power lines: poles every 40 m beside both roads, wire spans between
  // them (sheared to follow the ground). The cross road's poles and wires
  // are 15 % taller (non-uniform scale) so its wires pass over the main line's.
  for (int line = 0; line < 2; ++line) {
    const double lift = line == 0 ? 1.0 : 1.15;
    std::vector<P3> tops;
    for (int k = 0; k < 10; ++k) {
      const double along = -180 + 40 * k;
      const double x = line == 0 ? -9.5 : along, z = line == 0 ? along : 9.5;
      const P3 foot = on_ground(x, z, 0);
      const double dx = line == 0 ? 0 : 1, dz = line == 0 ? 1 : 0;
      level.place(k % 3 == 1 ? pole_transformer : pole, heading(foot, dx, dz, lift));
      tops.push_back(foot + P3{0, kWireAttachY * lift, 0});
    }
    for (size_t k = 0; k + 1 < tops.size(); ++k)
      level.place(wires, span(tops[k], tops[k + 1], kSpan, lift), 0xff, kWiresTapu);
  }

  // Fences: along the main road outside the village and round the fields,
  // each 10 m run sheared to follow the ground.
  const auto fence_row = [&](double x0, double z0, double dx, double dz, int runs) {
    for (int k = 0; k < runs; ++k) {
      const P3 a = on_ground(x0 + dx * k, z0 + dz * k, 0), b = on_ground(x0 + dx * (k + 1), z0 + dz * (k + 1), 0);
      level.place(fence, span(a, b, kFenceRun));
    }
  };
  fence_row(13, 105, 0, kFenceRun, 9);
  fence_row(-13, 105, 0, kFenceRun, 9);
  fence_row(13, -195, 0, kFenceRun, 9);
  fence_row(-13, -195, 0, kFenceRun, 9);
  fence_row(105, 40, kFenceRun, 0, 9);
  fence_row(-195, -40, kFenceRun, 0, 9);

  // Street furniture: bus shelters, hydrants, parked and moving cars.
  level.place(shelter, placement(on_ground(-8.0, -34, 0), kPi / 2));
  level.place(shelter, placement(on_ground(8.0, 52, 0), -kPi / 2));
  for (int k = 0; k < 8; ++k) {
    const double along = -150 + 40 * k + 17;
    level.place(hydrant, placement(on_ground(k % 2 ? 6.0 : -6.0, along, 0), draw(rng, 0, 2 * kPi)));
    level.place(hydrant, placement(on_ground(along, k % 2 ? -6.0 : 6.0, 0), draw(rng, 0, 2 * kPi)));
  }
  for (const auto& car : std::array<std::array<double, 4>, 10>{{{-1.9, 32, 0, 0},
                                                                {-1.9, 78, 0, 1},
                                                                {1.9, 47, kPi, 0},
                                                                {1.9, 118, kPi, 1},
                                                                {-1.9, 160, 0, 0},
                                                                {1.9, -60, kPi, 0},
                                                                {35, -1.9, kPi / 2, 0},
                                                                {-62, 1.9, -kPi / 2, 1},
                                                                {120, 1.9, -kPi / 2, 0},
                                                                {-140, -1.9, kPi / 2, 0}}})
    level.place(car[3] > 0 ? van : sedan, placement(on_ground(car[0], car[1], 0), car[2]));

  // Street trees between the houses; their crowns reach over the pavement.
  for (int side = -1; side <= 1; side += 2)
    for (int k = 0; k < 8; ++k) {
      const double z = (k < 4 ? -1 : 1) * (34 + 20 * (k % 4));
      const double yaw = draw(rng, 0, 2 * kPi), scale = draw(rng, 0.8, 0.95);
      level.place(k % 2 ? maple : oak, placement(on_ground(side * 10.5, z, 0), yaw, scale));
    }

  // The forest: a jittered 5.5 m grid thinned by a density field; crowns
  // overlap. Conifers on the high ground, broadleaves below, a few dead.
  const std::array<uint32_t, 3> broadleaf = {oak, maple, birch};
  int tree_count = 0;
  for (double gz = -196; gz <= 196; gz += 5.5) {
    for (double gx = -196; gx <= 196; gx += 5.5) {
      const double x = gx + draw(rng, -2.2, 2.2), z = gz + draw(rng, -2.2, 2.2);
      const double yaw = draw(rng, 0, 2 * kPi), scale = draw(rng, 0.75, 1.3);
      const uint32_t pick = rng.below(100);
      if (road_distance(x, z) < 12 || level.on_lot(x, z, 3)) continue;
      if (in_village(x, z) && pick >= 6) continue;
      const double density =
          std::sin(0.029 * x + 1.3) * std::cos(0.033 * z - 0.4) + 0.6 * std::sin(0.011 * x - 0.017 * z + 0.5);
      if (density < -0.45) continue;
      uint32_t kind;
      if (pick < 4) {
        kind = dead;
      } else if (hills(x, z) > 1.2) {
        kind = pick % 2 ? pine : spruce;
      } else {
        kind = broadleaf[pick % 3];
      }
      const double sx = ++tree_count % 41 == 0 ? -scale : scale;  // a few mirrored
      level.place(kind, placement(on_ground(x, z, 0.05), yaw, sx, scale, scale));
    }
  }

  // Undergrowth: bushes, rocks and grass (grass has mask 0x02).
  const auto scatter = [&](uint32_t blas, int count, double clearance, double s_lo, double s_hi, bool stretch,
                           uint8_t mask) {
    for (int k = 0; k < count; ++k) {
      const double x = draw(rng, -196, 196), z = draw(rng, -196, 196);
      const double yaw = draw(rng, 0, 2 * kPi), scale = draw(rng, s_lo, s_hi);
      const double sx = draw(rng, 0.7, 1.4), sy = draw(rng, 0.7, 1.3);
      if (road_distance(x, z) < kRoadHalfWidth + clearance || level.on_lot(x, z, clearance)) continue;
      if (stretch) {
        level.place(blas,
                    placement(on_ground(x, z, 0.1 * scale), yaw, scale * (k % 17 == 0 ? -sx : sx), scale * sy, scale),
                    mask);
      } else {
        level.place(blas, placement(on_ground(x, z, 0.02), yaw, scale), mask);
      }
    }
  };
  scatter(bush, 320, 2, 0.7, 1.4, false, 0xff);
  scatter(rock_small, 200, 1, 0.6, 1.6, true, 0xff);
  scatter(boulder, 60, 3, 0.7, 1.3, true, 0xff);
  scatter(rock_slab, 60, 2, 0.7, 1.4, true, 0xff);
  scatter(grass, 1800, 1.5, 0.7, 1.4, false, 0x02);
  for (int k = 0; k < 6; ++k) {
    const double x = draw(rng, -180, 180), z = draw(rng, -180, 180);
    if (road_distance(x, z) < 20 || level.on_lot(x, z, 8)) continue;
    level.place(junk, placement(on_ground(x, z, 0), draw(rng, 0, 2 * kPi)));
  }
  return scene;
}

Camera default_level_camera() {
  Camera camera;
  const double ground_y = surface_height(kCameraX, kCameraZ);
  camera.eye = {static_cast<float>(kCameraX), static_cast<float>(ground_y + 1.7), static_cast<float>(kCameraZ)};
  camera.look_at = {static_cast<float>(kCameraX), static_cast<float>(ground_y + 2.3),
                    static_cast<float>(kCameraZ + 40)};
  camera.up = {0, 1, 0};
  camera.vertical_fov_degrees = 60;
  return camera;
}

}  // namespace td::scene

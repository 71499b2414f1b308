#include "tb/vectors/vector_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "model/isa/fp32.h"
#include "model/isa/half.h"
#include "model/ref/intersect.h"
#include "tb/common/rng.h"

namespace td::tb {

void fill_expectation(TdvCase& c) {
  const LaneResult result = ref::intersect(Descriptor::unpack(c.desc), c.lane, c.memory());
  if (result.written)
    c.expect = result.dwords;
  else
    c.expect.reset();
}

void fill_expectations(std::vector<TdvCase>& cases) {
  for (TdvCase& c : cases) fill_expectation(c);
}

namespace {

using Cases = std::vector<TdvCase>;
using Halves = std::array<uint16_t, 3>;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kMax = std::numeric_limits<float>::max();
const float kNaN = float_of(0x7fc00000u);
const float kDenormMin = float_of(1u);

// Directed box nodes use these children so that an output names its slot
// (the unit test states expected outputs in terms of them).
constexpr std::array<uint32_t, 4> kChildren{0x10, 0x20, 0x30, 0x40};
constexpr uint64_t kBase = 0x1234;  // 256-byte units: addresses are not trivially 0
constexpr uint64_t kSize = 0xffff;
constexpr uint64_t kUnit = 0x40;
// Remap bits I_SRC=0, J_SRC=1 for every t: mode 1 returns U, V.
constexpr uint32_t kIdentityRemapId = 0x04040404u;

// min > max on every axis: near > far for any nonzero inv, so it never hits.
const Aabb kNeverBox{{1, 1, 1}, {-1, -1, -1}};

float next_up(float x) { return ulp_up(x, 1); }
float next_down_positive(float x) { return float_of(bits_of(x) - 1); }
float half_value(uint16_t bits) { return half_to_float(bits); }

// float_to_half(±0) hands 0 to __builtin_clzll (undefined behaviour), so
// zeros are narrowed here instead.
uint16_t to_half(float value) {
  if (value == 0.0f) return sign_bit(value) ? 0x8000u : 0x0000u;
  return float_to_half(value);
}

// ---------------------------------------------------------------- builders

Descriptor base_desc() {
  Descriptor d;
  d.base_256b = kBase;
  d.size_units = kSize;
  return d;
}
Descriptor with_sort(Descriptor d) { d.box_sort = true; return d; }
Descriptor with_grow(Descriptor d, uint32_t ulps) { d.box_grow_ulps = ulps; return d; }
Descriptor with_mode(Descriptor d, uint32_t mode) { d.return_mode = mode; return d; }
Descriptor with_size(Descriptor d, uint64_t size_units) { d.size_units = size_units; return d; }

// inv_dir = 1/dir (a zero gives a signed infinity); callers that need an
// inconsistent inv_dir override it, since the contract keeps them independent.
Ray make_ray(const Vec3& origin, const Vec3& dir, float extent = kInf) {
  Ray ray;
  ray.extent = extent;
  ray.origin = origin;
  ray.dir = dir;
  for (int a = 0; a < 3; ++a) ray.inv_dir[a] = 1.0f / dir[a];
  return ray;
}
Ray with_inv(Ray ray, const Vec3& inv_dir) { ray.inv_dir = inv_dir; return ray; }
Ray ray_x(float extent = kInf) { return make_ray({0, 0, 0}, {1, 0, 0}, extent); }
Ray ray_xy() { return make_ray({0, 0, 0}, {1, 1, 0}); }
// Looks down -z at the unit triangle of tri_node (z = 5): det = 1, T = 5,
// (U, V, W) = (0.625, 0.25, 0.125), all exact.
Ray tri_front_ray(float extent = kInf, float oz = 10) { return make_ray({0.25f, 0.125f, oz}, {0, 0, -1}, extent); }
Ray tri_back_ray(float extent = kInf) { return make_ray({0.25f, 0.125f, 0}, {0, 0, 1}, extent); }

// A box spanning [x0, x1] in x and [-1, 1] in y, z: with ray_x the y/z
// slabs are (-inf, inf) and only x decides.
Aabb x_box(float x0, float x1) { return Aabb{{x0, -1, -1}, {x1, 1, 1}}; }
// coord 0..2: min.xyz, 3..5: max.xyz.
Aabb with_coord(Aabb box, int coord, float value) {
  (coord < 3 ? box.min : box.max)[coord % 3] = value;
  return box;
}
BoxNode box_node(const std::array<Aabb, 4>& boxes, const std::array<uint32_t, 4>& children = kChildren) {
  BoxNode node;
  node.child = children;
  node.box = boxes;
  return node;
}
// The control node: slot 0 hit by ray_x, the others never hit.
BoxNode hit_node() { return box_node({x_box(2, 3), kNeverBox, kNeverBox, kNeverBox}); }
// For ray_x: slot 0 at t 5, slot 1 behind, slot 2 at t 2, slot 3 around the origin.
BoxNode mixed_node() { return box_node({x_box(5, 6), x_box(-3, -2), x_box(2, 3), x_box(-1, 1)}); }
// For inv.y = ±0, y slabs reaching to infinity: inf * 0 = NaN lands in near
// or far depending on the sign bit alone, which decides hit or miss.
BoxNode zero_inv_node() {
  return box_node({Aabb{{2, -kInf, -1}, {3, 5, 1}}, Aabb{{2, -5, -1}, {3, kInf, 1}}, kNeverBox, kNeverBox});
}

const std::array<Vec3, 3> kUnitTriangle{{{0, 0, 5}, {1, 0, 5}, {0, 1, 5}}};

// (A, B, C) of triangle t placed in its vertex slots; the other vertices lie
// beyond the unit triangle's B-C edge, away from the rays used here.
TriangleNode tri_node(uint32_t t, uint32_t id = kIdentityRemapId, const std::array<Vec3, 3>& abc = kUnitTriangle) {
  TriangleNode node;
  node.vertex = {Vec3{9, 7, 5}, Vec3{8, 9, 5}, Vec3{9, 7, 5}, Vec3{8, 9, 5}, Vec3{9, 9, 5}};
  const std::array<int, 3> slots = triangle_vertices(t);
  for (int i = 0; i < 3; ++i) node.vertex[slots[i]] = abc[i];
  node.id = id;
  return node;
}

std::vector<uint8_t> box32_bytes(const BoxNode& node) {
  std::vector<uint8_t> bytes(128);
  encode_box32(node, bytes.data());
  return bytes;
}
std::vector<uint8_t> box16_bytes(const BoxNode& node) {
  std::vector<uint8_t> bytes(64);
  encode_box16(node, bytes.data());
  return bytes;
}
std::vector<uint8_t> triangle_bytes(const TriangleNode& node) {
  std::vector<uint8_t> bytes(64);
  encode_triangle(node, bytes.data());
  return bytes;
}
// Raw binary16 bits of coordinate `coord` (0..5 as in with_coord) of box `slot`.
void set_half(std::vector<uint8_t>& bytes, int slot, int coord, uint16_t bits) {
  const size_t offset = 16 + 12 * slot + 2 * coord;
  bytes[offset] = static_cast<uint8_t>(bits);
  bytes[offset + 1] = static_cast<uint8_t>(bits >> 8);
}

TdvCase make_case(std::string name, const Descriptor& desc, const Ray& ray, NodeType type, uint64_t unit,
                  std::vector<uint8_t> mem) {
  TdvCase c;
  c.name = std::move(name);
  c.desc = desc.pack();
  c.lane = LaneInput::from_ray(ray, NodePtr::make(unit, type).raw);
  c.mem = std::move(mem);
  return c;
}
TdvCase make_box32_case(std::string name, const Descriptor& desc, const Ray& ray, const BoxNode& node,
                        uint64_t unit = kUnit) {
  return make_case(std::move(name), desc, ray, NodeType::kBox32, unit, box32_bytes(node));
}
TdvCase make_box16_case(std::string name, const Descriptor& desc, const Ray& ray, std::vector<uint8_t> bytes,
                        uint64_t unit = kUnit) {
  return make_case(std::move(name), desc, ray, NodeType::kBox16, unit, std::move(bytes));
}
TdvCase make_triangle_case(std::string name, const Descriptor& desc, const Ray& ray, const TriangleNode& node,
                           uint32_t t, uint64_t unit = kUnit) {
  return make_case(std::move(name), desc, ray, static_cast<NodeType>(t), unit, triangle_bytes(node));
}

TdvCase named(TdvCase c, std::string name) { c.name = std::move(name); return c; }
TdvCase with_ray_dword(TdvCase c, int index, uint32_t bits) { c.lane.ray_dwords[index] = bits; return c; }
TdvCase with_exec0(TdvCase c) { c.lane.exec = false; return c; }
TdvCase with_desc(TdvCase c, const Descriptor& desc) { c.desc = desc.pack(); return c; }
TdvCase with_ptr_type(TdvCase c, NodeType type) {
  c.lane.node_ptr = (c.lane.node_ptr & ~uint64_t{7}) | static_cast<uint64_t>(type);
  return c;
}
TdvCase as_bvh64(TdvCase c, uint64_t unit) {
  c.lane.op = Opcode::kBvh64;
  c.lane.node_ptr = NodePtr::make(unit, c.lane.pointer().type(), true).raw;
  return c;
}
// The A16 form of a binary32 lane (dir and inv_dir narrowed to binary16).
TdvCase with_a16(TdvCase c) {
  const Ray ray = c.lane.ray();
  Halves dir{}, inv{};
  for (int a = 0; a < 3; ++a) {
    dir[a] = to_half(ray.dir[a]);
    inv[a] = to_half(ray.inv_dir[a]);
  }
  const bool exec = c.lane.exec;
  c.lane = LaneInput::from_a16(ray.extent, ray.origin, dir, inv, c.lane.node_ptr, c.lane.op);
  c.lane.exec = exec;
  return c;
}
// Half `index` of an A16 lane: 0..2 dir.xyz, 3..5 inv.xyz (w0 lo, w0 hi, ...).
TdvCase with_a16_half(TdvCase c, int index, uint16_t bits) {
  uint32_t& word = c.lane.ray_dwords[4 + index / 2];
  const int shift = (index % 2) * 16;
  word = (word & ~(0xffffu << shift)) | static_cast<uint32_t>(bits) << shift;
  return c;
}

// ---------------------------------------------------------- directed cases

TdvCase control_box_case(std::string name) {
  return make_box32_case(std::move(name), base_desc(), ray_x(), hit_node());
}
TdvCase control_tri_case(std::string name, float extent = kInf) {
  return make_triangle_case(std::move(name), with_mode(base_desc(), 1), tri_front_ray(extent), tri_node(0), 0);
}
void push_box32(Cases& out, std::string name, const Descriptor& desc, const Ray& ray,
                const std::array<Aabb, 4>& boxes, const std::array<uint32_t, 4>& children = kChildren) {
  out.push_back(make_box32_case(std::move(name), desc, ray, box_node(boxes, children)));
}
// Return mode 1, triangle 0 of `node`: T, det and the barycentrics all show.
void push_tri(Cases& out, std::string name, const Ray& ray, const TriangleNode& node = tri_node(0)) {
  out.push_back(make_triangle_case(std::move(name), with_mode(base_desc(), 1), ray, node, 0));
}
TriangleNode abc_node(const std::array<Vec3, 3>& abc) { return tri_node(0, kIdentityRemapId, abc); }
Ray down_z_at(float x, float y) { return make_ray({x, y, 10}, {0, 0, -1}); }

// §3: which operands make a lane inactive (writes nothing), and which don't.
void add_lane_activity_cases(Cases& out) {
  struct Patch {
    const char* name;
    int dword;  // extent, ox, oy, oz, dx, dy, dz, ix, iy, iz
    uint32_t bits;
  };
  static const Patch kInactive[] = {
      {"nan_extent", 0, 0x7fc00000u},   {"nan_origin_x", 1, 0x7fc00000u},   {"nan_origin_y", 2, 0xffc00000u},
      {"nan_origin_z", 3, 0x7f800001u}, {"nan_dir_x", 4, 0x7fc00000u},      {"snan_dir_y", 5, 0x7f800001u},
      {"nan_dir_z", 6, 0xffffffffu},    {"nan_inv_x", 7, 0x7fc00000u},      {"nan_inv_y", 8, 0x7fbfffffu},
      {"nan_inv_z", 9, 0xffc00001u},    {"inf_origin_pos", 1, 0x7f800000u}, {"inf_origin_neg", 3, 0xff800000u},
  };
  const TdvCase hit = control_box_case("");
  out.push_back(named(with_exec0(hit), "edge.inactive.exec0"));
  for (const Patch& p : kInactive)
    out.push_back(named(with_ray_dword(hit, p.dword, p.bits), std::string("edge.inactive.") + p.name));
  // Inactivity is decided before the descriptor, the type and the bounds.
  Descriptor faulty = base_desc();
  faulty.type = 9;
  out.push_back(named(with_desc(with_exec0(hit), faulty), "edge.inactive.exec0_desc_fault"));
  out.push_back(named(with_ptr_type(with_ray_dword(hit, 2, 0x7fc00000u), NodeType::kReserved7),
                      "edge.inactive.nan_reserved_type"));
  out.push_back(named(with_desc(with_ray_dword(hit, 4, 0x7fc00000u), with_size(base_desc(), 0)),
                      "edge.inactive.nan_out_of_bounds"));

  // Non-NaN infinities outside origin keep the lane active.
  out.push_back(control_box_case("edge.active.inf_extent"));
  out.push_back(named(with_ray_dword(hit, 4, bits_of(kInf)), "edge.active.inf_dir"));
  out.push_back(named(with_ray_dword(hit, 8, bits_of(-kInf)), "edge.active.neg_inf_inv"));
  out.push_back(named(with_ray_dword(hit, 1, bits_of(-kMax)), "edge.active.max_origin"));
  // A triangle miss (+Inf, 1, 0, 0) shows that the lane was written.
  out.push_back(control_tri_case("edge.active.neg_extent", -1.0f));
  out.push_back(control_tri_case("edge.active.neg_inf_extent", -kInf));
}

// §4: every "must" of the descriptor, alone, and the widest valid descriptor.
void add_descriptor_cases(Cases& out) {
  const TdvCase hit = control_box_case("");
  for (int bit : {40, 54, 106, 119, 121, 122, 123}) {
    TdvCase c = hit;
    c.desc[bit / 32] ^= 1u << (bit % 32);  // sets a reserved bit, or clears big_page
    out.push_back(named(c, bit == 123 ? "edge.desc.big_page0" : fmt::format("edge.desc.reserved_bit{}", bit)));
  }
  for (uint32_t type : {0u, 7u, 9u, 15u}) {
    Descriptor d = base_desc();
    d.type = type;
    out.push_back(named(with_desc(hit, d), fmt::format("edge.desc.type{}", type)));
  }
  Descriptor faulty = base_desc();
  faulty.type = 9;
  out.push_back(named(with_desc(control_tri_case(""), faulty), "edge.desc.fault_on_triangle"));
  Descriptor widest = with_mode(with_grow(with_sort(base_desc()), 255), 1);
  widest.base_256b = (uint64_t{1} << 40) - 1;
  widest.size_units = (uint64_t{1} << 42) - 1;
  out.push_back(named(with_desc(hit, widest), "edge.desc.all_fields_max"));
}

// §5: reserved types and the bounds check at both ends of the size.
void add_pointer_cases(Cases& out) {
  const std::vector<uint8_t> box16 = box16_bytes(hit_node());
  out.push_back(make_case("edge.ptr.type6", base_desc(), ray_x(), NodeType::kReserved6, kUnit, box16));
  out.push_back(make_case("edge.ptr.type7", base_desc(), ray_x(), NodeType::kReserved7, kUnit, box16));

  const Descriptor small = with_mode(with_size(base_desc(), 0x20), 1);
  const TriangleNode tri = tri_node(0);
  out.push_back(make_triangle_case("edge.bounds.last_unit_in", small, tri_front_ray(), tri, 0, 0x20));
  out.push_back(make_triangle_case("edge.bounds.past_size", small, tri_front_ray(), tri, 0, 0x21));
  out.push_back(make_box32_case("edge.bounds.box32_last_fit", small, ray_x(), hit_node(), 0x1f));
  out.push_back(make_box32_case("edge.bounds.box32_straddles_end", small, ray_x(), hit_node(), 0x20));
  out.push_back(make_box16_case("edge.bounds.box16_last_unit", small, ray_x(), box16, 0x20));
  out.push_back(make_case("edge.bounds.type6_past_size", small, ray_x(), NodeType::kReserved6, 0x21, box16));
  const Descriptor empty = with_mode(with_size(base_desc(), 0), 1);
  out.push_back(make_triangle_case("edge.bounds.size0_triangle", empty, tri_front_ray(), tri, 0, 0));
  out.push_back(make_box32_case("edge.bounds.size0_box32", empty, ray_x(), hit_node(), 0));

  const uint64_t max_unit32 = (uint64_t{1} << 29) - 1, high = uint64_t{1} << 40;
  out.push_back(make_box16_case("edge.bvh.max_unit", with_size(base_desc(), max_unit32), ray_x(), box16, max_unit32));
  out.push_back(named(as_bvh64(control_box_case(""), kUnit), "edge.bvh64.low_unit"));
  out.push_back(named(as_bvh64(make_box32_case("", with_size(base_desc(), high + 1), ray_x(), hit_node()), high),
                      "edge.bvh64.high_unit"));
  const Descriptor max_size = with_size(base_desc(), (uint64_t{1} << 42) - 1);
  out.push_back(named(as_bvh64(make_box16_case("", max_size, ray_x(), box16), uint64_t{1} << 42),
                      "edge.bvh64.unit_past_max_size"));
  out.push_back(named(as_bvh64(make_triangle_case("", max_size, tri_front_ray(), tri, 0), uint64_t{1} << 60),
                      "edge.bvh64.ptr_bit63"));
}

// §6 steps 1-4: slots, NaN/Inf coordinates, the sign of inv_dir, NaN slabs.
void add_box_slab_cases(Cases& out) {
  const Descriptor plain = base_desc(), sorted = with_sort(base_desc());
  const Aabb never = kNeverBox, ahead = x_box(2, 3);
  out.push_back(make_box32_case("edge.box.unsorted", plain, ray_x(), mixed_node()));
  out.push_back(make_box32_case("edge.box.sorted", sorted, ray_x(), mixed_node()));
  // Sorted, so a slot wrongly treated as a hit would move ahead of slot 0.
  push_box32(out, "edge.box.empty_slot", sorted, ray_x(), {x_box(5, 6), ahead, never, never},
             {0x10, kInvalidChild, 0x30, 0x40});
  push_box32(out, "edge.box.child_ptr_extremes", plain, ray_x(), {ahead, ahead, never, never},
             {0, 0xfffffffeu, 0x30, 0x40});
  push_box32(out, "edge.box.nan_coord", plain, ray_x(),
             {with_coord(ahead, 0, kNaN), with_coord(ahead, 4, kNaN), with_coord(ahead, 2, float_of(0xff800001u)),
              ahead});
  push_box32(out, "edge.box.inf_coord", sorted, ray_x(),
             {Aabb{{-kInf, -kInf, -kInf}, {kInf, kInf, kInf}}, x_box(2, kInf), x_box(kInf, kInf),
              x_box(-kInf, -kInf)});
  push_box32(out, "edge.box.neg_inv", sorted, make_ray({5, 0, 0}, {-1, 0, 0}),
             {x_box(2, 3), x_box(6, 7), x_box(-1, 1), x_box(4, 6)});
  out.push_back(make_box32_case("edge.box.neg_zero_inv", plain, with_inv(ray_x(), {1, -0.0f, kInf}), zero_inv_node()));
  out.push_back(make_box32_case("edge.box.pos_zero_inv", plain, with_inv(ray_x(), {1, 0.0f, kInf}), zero_inv_node()));
  const Ray above = make_ray({0, 0.5f, 0}, {1, 0, 0});  // inv.y = +inf, origin y = 0.5
  push_box32(out, "edge.box.inf_inv_zero_dir_inside_slab", plain, above,
             {Aabb{{2, 0, -1}, {3, 1, 1}}, Aabb{{2, 1, -1}, {3, 2, 1}}, never, never});
  push_box32(out, "edge.box.inf_inv_origin_on_face", plain, above,
             {Aabb{{2, 0.5f, -1}, {3, 1, 1}}, Aabb{{2, -1, -1}, {3, 0.5f, 1}}, never, never});
  // Zero dir, infinite inv: an origin on a face gives 0 * inf = NaN slabs.
  const Ray still = make_ray({0, 0, 0}, {0, 0, 0});
  push_box32(out, "edge.box.tnear_nan", plain, still,
             {Aabb{{0, 0, 0}, {1, 1, 1}}, Aabb{{0, -1, -1}, {1, 1, 1}}, never, never});
  push_box32(out, "edge.box.tfar_nan", plain, still,
             {Aabb{{-1, -1, -1}, {0, 0, 0}}, Aabb{{-1, -1, -1}, {0, 1, 1}}, never, never});
}

// §6 steps 5-6 and the sort: box_grow, extent, clamping at 0, ordering.
void add_box_distance_cases(Cases& out) {
  const Descriptor plain = base_desc(), sorted = with_sort(base_desc()), grow1 = with_grow(plain, 1);
  const Aabb never = kNeverBox;
  // x gives t in [2, 3], y in [3 + 1ulp, 4]: the slabs miss by one ulp.
  const std::array<Aabb, 4> one_ulp{Aabb{{2, next_up(3), -1}, {3, 4, 1}}, never, never, never};
  push_box32(out, "edge.box.grow0_just_miss", plain, ray_xy(), one_ulp);
  push_box32(out, "edge.box.grow1_hit", grow1, ray_xy(), one_ulp);
  push_box32(out, "edge.box.grow255", with_grow(plain, 255), ray_xy(),
             {Aabb{{2, ulp_up(3, 255), -1}, {3, 4, 1}}, Aabb{{2, ulp_up(3, 256), -1}, {3, 4, 1}}, never, never});
  const std::array<Aabb, 4> denormal_behind{x_box(-1, -kDenormMin), never, never, never};
  push_box32(out, "edge.box.behind_by_denormal", plain, ray_x(), denormal_behind);
  push_box32(out, "edge.box.grow_crosses_zero", grow1, ray_x(), denormal_behind);
  // tnear = +inf (x overflows), tfar = FLT_MAX: only growing to +inf hits.
  const std::array<Aabb, 4> at_max{Aabb{{kMax, -1, -1}, {kMax, kMax, 1}}, never, never, never};
  const Ray overflow = with_inv(ray_xy(), {2, 1, kInf});
  push_box32(out, "edge.box.grow0_far_max", plain, overflow, at_max);
  push_box32(out, "edge.box.grow_saturates_inf", grow1, overflow, at_max);
  // tfar = +inf (an infinite max on x, the y and z slabs infinite): ulp_up keeps +inf.
  push_box32(out, "edge.box.grow_keeps_inf", grow1, ray_x(), {x_box(2, kInf), never, never, never});
  // max.x - origin.x overflows to +inf (FLT_MAX - -FLT_MAX): the slab still hits.
  push_box32(out, "edge.box.difference_overflows", plain, make_ray({-kMax, 0, 0}, {1, 0, 0}),
             {x_box(2, kMax), never, never, never});

  push_box32(out, "edge.box.extent_clamps", plain, ray_x(1.5f),
             {x_box(2, 3), x_box(1.5f, 3), x_box(next_up(1.5f), 3), x_box(-1, 1)});
  push_box32(out, "edge.box.extent_zero", plain, ray_x(0.0f), {x_box(-1, 1), x_box(0, 1), x_box(kDenormMin, 1), never});
  // Both boxes contain the origin: keys clamp to 0 and tie, so slot order.
  push_box32(out, "edge.box.origin_inside_key0", sorted, ray_x(),
             {x_box(-1, 1), x_box(-10, 10), x_box(0.5f, 1), never});
  push_box32(out, "edge.box.touch_n_eq_f", plain, ray_xy(),
             {Aabb{{2, 3, -1}, {3, 4, 1}}, Aabb{{3, 2, -1}, {4, 3, 1}}, never, never});
  push_box32(out, "edge.box.behind", plain, ray_x(), {x_box(-3, -2), x_box(-1, 0), never, never});
  push_box32(out, "edge.box.sort_ties_by_slot", sorted, ray_x(), {x_box(2, 4), x_box(1, 4), x_box(3, 4), x_box(2, 5)});
  // Keys +0 (slot 0) and -0 (slot 2) are equal: slot order, not bit order.
  push_box32(out, "edge.box.sort_neg_zero_key", sorted, ray_x(), {x_box(0, 1), x_box(1, 2), x_box(-0.0f, 1), never});
}

// §6 FP16 layout: exact widening of subnormals, infinities, NaNs, the maximum.
void add_box16_cases(Cases& out) {
  const Descriptor plain = base_desc(), sorted = with_sort(base_desc());
  const float tiny = half_value(0x0001);  // 2^-24
  out.push_back(make_box16_case("edge.box16.basic", sorted, ray_x(), box16_bytes(mixed_node())));
  out.push_back(make_box16_case("edge.box16.subnormal", plain, ray_x(tiny),
                                box16_bytes(box_node({x_box(tiny, 1), x_box(half_value(0x0002), 1),
                                                      x_box(-tiny, tiny), x_box(half_value(0x03ff), 1)}))));
  out.push_back(make_box16_case("edge.box16.inf", plain, ray_x(),
                                box16_bytes(box_node({Aabb{{-kInf, -1, -1}, {kInf, 1, 1}}, x_box(2, kInf),
                                                      Aabb{{-1, kInf, -1}, {1, kInf, 1}}, x_box(-kInf, -kInf)}))));
  std::vector<uint8_t> nan = box16_bytes(box_node({x_box(2, 3), x_box(2, 3), x_box(2, 3), x_box(2, 3)}));
  set_half(nan, 0, 0, 0x7e00);  // quiet NaN in min.x
  set_half(nan, 1, 5, 0x7c01);  // signalling NaN in max.z
  set_half(nan, 2, 1, 0xfe00);  // negative NaN in min.y
  out.push_back(make_box16_case("edge.box16.nan", plain, ray_x(), nan));
  const float max_half = half_value(0x7bff);  // 65504
  out.push_back(make_box16_case("edge.box16.max_half", sorted, ray_x(max_half),
                                box16_bytes(box_node({x_box(max_half, max_half), x_box(half_value(0x7bfe), max_half),
                                                      x_box(-max_half, max_half), x_box(-max_half, -max_half)}))));
}

// §7: triangle selection, return modes and remap.
void add_triangle_result_cases(Cases& out) {
  const Descriptor mode0 = base_desc(), mode1 = with_mode(base_desc(), 1);
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t mode = 0; mode < 2; ++mode)
      out.push_back(make_triangle_case(fmt::format("edge.tri.t{}.mode{}", t, mode), mode ? mode1 : mode0,
                                       tri_front_ray(), tri_node(t), t));
  out.push_back(make_triangle_case("edge.tri.selects_by_type", mode1, tri_front_ray(), tri_node(0), 1));
  out.push_back(make_triangle_case("edge.tri.mode0_id_wraps", mode0, tri_front_ray(), tri_node(3, 0xfffffffeu), 3));
  out.push_back(make_triangle_case("edge.tri.mode0_miss", mode0, down_z_at(0.75f, 0.75f), tri_node(1, 0x12345678u), 1));
  // t = 2 reads id bits 16..19; the other bytes and the high nibble hold
  // different remaps so that a wrong shift or mask shows.
  for (uint32_t src = 0; src < 4; ++src) {
    const uint32_t remap = 0xf0u | ((src + 1) % 4) << 2 | src;
    out.push_back(make_triangle_case(fmt::format("edge.tri.mode1_remap_src{}", src), mode1, tri_front_ray(),
                                     tri_node(2, 0x0b000b0bu | remap << 16), 2));
  }
}

// §7: the watertight test's orientation, edges, distance range and NaNs.
void add_triangle_test_cases(Cases& out) {
  push_tri(out, "edge.tri.backface", tri_back_ray());
  // Looking down -x: without the kx/ky swap det and T would come out negated.
  push_tri(out, "edge.tri.neg_dkz_swap", make_ray({0, 0.25f, 0.125f}, {-1, 0, 0}),
           abc_node({{{-5, 0, 0}, {-5, 1, 0}, {-5, 0, 1}}}));
  push_tri(out, "edge.tri.kz_tie_xy", make_ray({0, 0, 0}, {1, 1, 0.5f}),
           abc_node({{{4, 0, 0}, {4, 10, 0}, {4, 0, 10}}}));
  push_tri(out, "edge.tri.kz_tie_yz", make_ray({0, 0, 0}, {0.5f, -1, 1}),
           abc_node({{{0, -10, 4}, {10, -10, 4}, {0, 10, 4}}}));
  push_tri(out, "edge.tri.kz_tie_xyz", make_ray({0, 0, 0}, {-1, -1, -1}),
           abc_node({{{-6, 0, 0}, {0, -6, 0}, {0, 0, -6}}}));
  // t0 and t1 share the edge V1-V2; the second pair aims obliquely at it.
  TriangleNode quad = tri_node(0);
  quad.vertex[3] = {1, 1, 5};
  // Aimed at (1/3, 2/3, 5): rounding leaves the shared edge function at
  // about 1e-7, so exactly one of the two triangles claims the ray.
  const Vec3 from{-0.7f, 0.2f, 11.1f}, to{1.0f / 3, 1 - 1.0f / 3, 5};
  const Ray oblique = make_ray(from, {to[0] - from[0], to[1] - from[1], to[2] - from[2]});
  const Descriptor mode1 = with_mode(base_desc(), 1);
  for (uint32_t t = 0; t < 2; ++t) {
    const char side = t == 0 ? 'a' : 'b';
    const Ray on_edge = down_z_at(0.5f, 0.5f);
    out.push_back(make_triangle_case(fmt::format("edge.tri.shared_edge_{}", side), mode1, on_edge, quad, t));
    out.push_back(make_triangle_case(fmt::format("edge.tri.shared_edge_oblique_{}", side), mode1, oblique, quad, t));
  }
  push_tri(out, "edge.tri.vertex_hit", down_z_at(0, 0));
  push_tri(out, "edge.tri.edge_hit", down_z_at(0.5f, 0));
  push_tri(out, "edge.tri.outside", down_z_at(0.75f, 0.75f));

  push_tri(out, "edge.tri.t_zero", tri_front_ray(kInf, 5));
  push_tri(out, "edge.tri.behind", tri_front_ray(kInf, 4));
  push_tri(out, "edge.tri.t_eq_extent", tri_front_ray(5));
  push_tri(out, "edge.tri.t_past_extent", tri_front_ray(next_down_positive(5)));
  push_tri(out, "edge.tri.back_t_eq_extent", tri_back_ray(5));
  push_tri(out, "edge.tri.back_t_past_extent", tri_back_ray(next_down_positive(5)));
  push_tri(out, "edge.tri.inv_not_reciprocal", with_inv(tri_front_ray(), {kInf, kInf, -2}));

  push_tri(out, "edge.tri.degenerate", down_z_at(0.5f, 0), abc_node({{{0, 0, 5}, {1, 0, 5}, {2, 0, 5}}}));
  const Vec3 hit_point{0.25f, 0.125f, 5};
  push_tri(out, "edge.tri.degenerate_point", tri_front_ray(), abc_node({hit_point, hit_point, hit_point}));
  push_tri(out, "edge.tri.parallel", make_ray({-10, 0.25f, 4}, {1, 0, 0}));
  push_tri(out, "edge.tri.in_plane", make_ray({-10, 0.25f, 5}, {1, 0, 0}));
  push_tri(out, "edge.tri.zero_dir", make_ray({0.25f, 0.125f, 10}, {0, 0, 0}));
  push_tri(out, "edge.tri.nan_vertex", tri_front_ray(), abc_node({{{0, 0, 5}, {1, 0, 5}, {kNaN, 1, 5}}}));
  push_tri(out, "edge.tri.inf_vertex", tri_front_ray(), abc_node({{{0, 0, 5}, {1, 0, 5}, {kInf, 1, 5}}}));
}

// §2 A16: the packing order, exact widening, and NaN halves.
void add_a16_cases(Cases& out) {
  const Descriptor plain = base_desc(), sorted = with_sort(base_desc());
  out.push_back(with_a16(make_box32_case("edge.a16.box32", sorted, ray_x(), mixed_node())));
  out.push_back(with_a16(make_box16_case("edge.a16.box16", sorted, ray_x(), box16_bytes(mixed_node()))));
  out.push_back(with_a16(control_tri_case("edge.a16.tri_mode1")));
  // inv = (1, 2, 4): slot 0's slabs all give t in [2, 3] only if y and z
  // are read from the right halves.
  out.push_back(with_a16(make_box32_case("edge.a16.lane_order", plain, make_ray({0, 0, 0}, {1, 0.5f, 0.25f}),
                                         box_node({Aabb{{2, 1, 0.5f}, {3, 1.5f, 0.75f}},
                                                   Aabb{{2, 2, 0.5f}, {3, 3, 0.75f}}, kNeverBox, kNeverBox}))));
  const TdvCase hit = with_a16(control_box_case(""));
  out.push_back(named(with_a16_half(hit, 1, 0x7e00), "edge.a16.nan_dir_y"));
  out.push_back(named(with_a16_half(hit, 2, 0x7c01), "edge.a16.snan_dir_z"));
  out.push_back(named(with_a16_half(hit, 3, 0xfe00), "edge.a16.nan_inv_x"));
  out.push_back(named(with_a16_half(hit, 5, 0x7fff), "edge.a16.nan_inv_z"));
  out.push_back(named(with_exec0(hit), "edge.a16.exec0"));
  out.push_back(named(with_ray_dword(hit, 2, bits_of(-kInf)), "edge.a16.inf_origin"));
  const TdvCase high = make_box32_case("edge.a16.bvh64", with_size(plain, uint64_t{1} << 36), ray_x(), hit_node());
  out.push_back(with_a16(as_bvh64(high, uint64_t{1} << 35)));
  // inv.x = 2^-24 (subnormal half): slot 0 at t in [2, 3] hits, slot 1 at [3, 4] misses.
  const float two24 = 16777216.0f;
  const BoxNode far = box_node({x_box(2 * two24, 3 * two24), x_box(3 * two24, 4 * two24), kNeverBox, kNeverBox});
  out.push_back(with_a16_half(with_a16(make_box32_case("edge.a16.subnormal_inv", plain, ray_x(2.5f), far)), 3, 0x0001));
  out.push_back(with_a16(
      make_box32_case("edge.a16.neg_zero_inv", plain, with_inv(ray_x(), {1, -0.0f, kInf}), zero_inv_node())));
}

// ------------------------------------------------------------ random cases

Vec3 point_on_ray(const Ray& ray, float t) {
  return {ray.origin[0] + ray.dir[0] * t, ray.origin[1] + ray.dir[1] * t, ray.origin[2] + ray.dir[2] * t};
}

Ray random_ray(Rng& rng) {
  Vec3 dir = rng.vec(-1, 1);
  for (float& d : dir)
    if (rng.chance(8)) d = rng.chance(50) ? 0.0f : -0.0f;  // axis-parallel: inv = ±inf
  if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0) dir[0] = 1;
  const Vec3 origin = rng.vec(-10, 10);
  return make_ray(origin, dir, rng.chance(50) ? kInf : rng.uniform(0.5f, 40));
}

Aabb box_around(Rng& rng, const Vec3& p) {
  const Vec3 half = rng.vec(0.05f, 2.5f);
  return Aabb{{p[0] - half[0], p[1] - half[1], p[2] - half[2]}, {p[0] + half[0], p[1] + half[1], p[2] + half[2]}};
}

// Mostly boxes around points of the ray (some behind the origin), then
// boxes anywhere, empty slots and boxes with a NaN or infinite coordinate.
BoxNode random_box_node(Rng& rng, const Ray& ray) {
  BoxNode node;
  for (int i = 0; i < 4; ++i) {
    const uint32_t roll = rng.below(100);
    const Vec3 center = roll < 60 ? point_on_ray(ray, rng.uniform(-2, 15)) : rng.vec(-20, 20);
    node.box[i] = box_around(rng, center);
    if (roll >= 92) {
      const int coord = static_cast<int>(rng.below(6));
      node.box[i] = with_coord(node.box[i], coord, rng.chance(50) ? kNaN : kInf);
    }
    node.child[i] = rng.chance(8) ? kInvalidChild : rng.next32() & 0xfffffffeu;
  }
  return node;
}

// Vertices random; for most nodes triangle t is then placed across the ray,
// around a point whose barycentric weights are all positive.
TriangleNode random_triangle_node(Rng& rng, const Ray& ray, uint32_t t) {
  TriangleNode node;
  for (Vec3& v : node.vertex) v = rng.vec(-20, 20);
  node.id = rng.next32();
  if (!rng.chance(75)) return node;
  const Vec3 p = point_on_ray(ray, rng.uniform(0.25f, 15));
  const Vec3 weight = rng.vec(0.1f, 1);
  const float sum = (weight[0] + weight[1]) + weight[2];
  const std::array<Vec3, 3> offset{rng.vec(-3, 3), rng.vec(-3, 3), rng.vec(-3, 3)};
  const std::array<int, 3> slots = triangle_vertices(t);
  for (int a = 0; a < 3; ++a) {
    const float center = (weight[0] * offset[0][a] + weight[1] * offset[1][a] + weight[2] * offset[2][a]) / sum;
    for (int i = 0; i < 3; ++i) node.vertex[slots[i]][a] = p[a] + (offset[i][a] - center);
  }
  return node;
}

Descriptor random_descriptor(Rng& rng, uint64_t unit) {
  Descriptor d;
  d.base_256b = rng.next() & ((uint64_t{1} << 40) - 1);
  const uint32_t grow_roll = rng.below(10);
  d.box_grow_ulps = grow_roll < 6 ? 0 : grow_roll < 9 ? rng.below(8) : rng.below(256);
  d.box_sort = rng.chance(50);
  d.size_units = unit + 1 + rng.below(4096);  // room for a 2-unit node
  d.return_mode = rng.below(2);
  return d;
}

enum class Kind { kBox32, kBox16, kTriangle };

// A valid case of the given kind: random descriptor, ray, node, form (A16,
// bvh64); geometry is built from the ray as the lane will widen it.
TdvCase random_regular_case(Rng& rng, Kind kind) {
  const bool bvh64 = rng.chance(10);
  const uint64_t unit = 1 + (bvh64 ? rng.next() >> 23 : rng.below(1u << 24));  // < 2^41 or < 2^24
  const Descriptor desc = random_descriptor(rng, unit);
  Ray ray = random_ray(rng);
  const bool a16 = rng.chance(15);
  if (a16)
    for (int a = 0; a < 3; ++a) {
      ray.dir[a] = half_to_float(to_half(ray.dir[a]));
      ray.inv_dir[a] = half_to_float(to_half(ray.inv_dir[a]));
    }
  TdvCase c;
  if (kind == Kind::kBox32)
    c = make_box32_case("", desc, ray, random_box_node(rng, ray), unit);
  else if (kind == Kind::kBox16)
    c = make_box16_case("", desc, ray, box16_bytes(random_box_node(rng, ray)), unit);
  else {
    const uint32_t t = rng.below(4);
    c = make_triangle_case("", desc, ray, random_triangle_node(rng, ray, t), t, unit);
  }
  if (bvh64) c = as_bvh64(c, unit);
  return a16 ? with_a16(c) : c;
}

uint32_t random_nan_bits(Rng& rng) {
  const uint32_t bits = 0x7f800000u | (1 + rng.below(0x7fffff));  // nonzero mantissa
  return rng.chance(50) ? bits | 0x80000000u : bits;
}

// Special kinds: a valid case, then one thing broken.
const char* const kSpecialKinds[] = {"fault", "reserved", "oob", "exec0", "nonfinite", "a16nan"};

void break_descriptor(Rng& rng, Descriptor& d) {
  switch (rng.below(5)) {
    case 0: d.reserved_54_40 |= 1u << rng.below(15); break;
    case 1: d.reserved_119_106 |= 1u << rng.below(14); break;
    case 2: d.reserved_122_121 |= 1u << rng.below(2); break;
    case 3: d.big_page = false; break;
    default: d.type = (8 + 1 + rng.below(15)) % 16; break;
  }
}

void break_case(Rng& rng, TdvCase& c, int special) {
  Descriptor d = Descriptor::unpack(c.desc);
  const uint64_t unit = c.lane.pointer().unit();
  switch (special) {
    case 0: break_descriptor(rng, d); break;
    case 1: c = with_ptr_type(c, rng.chance(50) ? NodeType::kReserved6 : NodeType::kReserved7); break;
    case 2: {  // a box32 at the last unit straddles the end; otherwise past it
      const bool straddle = c.lane.pointer().type() == NodeType::kBox32 && rng.chance(50);
      d.size_units = straddle ? unit : unit - 1 - rng.below(static_cast<uint32_t>(std::min<uint64_t>(unit, 64)));
      break;
    }
    case 3: c.lane.exec = false; break;
    case 4: {  // NaN anywhere, or ±Inf (inactive only in origin)
      const int index = static_cast<int>(rng.below(static_cast<uint32_t>(c.lane.ray_dword_count())));
      c.lane.ray_dwords[index] = rng.chance(50) ? random_nan_bits(rng) : (rng.chance(50) ? 0x7f800000u : 0xff800000u);
      break;
    }
    default: {
      if (!c.lane.a16) c = with_a16(c);
      const uint32_t mantissa = 1 + rng.below(0x3ff);
      const uint32_t sign = rng.chance(50) ? 0x8000u : 0;
      c = with_a16_half(c, static_cast<int>(rng.below(6)), static_cast<uint16_t>(sign | 0x7c00u | mantissa));
      break;
    }
  }
  c.desc = d.pack();
}

}  // namespace

std::vector<TdvCase> edge_vectors() {
  Cases cases;
  add_lane_activity_cases(cases);
  add_descriptor_cases(cases);
  add_pointer_cases(cases);
  add_box_slab_cases(cases);
  add_box_distance_cases(cases);
  add_box16_cases(cases);
  add_triangle_result_cases(cases);
  add_triangle_test_cases(cases);
  add_a16_cases(cases);
  fill_expectations(cases);
  return cases;
}

RandomVectorStream::RandomVectorStream(uint64_t seed, size_t count) : seed_(seed), count_(count), rng_(seed) {}

bool RandomVectorStream::next(TdvCase& out) {
  if (index_ == count_) return false;
  const bool special = rng_.chance(15);
  const uint32_t roll = rng_.below(100);
  const Kind kind = roll < 35 ? Kind::kBox32 : roll < 60 ? Kind::kBox16 : Kind::kTriangle;
  out = random_regular_case(rng_, kind);
  std::string label = kind == Kind::kBox32 ? "box32" : kind == Kind::kBox16 ? "box16" : "tri";
  if (special) {
    const int broken = static_cast<int>(rng_.below(6));
    break_case(rng_, out, broken);
    label = kSpecialKinds[broken];
  }
  out.name = fmt::format("rand.s{}.{}.{}", seed_, index_, label);
  fill_expectation(out);
  ++index_;
  return true;
}

std::vector<TdvCase> random_vectors(uint64_t seed, size_t count) {
  RandomVectorStream stream(seed, count);
  Cases cases;
  cases.reserve(count);
  for (TdvCase c; stream.next(c);) cases.push_back(std::move(c));
  return cases;
}

}  // namespace td::tb

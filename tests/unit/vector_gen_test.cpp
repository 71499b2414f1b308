// The vector generators: edge cases must each exercise the boundary they are
// named after (outcomes stated here by hand from the contract, not by
// re-running the reference), and random cases must be reproducible, parse
// back, hit often enough to be useful, and cover every form.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "model/isa/descriptor.h"
#include "model/isa/fp32.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace td::tb {
namespace {

using Dwords = std::array<uint32_t, 4>;
using Expect = std::optional<Dwords>;

constexpr uint32_t kFF = 0xffffffffu;
const Dwords kAllOnes{kFF, kFF, kFF, kFF};
constexpr uint32_t kInfBits = 0x7f800000u;
constexpr uint32_t kOne = 0x3f800000u;
constexpr uint32_t kFive = 0x40a00000u;
// Unit-triangle hit seen from the front: (U, V, W) = (0.625, 0.25, 0.125).
constexpr uint32_t kU = 0x3f200000u, kV = 0x3e800000u, kW = 0x3e000000u;
const Dwords kTriMiss{kInfBits, kOne, 0, 0};
const Dwords kTriHit{kFive, kOne, kU, kV};

std::map<std::string, TdvCase> by_name(const std::vector<TdvCase>& cases) {
  std::map<std::string, TdvCase> map;
  for (const TdvCase& c : cases) map.emplace(c.name, c);
  return map;
}

const std::vector<TdvCase>& edge_set() {
  static const std::vector<TdvCase> cases = edge_vectors();
  return cases;
}

bool same_case(const TdvCase& a, const TdvCase& b) {
  if (a.name != b.name || a.desc != b.desc || a.mem != b.mem || a.expect != b.expect) return false;
  const LaneInput &x = a.lane, &y = b.lane;
  if (x.op != y.op || x.a16 != y.a16 || x.exec != y.exec || x.node_ptr != y.node_ptr) return false;
  for (int i = 0; i < x.ray_dword_count(); ++i)
    if (x.ray_dwords[i] != y.ray_dwords[i]) return false;
  return true;
}

void expect_round_trip(const std::vector<TdvCase>& cases) {
  const TdvParse parse = parse_tdv(format_tdv(cases, {"round trip"}), "generated.tdv");
  ASSERT_TRUE(parse.ok()) << parse.errors.front().to_string();
  ASSERT_EQ(parse.file.cases.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_TRUE(same_case(parse.file.cases[i], cases[i])) << cases[i].name << "\n" << format_case(cases[i]);
}

// A triangle result hit (either return mode): a miss is (+Inf, 1.0, x, 0)
// in mode 0 and (+Inf, 1.0, 0, 0) in mode 1.
bool triangle_hit(const TdvCase& c) {
  const Dwords& r = *c.expect;
  if (Descriptor::unpack(c.desc).return_mode == 0) return r[3] == 1;
  return !(r[0] == kInfBits && r[1] == kOne && r[2] == 0 && r[3] == 0);
}

TEST(VectorGenEdge, NamesAreUniqueValidAndEdgePrefixed) {
  std::set<std::string> names;
  for (const TdvCase& c : edge_set()) {
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate " << c.name;
    EXPECT_EQ(c.name.rfind("edge.", 0), 0u) << c.name;
  }
  EXPECT_GE(names.size(), 100u);
}

TEST(VectorGenEdge, RoundTripsThroughTdv) { expect_round_trip(edge_set()); }

TEST(VectorGenEdge, IsDeterministic) {
  EXPECT_EQ(format_tdv(edge_vectors(), {}), format_tdv(edge_set(), {}));
}

// Outcomes derived by hand from contract v1 for the cases named after a
// boundary; children are 0x10, 0x20, 0x30, 0x40 by slot.
TEST(VectorGenEdge, KeyCasesHaveTheStatedOutcome) {
  const std::map<std::string, Expect> stated = {
      // §3: inactive lanes write nothing; infinities outside origin don't deactivate.
      {"edge.inactive.exec0", std::nullopt},
      {"edge.inactive.nan_origin_y", std::nullopt},
      {"edge.inactive.snan_dir_y", std::nullopt},
      {"edge.inactive.nan_inv_z", std::nullopt},
      {"edge.inactive.inf_origin_pos", std::nullopt},
      {"edge.inactive.inf_origin_neg", std::nullopt},
      {"edge.inactive.exec0_desc_fault", std::nullopt},
      {"edge.inactive.nan_reserved_type", std::nullopt},
      {"edge.inactive.nan_out_of_bounds", std::nullopt},
      {"edge.active.inf_extent", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.active.inf_dir", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.active.neg_inf_inv", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.active.neg_extent", kTriMiss},
      // §4: every broken "must" is all ones, even where the node would hit.
      {"edge.desc.reserved_bit40", kAllOnes},
      {"edge.desc.reserved_bit54", kAllOnes},
      {"edge.desc.reserved_bit106", kAllOnes},
      {"edge.desc.reserved_bit119", kAllOnes},
      {"edge.desc.reserved_bit121", kAllOnes},
      {"edge.desc.reserved_bit122", kAllOnes},
      {"edge.desc.big_page0", kAllOnes},
      {"edge.desc.type7", kAllOnes},
      {"edge.desc.type9", kAllOnes},
      {"edge.desc.fault_on_triangle", kAllOnes},
      {"edge.desc.all_fields_max", Dwords{0x10, kFF, kFF, kFF}},
      // §5: reserved types and bounds at both ends.
      {"edge.ptr.type6", kAllOnes},
      {"edge.ptr.type7", kAllOnes},
      {"edge.bounds.last_unit_in", kTriHit},
      {"edge.bounds.past_size", kAllOnes},
      {"edge.bounds.box32_last_fit", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.bounds.box32_straddles_end", kAllOnes},
      {"edge.bounds.box16_last_unit", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.bounds.size0_triangle", kTriHit},
      {"edge.bounds.size0_box32", kAllOnes},
      {"edge.bvh.max_unit", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.bvh64.high_unit", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.bvh64.unit_past_max_size", kAllOnes},
      {"edge.bvh64.ptr_bit63", kAllOnes},
      // §6 box tests.
      {"edge.box.unsorted", Dwords{0x10, kFF, 0x30, 0x40}},
      {"edge.box.sorted", Dwords{0x40, 0x30, 0x10, kFF}},
      {"edge.box.empty_slot", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.child_ptr_extremes", Dwords{0, 0xfffffffeu, kFF, kFF}},
      {"edge.box.nan_coord", Dwords{kFF, kFF, kFF, 0x40}},
      {"edge.box.inf_coord", Dwords{0x10, 0x20, 0x30, kFF}},
      {"edge.box.neg_inv", Dwords{0x40, 0x10, 0x30, kFF}},
      {"edge.box.neg_zero_inv", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.pos_zero_inv", Dwords{kFF, 0x20, kFF, kFF}},
      {"edge.box.inf_inv_zero_dir_inside_slab", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.inf_inv_origin_on_face", Dwords{0x10, 0x20, kFF, kFF}},
      {"edge.box.tnear_nan", Dwords{kFF, 0x20, kFF, kFF}},
      {"edge.box.tfar_nan", Dwords{kFF, 0x20, kFF, kFF}},
      {"edge.box.grow0_just_miss", kAllOnes},
      {"edge.box.grow1_hit", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.grow255", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.behind_by_denormal", kAllOnes},
      {"edge.box.grow_crosses_zero", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.grow0_far_max", kAllOnes},
      {"edge.box.grow_saturates_inf", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.grow_keeps_inf", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.difference_overflows", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.box.extent_clamps", Dwords{kFF, 0x20, kFF, 0x40}},
      {"edge.box.extent_zero", Dwords{0x10, 0x20, kFF, kFF}},
      {"edge.box.origin_inside_key0", Dwords{0x10, 0x20, 0x30, kFF}},
      {"edge.box.touch_n_eq_f", Dwords{0x10, 0x20, kFF, kFF}},
      {"edge.box.behind", Dwords{kFF, 0x20, kFF, kFF}},
      {"edge.box.sort_ties_by_slot", Dwords{0x20, 0x10, 0x40, 0x30}},
      {"edge.box.sort_neg_zero_key", Dwords{0x10, 0x30, 0x20, kFF}},
      {"edge.box16.subnormal", Dwords{0x10, kFF, 0x30, kFF}},
      {"edge.box16.inf", Dwords{0x10, 0x20, kFF, kFF}},
      {"edge.box16.nan", Dwords{kFF, kFF, kFF, 0x40}},
      {"edge.box16.max_half", Dwords{0x30, 0x20, 0x10, kFF}},
      // §7 triangles: exact values for the unit triangle (det 1, T 5).
      {"edge.tri.t0.mode0", Dwords{kFive, kOne, 0x04040404, 1}},
      {"edge.tri.t1.mode0", Dwords{kFive, kOne, 0x04040405, 1}},
      {"edge.tri.t2.mode0", Dwords{kFive, kOne, 0x04040406, 1}},
      {"edge.tri.t3.mode0", Dwords{kFive, kOne, 0x04040407, 1}},
      {"edge.tri.t0.mode1", kTriHit},
      {"edge.tri.t1.mode1", kTriHit},
      {"edge.tri.t2.mode1", kTriHit},
      {"edge.tri.t3.mode1", kTriHit},
      {"edge.tri.selects_by_type", kTriMiss},
      {"edge.tri.backface", Dwords{0xc0a00000u, 0xbf800000u, 0xbf200000u, 0xbe800000u}},
      {"edge.tri.neg_dkz_swap", kTriHit},
      {"edge.tri.shared_edge_a", Dwords{kFive, kOne, 0, 0x3f000000u}},
      {"edge.tri.shared_edge_b", Dwords{kFive, kOne, 0x3f000000u, 0}},
      {"edge.tri.vertex_hit", Dwords{kFive, kOne, kOne, 0}},
      {"edge.tri.edge_hit", Dwords{kFive, kOne, 0x3f000000u, 0x3f000000u}},
      {"edge.tri.outside", kTriMiss},
      {"edge.tri.behind", kTriMiss},
      {"edge.tri.t_eq_extent", kTriHit},
      {"edge.tri.t_past_extent", kTriMiss},
      {"edge.tri.back_t_eq_extent", Dwords{0xc0a00000u, 0xbf800000u, 0xbf200000u, 0xbe800000u}},
      {"edge.tri.back_t_past_extent", kTriMiss},
      {"edge.tri.inv_not_reciprocal", Dwords{0x41200000u, kOne, kU, kV}},
      {"edge.tri.degenerate", kTriMiss},
      {"edge.tri.degenerate_point", kTriMiss},
      {"edge.tri.parallel", kTriMiss},
      {"edge.tri.in_plane", kTriMiss},
      {"edge.tri.zero_dir", kTriMiss},
      {"edge.tri.nan_vertex", kTriMiss},
      {"edge.tri.inf_vertex", kTriMiss},
      {"edge.tri.mode0_id_wraps", Dwords{kFive, kOne, 1, 1}},
      {"edge.tri.mode0_miss", Dwords{kInfBits, kOne, 0x12345679u, 0}},
      {"edge.tri.mode1_remap_src0", Dwords{kFive, kOne, kU, kV}},
      {"edge.tri.mode1_remap_src1", Dwords{kFive, kOne, kV, kW}},
      {"edge.tri.mode1_remap_src2", Dwords{kFive, kOne, kW, 0}},
      {"edge.tri.mode1_remap_src3", Dwords{kFive, kOne, 0, kU}},
      // §2 A16: same results as the binary32 forms; NaN halves deactivate.
      {"edge.a16.box32", Dwords{0x40, 0x30, 0x10, kFF}},
      {"edge.a16.box16", Dwords{0x40, 0x30, 0x10, kFF}},
      {"edge.a16.tri_mode1", kTriHit},
      {"edge.a16.lane_order", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.a16.nan_dir_y", std::nullopt},
      {"edge.a16.snan_dir_z", std::nullopt},
      {"edge.a16.nan_inv_x", std::nullopt},
      {"edge.a16.nan_inv_z", std::nullopt},
      {"edge.a16.exec0", std::nullopt},
      {"edge.a16.inf_origin", std::nullopt},
      {"edge.a16.bvh64", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.a16.subnormal_inv", Dwords{0x10, kFF, kFF, kFF}},
      {"edge.a16.neg_zero_inv", Dwords{0x10, kFF, kFF, kFF}},
  };
  const auto cases = by_name(edge_set());
  for (const auto& [name, expect] : stated) {
    const auto it = cases.find(name);
    ASSERT_NE(it, cases.end()) << "missing edge case " << name;
    EXPECT_EQ(it->second.expect, expect) << name << "\n" << format_case(it->second);
  }
}

TEST(VectorGenEdge, BoundaryPairsDifferOnlyWhereStated) {
  const auto cases = by_name(edge_set());
  // The grow pair shares ray and node: only box_grow differs.
  const TdvCase& miss = cases.at("edge.box.grow0_just_miss");
  const TdvCase& hit = cases.at("edge.box.grow1_hit");
  EXPECT_EQ(miss.mem, hit.mem);
  EXPECT_EQ(miss.lane.ray_dwords, hit.lane.ray_dwords);
  EXPECT_EQ(Descriptor::unpack(miss.desc).box_grow_ulps, 0u);
  EXPECT_EQ(Descriptor::unpack(hit.desc).box_grow_ulps, 1u);
  // Extent exactly T hits, one ulp less misses.
  EXPECT_EQ(cases.at("edge.tri.t_eq_extent").lane.ray_dwords[0], bits_of(5.0f));
  EXPECT_EQ(cases.at("edge.tri.t_past_extent").lane.ray_dwords[0], bits_of(5.0f) - 1);
  // t = 0: T is a zero (of either sign) and still a hit.
  const Dwords t_zero = *cases.at("edge.tri.t_zero").expect;
  EXPECT_EQ(float_of(t_zero[0]), 0.0f);
  EXPECT_EQ(t_zero[1], kOne);
  // Each reserved-bit case breaks exactly one "must".
  for (const char* name : {"edge.desc.reserved_bit40", "edge.desc.reserved_bit122", "edge.desc.big_page0"})
    EXPECT_EQ(__builtin_popcount(Descriptor::unpack(cases.at(name).desc).faults()), 1) << name;
  // A16 cases really use the A16 form.
  for (const char* name : {"edge.a16.box32", "edge.a16.nan_dir_y", "edge.a16.subnormal_inv"})
    EXPECT_TRUE(cases.at(name).lane.a16) << name;
}

TEST(VectorGenEdge, WatertightAndTiedDirectionsHit) {
  const auto cases = by_name(edge_set());
  // Watertight: a ray through a shared edge hits at least one of the two;
  // here the edge function rounds to nonzero, so exactly one.
  const bool a = triangle_hit(cases.at("edge.tri.shared_edge_oblique_a"));
  const bool b = triangle_hit(cases.at("edge.tri.shared_edge_oblique_b"));
  EXPECT_TRUE(a || b);
  EXPECT_NE(a, b);
  for (const char* name : {"edge.tri.kz_tie_xy", "edge.tri.kz_tie_yz", "edge.tri.kz_tie_xyz"})
    EXPECT_TRUE(triangle_hit(cases.at(name))) << name;
}

TEST(VectorGenEdge, CommittedFileIsCurrent) {
  const std::string path = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/edge-v1.tdv";
  const TdvParse parse = read_tdv_file(path);
  ASSERT_TRUE(parse.ok()) << parse.errors.front().to_string() << " (regenerate with tdsim gen-vectors --kind edge)";
  const std::vector<TdvCase>& generated = edge_set();
  ASSERT_EQ(parse.file.cases.size(), generated.size());
  for (size_t i = 0; i < generated.size(); ++i)
    EXPECT_EQ(format_case(parse.file.cases[i]), format_case(generated[i]));
}

// ------------------------------------------------------------------ random

constexpr size_t kRandomCount = 2000;

const std::vector<TdvCase>& random_set() {
  static const std::vector<TdvCase> cases = random_vectors(7, kRandomCount);
  return cases;
}

bool has_suffix(const std::string& name, const std::string& suffix) {
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(VectorGenRandom, SameSeedSameBytesOtherSeedDiffers) {
  EXPECT_EQ(format_tdv(random_vectors(7, kRandomCount), {}), format_tdv(random_set(), {}));
  const std::vector<TdvCase> other = random_vectors(8, kRandomCount);
  size_t differing = 0;
  for (size_t i = 0; i < kRandomCount; ++i) {
    TdvCase renamed = other[i];
    renamed.name = random_set()[i].name;
    differing += format_case(renamed) != format_case(random_set()[i]) ? 1 : 0;
  }
  EXPECT_GT(differing, kRandomCount * 9 / 10);
}

TEST(VectorGenRandom, NamesFollowTheSchemeAndRoundTrip) {
  ASSERT_EQ(random_set().size(), kRandomCount);
  for (size_t i = 0; i < kRandomCount; ++i)
    EXPECT_EQ(random_set()[i].name.rfind("rand.s7." + std::to_string(i) + ".", 0), 0u) << random_set()[i].name;
  expect_round_trip(random_set());
}

TEST(VectorGenRandom, GeometryHitsOften) {
  size_t boxes = 0, box_hits = 0, triangles = 0, triangle_hits = 0;
  for (const TdvCase& c : random_set()) {
    const bool box = has_suffix(c.name, ".box32") || has_suffix(c.name, ".box16");
    if (box || has_suffix(c.name, ".tri")) {
      ASSERT_TRUE(c.expect) << c.name;  // regular kinds are always active
    }
    if (box) {
      ++boxes;
      box_hits += *c.expect != kAllOnes ? 1 : 0;
    } else if (has_suffix(c.name, ".tri")) {
      ++triangles;
      triangle_hits += triangle_hit(c) ? 1 : 0;
    }
  }
  ASSERT_GT(boxes, kRandomCount / 4);
  ASSERT_GT(triangles, kRandomCount / 4);
  EXPECT_GE(box_hits * 5, boxes) << box_hits << " of " << boxes;  // >= 20 %
  EXPECT_GE(triangle_hits * 5, triangles) << triangle_hits << " of " << triangles;
  RecordProperty("box_hits", fmt::format("{}/{}", box_hits, boxes));
  RecordProperty("triangle_hits", fmt::format("{}/{}", triangle_hits, triangles));
  EXPECT_LT(box_hits, boxes);  // and not everything hits
  EXPECT_LT(triangle_hits, triangles);
}

TEST(VectorGenRandom, CoversEveryTypeFormAndOutcome) {
  std::set<uint64_t> types;
  std::set<std::string> kinds;
  bool bvh64 = false, a16 = false, inactive = false, all_ones = false, sorted = false, grown = false;
  uint32_t modes = 0;
  for (const TdvCase& c : random_set()) {
    types.insert(c.lane.node_ptr & 7);
    kinds.insert(c.name.substr(c.name.rfind('.') + 1));
    bvh64 = bvh64 || c.lane.op == Opcode::kBvh64;
    a16 = a16 || c.lane.a16;
    inactive = inactive || !c.expect;
    all_ones = all_ones || (c.expect && *c.expect == kAllOnes && has_suffix(c.name, ".fault"));
    const Descriptor d = Descriptor::unpack(c.desc);
    sorted = sorted || d.box_sort;
    grown = grown || d.box_grow_ulps > 0;
    modes |= 1u << d.return_mode;
  }
  EXPECT_EQ(types.size(), 8u);
  EXPECT_EQ(kinds, (std::set<std::string>{"box16", "box32", "tri", "fault", "reserved", "oob", "exec0",
                                          "nonfinite", "a16nan"}));
  EXPECT_TRUE(bvh64 && a16 && inactive && all_ones && sorted && grown);
  EXPECT_EQ(modes, 3u);
}

}  // namespace
}  // namespace td::tb

#include "tb/vectors/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "model/isa/fp32.h"
#include "model/isa/node.h"
#include "model/ref/box_test.h"
#include "model/ref/intersect.h"
#include "model/ref/triangle_test.h"
#include "model/sim/json_writer.h"

namespace td::tb {

const std::vector<CoverageBin>& contract_bins() {
  static const std::vector<CoverageBin> bins = {
      {"form.bvh32", "§2", "image_bvh_intersect_ray: a 32-bit node pointer"},
      {"form.bvh64", "§2", "image_bvh64_intersect_ray: a 64-bit node pointer"},
      {"form.f32", "§2", "dir and inv_dir as binary32"},
      {"form.a16", "§2", "dir and inv_dir as packed binary16 (A16), widened exactly"},
      {"inactive.exec_off", "§3", "EXEC bit 0: nothing fetched or written"},
      {"inactive.nan_operand", "§3", "a NaN in ray_extent, origin, dir or inv_dir"},
      {"inactive.inf_origin", "§3", "an infinite origin component"},
      {"descriptor.valid", "§4", "an active lane under a descriptor that breaks no must"},
      {"descriptor.reserved_54_40", "§4", "fault: reserved bits 54:40 set"},
      {"descriptor.reserved_119_106", "§4", "fault: reserved bits 119:106 set"},
      {"descriptor.reserved_122_121", "§4", "fault: reserved bits 122:121 set"},
      {"descriptor.big_page_clear", "§4", "fault: big_page (bit 123) clear"},
      {"descriptor.type_not_8", "§4", "fault: type (bits 127:124) not 8"},
      {"fetch.reserved_type_6", "§5", "node type 6: no fetch, all ones"},
      {"fetch.reserved_type_7", "§5", "node type 7: no fetch, all ones"},
      {"fetch.out_of_bounds", "§5", "unit + n - 1 > size: no fetch, all ones"},
      {"fetch.fp32_box_straddles_end", "§5", "an FP32 box node whose first unit is the last in bounds: out of bounds"},
      {"fetch.last_unit", "§5", "a node that ends exactly at the last unit in bounds: fetched"},
      {"box.fp16_node", "§6", "type 4: four FP16 boxes, widened exactly"},
      {"box.fp32_node", "§6", "type 5: four FP32 boxes"},
      {"box.empty_slot", "§6 step 1", "a child pointer 0xffffffff: a miss"},
      {"box.nan_box", "§6 step 2", "a box with a NaN coordinate: a miss"},
      {"box.negative_inv_dir", "§6 step 3", "an axis whose inv_dir has its sign bit set: near and far swap"},
      {"box.negative_zero_inv_dir", "§6 step 3", "an axis whose inv_dir is -0: swaps like any negative"},
      {"box.nan_distance", "§6 step 4", "tnear or tfar NaN: a miss"},
      {"grow.none", "§6 step 5", "box_grow 0: tfar as it is"},
      {"grow.positive", "§6 step 5", "ulp_up of a tfar >= 0 that stays finite"},
      {"grow.negative", "§6 step 5", "ulp_up of a tfar < 0 that stays negative"},
      {"grow.crosses_zero", "§6 step 5", "ulp_up of a tfar < 0 to a value >= 0 (-0 and +0 both map to 0)"},
      {"grow.to_infinity", "§6 step 5", "ulp_up of a finite tfar past the largest float: +Inf"},
      {"grow.infinity_kept", "§6 step 5", "ulp_up of tfar = +Inf: +Inf"},
      {"box.origin_inside", "§6 step 5", "tnear < 0 on a hit: the entry distance clamped to 0"},
      {"box.hit_at_limit", "§6 step 6", "a hit with n == f exactly"},
      {"box.hits_0", "§6", "a box node none of whose children is hit"},
      {"box.hits_1", "§6", "a box node with one child hit"},
      {"box.hits_2", "§6", "a box node with two children hit"},
      {"box.hits_3", "§6", "a box node with three children hit"},
      {"box.hits_4", "§6", "a box node with four children hit"},
      {"sort.off", "§6", "box_sort 0: hit children in slot order"},
      {"sort.on", "§6", "box_sort 1: hit children closest first"},
      {"sort.reorders", "§6", "box_sort 1 with the hit children out of slot order"},
      {"sort.tie", "§6", "box_sort 1 with two hit children of equal keys: slot order breaks the tie"},
      {"sort.tie_signed_zero", "§6", "box_sort 1 with hit children keyed -0 and +0: equal"},
      {"triangle.select_0", "§7", "type 0: triangle (V0, V1, V2)"},
      {"triangle.select_1", "§7", "type 1: triangle (V1, V3, V2)"},
      {"triangle.select_2", "§7", "type 2: triangle (V2, V3, V4)"},
      {"triangle.select_3", "§7", "type 3: triangle (V2, V4, V0)"},
      {"triangle.kz_x", "§7 step 1", "dir's largest magnitude on x"},
      {"triangle.kz_y", "§7 step 1", "dir's largest magnitude on y"},
      {"triangle.kz_z", "§7 step 1", "dir's largest magnitude on z"},
      {"triangle.kz_negative", "§7 step 1", "d[kz] < 0: kx and ky swapped"},
      {"triangle.hit_det_positive", "§7 step 7", "a hit with det > 0"},
      {"triangle.hit_det_negative", "§7 step 7", "a hit with det < 0 (the back face)"},
      {"triangle.det_zero", "§7 step 7", "det == 0: a miss"},
      {"triangle.edge_zero", "§7 step 5", "a hit with U, V or W zero: on an edge"},
      {"triangle.miss", "§7", "a miss: the edges fail (step 5) or T is out of range (step 7)"},
      {"return_mode_0.hit", "§7", "return mode 0, a hit: T, det, id + t, 1"},
      {"return_mode_0.miss", "§7", "return mode 0, a miss: +Inf, 1.0, id + t, 0"},
      {"return_mode_0.id_wraps", "§7", "return mode 0 with id + t past 2^32: wraps"},
      {"return_mode_1.hit", "§7", "return mode 1, a hit: T, det, b[I_SRC], b[J_SRC]"},
      {"return_mode_1.miss", "§7", "return mode 1, a miss: +Inf, 1.0, +0.0, +0.0"},
      {"remap.i_src_0", "§7", "return mode 1 hit, I_SRC 0: U"},
      {"remap.i_src_1", "§7", "return mode 1 hit, I_SRC 1: V"},
      {"remap.i_src_2", "§7", "return mode 1 hit, I_SRC 2: W"},
      {"remap.i_src_3", "§7", "return mode 1 hit, I_SRC 3: +0.0"},
      {"remap.j_src_0", "§7", "return mode 1 hit, J_SRC 0: U"},
      {"remap.j_src_1", "§7", "return mode 1 hit, J_SRC 1: V"},
      {"remap.j_src_2", "§7", "return mode 1 hit, J_SRC 2: W"},
      {"remap.j_src_3", "§7", "return mode 1 hit, J_SRC 3: +0.0"},
  };
  return bins;
}

namespace {

// Bin names to their place in the table.
size_t bin_index(const std::string& name) {
  static const std::unordered_map<std::string, size_t> index = [] {
    std::unordered_map<std::string, size_t> map;
    for (size_t i = 0; i < contract_bins().size(); ++i) map.emplace(contract_bins()[i].name, i);
    return map;
  }();
  const auto it = index.find(name);
  if (it == index.end()) throw std::logic_error("coverage: no bin named " + name);
  return it->second;
}

bool any_nan(const Vec3& v) { return is_nan(v[0]) || is_nan(v[1]) || is_nan(v[2]); }

// Contract §1's ulp_up, classified: which of its cases the box's far
// distance takes (tfar not NaN).
const char* grow_class(float tfar, uint32_t n) {
  if (n == 0) return "grow.none";
  if (bits_of(tfar) == 0x7f800000u) return "grow.infinity_kept";
  const uint32_t bits = bits_of(tfar);
  const int64_t k = sign_bit(tfar) ? -static_cast<int64_t>(bits & 0x7fffffffu) : static_cast<int64_t>(bits);
  const int64_t moved = k + n;
  if (moved >= 0x7f800000) return "grow.to_infinity";
  if (k >= 0) return "grow.positive";
  return moved >= 0 ? "grow.crosses_zero" : "grow.negative";
}

}  // namespace

ContractCoverage::ContractCoverage() : counts_(contract_bins().size(), 0), marks_(contract_bins().size(), 0) {}

void ContractCoverage::sample(const TdvCase& c) {
  ++cases_;
  std::fill(marks_.begin(), marks_.end(), 0);
  mark(c);
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += marks_[i];
}

void ContractCoverage::mark(const TdvCase& c) {
  const auto hit = [this](const std::string& name) { marks_[bin_index(name)] = 1; };
  const LaneInput& lane = c.lane;
  const Descriptor descriptor = Descriptor::unpack(c.desc);
  hit(lane.op == Opcode::kBvh64 ? "form.bvh64" : "form.bvh32");
  hit(lane.a16 ? "form.a16" : "form.f32");

  // §3: inactive lanes (each cause the lane shows).
  const Ray ray = lane.ray();
  if (!lane.exec) {
    hit("inactive.exec_off");
    return;
  }
  if (ref::lane_is_inactive(lane, ray)) {
    if (is_nan(ray.extent) || any_nan(ray.origin) || any_nan(ray.dir) || any_nan(ray.inv_dir))
      hit("inactive.nan_operand");
    if (is_inf(ray.origin[0]) || is_inf(ray.origin[1]) || is_inf(ray.origin[2])) hit("inactive.inf_origin");
    return;
  }

  // §4: the descriptor, each field that breaks a must.
  const uint32_t faults = descriptor.faults();
  if (faults != kDescriptorOk) {
    if (faults & kReservedBits54To40) hit("descriptor.reserved_54_40");
    if (faults & kReservedBits119To106) hit("descriptor.reserved_119_106");
    if (faults & kReservedBits122To121) hit("descriptor.reserved_122_121");
    if (faults & kBigPageNotSet) hit("descriptor.big_page_clear");
    if (faults & kTypeNotEight) hit("descriptor.type_not_8");
    return;
  }
  hit("descriptor.valid");

  // §5: the node pointer.
  const NodePtr pointer = lane.pointer();
  const NodeType type = pointer.type();
  const ref::LanePlan plan = ref::plan_lane(descriptor, lane);
  if (plan.outcome == LaneOutcome::kReservedType) {
    hit(type == NodeType::kReserved6 ? "fetch.reserved_type_6" : "fetch.reserved_type_7");
    return;
  }
  const uint64_t units = node_units(type);
  if (plan.outcome == LaneOutcome::kOutOfBounds) {
    hit("fetch.out_of_bounds");
    if (type == NodeType::kBox32 && pointer.unit() == descriptor.size_units) hit("fetch.fp32_box_straddles_end");
    return;
  }
  if (!plan.needs_fetch()) return;
  if (pointer.unit() + units - 1 == descriptor.size_units) hit("fetch.last_unit");
  const MemoryImage memory = c.memory();
  NodeBytes scratch;
  const uint8_t* bytes = memory.view(plan.address, plan.bytes, scratch.data());

  if (is_box(type)) {
    // §6: every child of the box node.
    hit(type == NodeType::kBox16 ? "box.fp16_node" : "box.fp32_node");
    const BoxNode node = type == NodeType::kBox16 ? decode_box16(bytes) : decode_box32(bytes);
    for (int a = 0; a < 3; ++a) {
      if (sign_bit(ray.inv_dir[a])) hit("box.negative_inv_dir");
      if (bits_of(ray.inv_dir[a]) == 0x80000000u) hit("box.negative_zero_inv_dir");
    }
    const ref::BoxTestResult tests = ref::box_test(ray, node, descriptor.box_grow_ulps);
    uint32_t hits = 0;
    for (int i = 0; i < 4; ++i) {
      if (node.child[i] == kInvalidChild) {
        hit("box.empty_slot");
        continue;
      }
      const ref::SlabDistances d = ref::slab_distances(ray, node.box[i]);
      if (d.box_nan) {
        hit("box.nan_box");
        continue;
      }
      const float tnear = d.tnear, tfar = d.tfar;
      if (is_nan(tnear) || is_nan(tfar)) {
        hit("box.nan_distance");
        continue;
      }
      hit(grow_class(tfar, descriptor.box_grow_ulps));
      const float n = fmax(tnear, 0.0f);
      const float f = fmin(ulp_up(tfar, descriptor.box_grow_ulps), ray.extent);
      if (!tests.hit[i]) continue;
      ++hits;
      if (tnear < 0) hit("box.origin_inside");
      if (n == f) hit("box.hit_at_limit");
    }
    hit(fmt::format("box.hits_{}", hits));
    hit(descriptor.box_sort ? "sort.on" : "sort.off");
    if (!descriptor.box_sort) return;
    bool reorders = false, tie = false, signed_zero_tie = false;
    for (int i = 0; i < 4; ++i) {
      if (node.child[i] == kInvalidChild || !tests.hit[i]) continue;
      for (int j = i + 1; j < 4; ++j) {
        if (node.child[j] == kInvalidChild || !tests.hit[j]) continue;
        reorders = reorders || tests.key[j] < tests.key[i];
        if (tests.key[j] == tests.key[i]) {
          tie = true;
          signed_zero_tie = signed_zero_tie || sign_bit(tests.key[i]) != sign_bit(tests.key[j]);
        }
      }
    }
    if (reorders) hit("sort.reorders");
    if (tie) hit("sort.tie");
    if (signed_zero_tie) hit("sort.tie_signed_zero");
    return;
  }

  // §7: the triangle node.
  const auto t = static_cast<uint32_t>(type);
  hit(fmt::format("triangle.select_{}", t));
  const Vec3& d = ray.dir;
  const float ax = abs_value(d[0]), ay = abs_value(d[1]), az = abs_value(d[2]);
  const int kz = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  hit(kz == 0 ? "triangle.kz_x" : kz == 1 ? "triangle.kz_y" : "triangle.kz_z");
  if (d[kz] < 0) hit("triangle.kz_negative");
  const TriangleNode node = decode_triangle(bytes);
  const ref::TriangleTestResult test = ref::triangle_node_test(ray, node, t);
  if (test.det == 0) hit("triangle.det_zero");
  const bool mode1 = descriptor.return_mode == 1;
  if (!test.hit) {
    hit("triangle.miss");
    hit(mode1 ? "return_mode_1.miss" : "return_mode_0.miss");
  } else {
    hit(test.det > 0 ? "triangle.hit_det_positive" : "triangle.hit_det_negative");
    if (test.u == 0 || test.v == 0 || test.w == 0) hit("triangle.edge_zero");
    hit(mode1 ? "return_mode_1.hit" : "return_mode_0.hit");
    if (mode1) {
      hit(fmt::format("remap.i_src_{}", (node.id >> (8 * t)) & 3u));
      hit(fmt::format("remap.j_src_{}", (node.id >> (8 * t + 2)) & 3u));
    }
  }
  if (!mode1 && node.id > UINT32_MAX - t) hit("return_mode_0.id_wraps");
}

size_t ContractCoverage::bins_hit() const {
  size_t hit = 0;
  for (const uint64_t n : counts_) hit += n != 0;
  return hit;
}

std::vector<std::string> ContractCoverage::empty_bins() const {
  std::vector<std::string> names;
  for (size_t i = 0; i < counts_.size(); ++i)
    if (counts_[i] == 0) names.emplace_back(contract_bins()[i].name);
  return names;
}

std::string ContractCoverage::to_json() const {
  sim::JsonWriter json;
  json.begin_object();
  json.key("cases").value(cases_);
  json.key("bins").value(uint64_t{counts_.size()});
  json.key("bins_hit").value(uint64_t{bins_hit()});
  json.key("coverage").begin_array();
  for (size_t i = 0; i < counts_.size(); ++i) {
    const CoverageBin& bin = contract_bins()[i];
    json.begin_object();
    json.key("bin").value(bin.name);
    json.key("rule").value(bin.rule);
    json.key("what").value(bin.what);
    json.key("hits").value(counts_[i]);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.text();
}

std::string ContractCoverage::summary() const {
  std::string out = fmt::format("coverage: {} of {} bins hit\n", bins_hit(), counts_.size());
  const std::vector<std::string> empty = empty_bins();
  if (!empty.empty()) out += fmt::format("coverage: never hit: {}\n", fmt::join(empty, ", "));
  return out;
}

}  // namespace td::tb

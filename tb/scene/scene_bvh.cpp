#include "tb/scene/scene_bvh.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "tb/scene/bvh_encoder.h"
#include "tb/scene/embree_build.h"
#include "tb/scene/runtime_build.h"
#include "tb/scene/scene_error.h"
#include "tb/scene/vec_math.h"

namespace td::scene {

namespace {

constexpr uint64_t kBlasAlignUnits = 4;  // 256 bytes
constexpr uint64_t k32BitPointerUnits = uint64_t{1} << 29;

uint64_t align_up(uint64_t value, uint64_t to) { return (value + to - 1) / to * to; }

void put_u32(uint8_t* out, uint32_t value) { std::memcpy(out, &value, 4); }
void put_f32(uint8_t* out, float value) { std::memcpy(out, &value, 4); }
uint32_t get_u32(const uint8_t* in) {
  uint32_t value;
  std::memcpy(&value, in, 4);
  return value;
}
float get_f32(const uint8_t* in) {
  float value;
  std::memcpy(&value, in, 4);
  return value;
}

// The stored root boxes' union: what the BLAS's root node bounds.
Aabb root_bounds(const BvhTree& tree, const BoxNodes& nodes) {
  Aabb box = empty_box();
  for (uint32_t i = 0; i < tree.nodes[0].slot_count; ++i) box = merge(box, nodes.boxes[0].box[i]);
  return box;
}

// Where an instance is entered: its BLAS's root (depth 0), the root's
// child in slot[0] (depth 1), or that child's child in slot[1] (depth 2);
// with the node's object-space box as its parent stores it.
struct BlasEntry {
  uint8_t depth = 0;
  std::array<uint8_t, 2> slot{};
  Aabb box;
};

// The entries a BLAS's instances get when pulled up `levels` levels (0: none;
// 1: TAPU4, the root's children; 2: TAPU16, their children).
std::vector<BlasEntry> blas_entries(const BvhTree& tree, const BoxNodes& plan, int levels) {
  if (levels == 0) return {BlasEntry{0, {}, root_bounds(tree, plan)}};
  std::vector<BlasEntry> out;
  const BvhBoxNode& root = tree.nodes[0];
  for (uint8_t s = 0; s < root.slot_count; ++s) {
    const BvhSlot& slot = root.slots[s];
    if (levels == 1 || slot.is_triangle) {
      out.push_back(BlasEntry{1, {s, 0}, plan.boxes[0].box[s]});
      continue;
    }
    for (uint8_t c = 0; c < tree.nodes[slot.index].slot_count; ++c)
      out.push_back(BlasEntry{2, {s, c}, plan.boxes[slot.index].box[c]});
  }
  return out;
}

// The node pointer (relative to the BLAS) of an entry, read from the
// encoded BLAS at byte `base` the way a walk would follow it.
uint32_t entry_pointer(const MemoryImage& memory, uint64_t base, const BlasEntry& entry) {
  uint32_t pointer = static_cast<uint32_t>(NodeType::kBox32);  // the root, at unit 0
  for (uint8_t level = 0; level < entry.depth; ++level) {
    const NodePtr node{pointer};
    uint8_t bytes[kMaxNodeBytes];
    const bool fp16 = node.type() == NodeType::kBox16;
    memory.read(base + node.unit() * kNodeUnitBytes, bytes, fp16 ? 64 : 128);
    pointer = (fp16 ? decode_box16(bytes) : decode_box32(bytes)).child[entry.slot[level]];
  }
  return pointer;
}

}  // namespace

void encode_instance(const InstanceNode& node, uint8_t* out) {
  std::memset(out, 0, kInstanceNodeBytes);
  for (int i = 0; i < 12; ++i) put_f32(out + 4 * i, node.world_to_object.m[i]);
  put_u32(out + 48, (node.id & kMaxInstanceId) | uint32_t{node.mask} << 24);
  put_u32(out + 52, 0);
  put_u32(out + 56, static_cast<uint32_t>(node.blas_root));
  put_u32(out + 60, static_cast<uint32_t>(node.blas_root >> 32));
  put_u32(out + 64, node.index);
  put_u32(out + 68, node.start);
  for (int i = 0; i < 12; ++i) put_f32(out + 80 + 4 * i, node.object_to_world.m[i]);
}

InstanceNode decode_instance(const uint8_t* bytes) {
  InstanceNode node;
  for (int i = 0; i < 12; ++i) node.world_to_object.m[i] = get_f32(bytes + 4 * i);
  const uint32_t id_and_mask = get_u32(bytes + 48);
  node.id = id_and_mask & kMaxInstanceId;
  node.mask = static_cast<uint8_t>(id_and_mask >> 24);
  node.blas_root = get_u32(bytes + 56) | uint64_t{get_u32(bytes + 60)} << 32;
  node.index = get_u32(bytes + 64);
  node.start = get_u32(bytes + 68);
  for (int i = 0; i < 12; ++i) node.object_to_world.m[i] = get_f32(bytes + 80 + 4 * i);
  return node;
}

Aabb world_box(const Aabb& object_box, const Transform3x4& t) {
  std::array<double, 3> lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int corner = 0; corner < 8; ++corner) {
    const std::array<double, 3> p{corner & 1 ? object_box.max[0] : object_box.min[0],
                                  corner & 2 ? object_box.max[1] : object_box.min[1],
                                  corner & 4 ? object_box.max[2] : object_box.min[2]};
    for (int r = 0; r < 3; ++r) {
      const double w = double{t.m[4 * r]} * p[0] + double{t.m[4 * r + 1]} * p[1] + double{t.m[4 * r + 2]} * p[2] +
                       double{t.m[4 * r + 3]};
      lo[r] = std::min(lo[r], w);
      hi[r] = std::max(hi[r], w);
    }
  }
  Aabb box;
  for (int a = 0; a < 3; ++a) {
    const double pad = std::ldexp((hi[a] - lo[a]) + std::fabs(lo[a]) + std::fabs(hi[a]), -20);
    box.min[a] = float_down(lo[a] - pad);
    box.max[a] = float_up(hi[a] + pad);
  }
  return box;
}

Transform3x4 inverse(const Transform3x4& t, const std::string& where) {
  const auto m = [&t](int r, int c) { return double{t.m[4 * r + c]}; };
  const double c00 = m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1);
  const double c01 = m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2);
  const double c02 = m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0);
  const double det = m(0, 0) * c00 + m(0, 1) * c01 + m(0, 2) * c02;
  if (!std::isfinite(det) || det == 0)
    throw SceneError(fmt::format("{}: transform is singular (determinant {:.6g})", where, det));
  std::array<std::array<double, 3>, 3> a{};
  a[0] = {c00 / det, (m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2)) / det, (m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1)) / det};
  a[1] = {c01 / det, (m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0)) / det, (m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2)) / det};
  a[2] = {c02 / det, (m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1)) / det, (m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0)) / det};
  Transform3x4 out;
  for (int r = 0; r < 3; ++r) {
    double translation = 0;
    for (int c = 0; c < 3; ++c) {
      out.m[4 * r + c] = static_cast<float>(a[r][c]);
      translation -= a[r][c] * m(c, 3);
    }
    out.m[4 * r + 3] = static_cast<float>(translation);
  }
  for (float v : out.m)
    if (!std::isfinite(v)) throw SceneError(fmt::format("{}: transform has no finite binary32 inverse", where));
  return out;
}

EncodedBvh build_scene_bvh(const Scene& scene, const BvhOptions& options, unsigned threads) {
  const std::string problem = validate(options);
  if (!problem.empty()) throw std::invalid_argument(problem);
  if (scene.instances.size() > kMaxInstances)
    throw SceneError(fmt::format("{}: {} instances, more than the 2^24 an instance id numbers", scene.name,
                                 scene.instances.size()));
  const auto start = std::chrono::steady_clock::now();
  EncodedBvh bvh;
  SceneReport& report = bvh.scene_report;
  report.instances = scene.instances.size();
  report.blases = scene.blases.size();

  // Each BLAS once: its tree and where its instances may be entered (the
  // root; with TAPU, nodes below it: [b][0, 1, 2] for tapu 0, 4, 16).
  std::vector<BvhTree> trees(scene.blases.size());
  std::vector<std::array<std::vector<BlasEntry>, 3>> entries(scene.blases.size());
  std::vector<bool> usable(scene.blases.size(), false);
  // Levels an instance is pulled up by (0, 1 for TAPU4, 2 for TAPU16).
  const auto tapu_level = [&](const Instance& instance) {
    switch (options.tapu) {
      case TapuPolicy::kOff: return 0;
      case TapuPolicy::kTapu4: return 1;
      case TapuPolicy::kTapu16: return 2;
      case TapuPolicy::kScene: break;
    }
    return instance.tapu == 16 ? 2 : instance.tapu == 4 ? 1 : 0;
  };
  for (size_t b = 0; b < scene.blases.size(); ++b) {
    const Mesh& mesh = scene.blases[b];
    report.unique_triangles += mesh.triangle_count();
    if (usable_triangle_count(mesh) == 0) continue;
    usable[b] = true;
    trees[b] = options.blas_builder == BvhBuilder::kSah
                   ? build_bvh_tree(mesh, options)
                   : build_runtime_tree(mesh, options.blas_builder, options.ploc_radius, threads);
  }
  for (const Instance& instance : scene.instances)
    if (instance.blas < scene.blases.size() && usable[instance.blas]) {
      std::vector<BlasEntry>& list = entries[instance.blas][tapu_level(instance)];
      if (list.empty())
        list = blas_entries(trees[instance.blas], plan_box_nodes(trees[instance.blas], Fp16Choice::of(options), true),
                            tapu_level(instance));
    }

  // The TLAS over the placed instances' entries' world boxes: leaves[k]
  // is (instance, entry index), boxes[k] its box.
  std::vector<std::pair<uint32_t, uint32_t>> leaves;
  std::vector<Aabb> boxes;
  std::vector<Transform3x4> world_to_object(scene.instances.size());
  for (size_t i = 0; i < scene.instances.size(); ++i) {
    const Instance& instance = scene.instances[i];
    const std::string where = fmt::format("{}: instance {} ({})", scene.name, i, instance.node);
    if (instance.blas >= scene.blases.size())
      throw SceneError(fmt::format("{}: BLAS {} of {}", where, instance.blas, scene.blases.size()));
    if (instance.id > kMaxInstanceId) throw SceneError(fmt::format("{}: id {} past 24 bits", where, instance.id));
    for (float v : instance.object_to_world.m)
      if (!std::isfinite(v)) throw SceneError(fmt::format("{}: transform has a non-finite entry", where));
    world_to_object[i] = inverse(instance.object_to_world, where);
    if (instance.tapu != 0 && instance.tapu != 4 && instance.tapu != 16)
      throw SceneError(fmt::format("{}: tapu {} (0, 4 or 16)", where, instance.tapu));
    if (!usable[instance.blas]) continue;
    const std::vector<BlasEntry>& list = entries[instance.blas][tapu_level(instance)];
    for (uint32_t e = 0; e < list.size(); ++e) {
      leaves.emplace_back(static_cast<uint32_t>(i), e);
      boxes.push_back(world_box(list[e].box, instance.object_to_world));
    }
    report.pulled_up_instances += tapu_level(instance) > 0;
    ++report.placed_instances;
    report.instanced_triangles += scene.blases[instance.blas].triangle_count();
  }
  if (report.placed_instances == 0)
    throw SceneError(fmt::format("{}: no instance places a usable triangle", scene.name));
  const std::string tlas_name = scene.name + " (TLAS)";
  const BvhTree tlas = options.tlas_builder == BvhBuilder::kSah
                           ? build_bvh_tree_of_boxes(boxes, tlas_name, options)
                           : build_runtime_tree_of_boxes(boxes, options.tlas_builder, options.ploc_radius, tlas_name,
                                                         threads);
  // FP32 throughout, as gpurt builds a TLAS (bvh_options.h: Fp16Policy).
  const BoxNodes tlas_nodes = plan_box_nodes(tlas, Fp16Choice::fp32(), false);

  // Instance nodes, one per TLAS leaf, in the order the TLAS first
  // addresses them (each once: no splits).
  std::vector<uint32_t> ordinal_of(leaves.size(), kNoPrimitive), leaf_of_ordinal;
  for (const BvhBoxNode& node : tlas.nodes)
    for (uint32_t s = 0; s < node.slot_count; ++s)
      if (node.slots[s].is_triangle && ordinal_of[node.slots[s].index] == kNoPrimitive) {
        const uint32_t leaf = node.slots[s].index, instance = leaves[leaf].first;
        ordinal_of[leaf] = static_cast<uint32_t>(bvh.instance_index.size());
        leaf_of_ordinal.push_back(leaf);
        bvh.instance_index.push_back(instance);
        bvh.instance_blas.push_back(scene.instances[instance].blas);
      }
  report.instance_nodes = bvh.instance_index.size();
  bvh.first_instance_unit = align_up(tlas_nodes.unit_count, 2);
  const uint64_t tlas_units = bvh.first_instance_unit + 2 * bvh.instance_index.size();

  // Memory from address 0: the TLAS's parent links (with them), the TLAS
  // from the descriptor's base, then every BLAS, each after its own links
  // and from a 256-byte boundary. Units below are absolute until the end.
  const bool links = options.parent_links;
  const uint64_t tlas_base_unit = (links ? link_region_bytes(tlas_units) : 0) / kNodeUnitBytes;
  const uint64_t tlas_end_unit = align_up(tlas_base_unit + tlas_units, kBlasAlignUnits);
  uint64_t next_unit = std::max(tlas_end_unit, align_up(options.blas_address / kNodeUnitBytes, kBlasAlignUnits));
  const uint64_t gap_units = next_unit - tlas_end_unit;
  bvh.blases.resize(scene.blases.size());
  for (size_t b = 0; b < scene.blases.size(); ++b) {
    if (!usable[b]) continue;
    BvhLayout& blas = bvh.blases[b];
    const auto place = [&](uint64_t units) {
      return align_up(next_unit + (links ? link_region_bytes(units) : 0) / kNodeUnitBytes, kBlasAlignUnits);
    };
    blas = encode_bvh_into(scene.blases[b], trees[b], options, true, place, bvh.memory);
    next_unit = align_up(blas.base_unit + blas.unit_count, kBlasAlignUnits);
    blas.base_unit -= tlas_base_unit;  // counted from the descriptor's base, as its pointers are
    BvhReport& totals = report.blas_totals;
    totals.triangles += blas.report.triangles;
    totals.degenerate_triangles += blas.report.degenerate_triangles;
    totals.triangle_references += blas.report.triangle_references;
    totals.box16_nodes += blas.report.box16_nodes;
    totals.box32_nodes += blas.report.box32_nodes;
    totals.triangle_nodes += blas.report.triangle_nodes;
    totals.padding_units += blas.report.padding_units;
    totals.link_bytes += blas.report.link_bytes;
    totals.bytes += blas.report.bytes;
    totals.depth = std::max(totals.depth, blas.report.depth);
    for (int k = 0; k < 4; ++k) totals.triangle_nodes_holding[k] += blas.report.triangle_nodes_holding[k];
  }
  const uint64_t unit_count = next_unit - tlas_base_unit;  // what the descriptor spans
  bvh.op = unit_count > k32BitPointerUnits ? Opcode::kBvh64 : Opcode::kBvh;

  // The TLAS: box nodes from the descriptor's base, then the instance nodes.
  BvhLayout& top = bvh;
  top.base_unit = tlas_base_unit;
  std::vector<uint32_t> tlas_links;
  if (links) tlas_links.assign(tlas_units, kNoParent);
  write_box_nodes(
      tlas, tlas_nodes,
      [&](uint32_t node, uint32_t slot) {
        const uint32_t leaf = tlas.nodes[node].slots[slot].index;
        return static_cast<uint32_t>(
            NodePtr::make(bvh.first_instance_unit + 2 * uint64_t{ordinal_of[leaf]}, kInstanceNodeType).raw);
      },
      bvh.memory, top, links ? &tlas_links : nullptr);
  if (links) write_parent_links(tlas_links, tlas_base_unit, bvh.memory);
  uint8_t bytes[kInstanceNodeBytes];
  for (size_t k = 0; k < bvh.instance_index.size(); ++k) {
    const uint32_t i = bvh.instance_index[k];
    const Instance& instance = scene.instances[i];
    const BvhLayout& blas = bvh.blases[instance.blas];
    const BlasEntry& entry = entries[instance.blas][tapu_level(instance)][leaves[leaf_of_ordinal[k]].second];
    InstanceNode node;
    node.world_to_object = world_to_object[i];
    node.id = instance.id;
    node.mask = instance.mask;
    node.blas_root = (blas.base_unit << 3) + blas.root;
    node.start = entry_pointer(bvh.memory, (tlas_base_unit + blas.base_unit) * kNodeUnitBytes, entry);
    bvh.tapu = bvh.tapu || entry.depth > 0;
    node.index = i;
    node.object_to_world = instance.object_to_world;
    encode_instance(node, bytes);
    bvh.memory.write((tlas_base_unit + bvh.first_instance_unit + 2 * k) * kNodeUnitBytes, bytes, kInstanceNodeBytes);
  }
  top.base_unit = 0;
  top.unit_count = tlas_units;
  top.first_triangle_unit = tlas_units;
  BvhReport& tlas_report = top.report;
  tlas_report.link_bytes = links ? 4 * tlas_units : 0;
  tlas_report.bytes = tlas_units * kNodeUnitBytes + tlas_report.link_bytes;
  // The walk's deepest path: TLAS box levels, the instance node, the deepest BLAS.
  tlas_report.depth = tlas.depth + 1 + report.blas_totals.depth;
  bvh.descriptor = bvh_descriptor(tlas_base_unit * kNodeUnitBytes, unit_count, options);
  bvh.parent_links = links;

  report.tlas_bytes = tlas_end_unit * kNodeUnitBytes;  // its links, nodes and alignment: the bytes before the BLASes'
  report.instance_node_bytes = bvh.instance_index.size() * kInstanceNodeBytes;
  // From address 0 to the last BLAS, its alignment included; not the gap.
  report.bytes = (next_unit - gap_units) * kNodeUnitBytes;
  report.blas_bytes = report.bytes - tlas_end_unit * kNodeUnitBytes;
  BvhReport& totals = report.blas_totals;
  const uint64_t usable_triangles = totals.triangles - totals.degenerate_triangles;
  totals.bytes_per_triangle = usable_triangles == 0 ? 0 : static_cast<double>(totals.bytes) / usable_triangles;
  const uint64_t box_nodes = totals.box16_nodes + totals.box32_nodes;
  totals.fp16_fraction = box_nodes == 0 ? 0 : static_cast<double>(totals.box16_nodes) / box_nodes;
  // Triangles stored per triangle node, as each BLAS's report counts them
  // (with parent links a triangle placed by several box nodes is stored
  // once for each).
  uint64_t stored_triangles = 0;
  for (int k = 0; k < 4; ++k) stored_triangles += (k + 1) * totals.triangle_nodes_holding[k];
  totals.triangles_per_triangle_node =
      totals.triangle_nodes == 0 ? 0 : static_cast<double>(stored_triangles) / totals.triangle_nodes;
  tlas_report.builder = builder_name(options.tlas_builder);
  report.blas_totals.builder = builder_name(options.blas_builder);
  report.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return bvh;
}

}  // namespace td::scene

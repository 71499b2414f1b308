#include "tb/scene/bvh_encoder.h"

#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <cmath>
#include <stdexcept>

namespace td::scene {

namespace {

// The 32-bit node pointer holds a 29-bit unit index.
constexpr uint64_t kMaxUnits = uint64_t{1} << 29;

BoxNode boxes_of(const BvhBoxNode& node) {
  BoxNode box;
  for (uint32_t i = 0; i < 4; ++i) {
    box.child[i] = kInvalidChild;
    if (i < node.slot_count) box.box[i] = node.slots[i].bounds;
  }
  return box;
}

// The boxes as an FP16 node stores them: encoded (rounded outward), decoded.
BoxNode round_trip_fp16(const BoxNode& node) {
  NodeBytes bytes{};
  encode_box16(node, bytes.data());
  return decode_box16(bytes.data());
}

// Primitives in the order the tree first addresses them.
std::vector<uint32_t> leaf_order(const BvhTree& tree, size_t primitive_count) {
  std::vector<bool> seen(primitive_count, false);
  std::vector<uint32_t> order;
  for (const BvhBoxNode& node : tree.nodes) {
    for (uint32_t i = 0; i < node.slot_count; ++i) {
      const BvhSlot& slot = node.slots[i];
      if (!slot.is_triangle || seen[slot.index]) continue;
      seen[slot.index] = true;
      order.push_back(slot.index);
    }
  }
  return order;
}

// Each box node's boxes as they will be written, decided bottom-up: a slot
// holding a box node gets the union of that node's stored boxes (FP16
// ones rounded outward), so every stored box contains every stored box
// below it, not just the geometry.
struct BoxPlan {
  std::vector<BoxNode> boxes;  // by tree node: the boxes to encode (child pointers filled later)
  std::vector<bool> fp16;      // by tree node
};

// The policy's choice for tree node `n` whose boxes are `boxes`.
bool fp16_node(const BvhTree& tree, size_t n, const BoxNode& boxes, const Fp16Choice& choice, bool root_fp32) {
  if (root_fp32 && n == 0) return false;
  const BvhBoxNode& node = tree.nodes[n];
  switch (choice.policy) {
    case Fp16Policy::kNone: return false;
    case Fp16Policy::kAll: return true;
    case Fp16Policy::kLeaf:
      for (uint32_t i = 0; i < node.slot_count; ++i)
        if (node.slots[i].is_triangle) return true;
      return false;
    case Fp16Policy::kMixed: return use_fp16(boxes, node.slot_count, choice.threshold);
  }
  return false;
}

BoxPlan plan_boxes(const BvhTree& tree, const Fp16Choice& choice, bool root_fp32) {
  BoxPlan plan;
  plan.boxes.resize(tree.nodes.size());
  plan.fp16.resize(tree.nodes.size());
  std::vector<BoxNode> stored(tree.nodes.size());
  for (size_t n = tree.nodes.size(); n-- > 0;) {  // preorder reversed: children first
    const BvhBoxNode& node = tree.nodes[n];
    BoxNode boxes = boxes_of(node);
    for (uint32_t i = 0; i < node.slot_count; ++i) {
      const BvhSlot& slot = node.slots[i];
      if (slot.is_triangle) continue;
      Aabb below = empty_box();
      for (uint32_t j = 0; j < tree.nodes[slot.index].slot_count; ++j)
        below = merge(below, stored[slot.index].box[j]);
      boxes.box[i] = below;
    }
    plan.fp16[n] = fp16_node(tree, n, boxes, choice, root_fp32);
    stored[n] = plan.fp16[n] ? round_trip_fp16(boxes) : boxes;
    plan.boxes[n] = boxes;
  }
  return plan;
}

struct BoxLayout {
  std::vector<uint64_t> unit;  // by tree node
  uint64_t unit_count = 0;
  uint64_t padding_units = 0;
};

BoxLayout lay_out_boxes(const std::vector<bool>& fp16) {
  BoxLayout layout;
  layout.unit.resize(fp16.size());
  uint64_t next = 0;
  constexpr uint64_t kNoHole = ~uint64_t{0};
  uint64_t hole = kNoHole;  // a free 64-byte unit left before an aligned FP32 node
  for (size_t n = 0; n < fp16.size(); ++n) {
    if (fp16[n]) {
      if (hole != kNoHole) {
        layout.unit[n] = hole;
        hole = kNoHole;
      } else {
        layout.unit[n] = next++;
      }
      continue;
    }
    if (next % 2 != 0) hole = next++;
    layout.unit[n] = next;
    next += 2;
  }
  layout.unit_count = next;
  layout.padding_units = hole != kNoHole ? 1 : 0;
  return layout;
}

}  // namespace

bool use_fp16(const BoxNode& boxes, uint32_t slot_count, double fp16_threshold) {
  if (fp16_threshold < 0) return false;
  if (std::isinf(fp16_threshold)) return true;
  const BoxNode rounded = round_trip_fp16(boxes);
  double exact_area = 0, rounded_area = 0;
  for (uint32_t i = 0; i < slot_count; ++i) {
    exact_area += surface_area(boxes.box[i]);
    rounded_area += surface_area(rounded.box[i]);
  }
  return rounded_area <= exact_area * (1 + fp16_threshold);
}

BoxNodes plan_box_nodes(const BvhTree& tree, const Fp16Choice& choice, bool root_fp32) {
  BoxPlan plan = plan_boxes(tree, choice, root_fp32);
  BoxLayout layout = lay_out_boxes(plan.fp16);
  BoxNodes nodes;
  nodes.boxes = std::move(plan.boxes);
  nodes.fp16 = std::move(plan.fp16);
  nodes.unit = std::move(layout.unit);
  nodes.unit_count = layout.unit_count;
  nodes.padding_units = layout.padding_units;
  return nodes;
}

void write_box_nodes(const BvhTree& tree, const BoxNodes& nodes,
                     const std::function<uint32_t(uint32_t node, uint32_t slot)>& leaf_pointer, MemoryImage& memory,
                     BvhLayout& out, std::vector<uint32_t>* links) {
  const uint64_t base = out.base_unit * kNodeUnitBytes;
  const auto box_pointer = [&](uint32_t node) {
    return static_cast<uint32_t>(
        NodePtr::make(nodes.unit[node], nodes.fp16[node] ? NodeType::kBox16 : NodeType::kBox32).raw);
  };
  BvhReport& report = out.report;
  NodeBytes bytes{};
  double slot_area_sum = 0;
  double root_area = 0;
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const BvhBoxNode& node = tree.nodes[n];
    BoxNode box = nodes.boxes[n];
    for (uint32_t i = 0; i < node.slot_count; ++i) {
      const BvhSlot& slot = node.slots[i];
      box.child[i] = slot.is_triangle ? leaf_pointer(static_cast<uint32_t>(n), i) : box_pointer(slot.index);
      if (links) (*links)[NodePtr{box.child[i]}.unit()] = box_pointer(static_cast<uint32_t>(n));
    }
    if (nodes.fp16[n]) {
      encode_box16(box, bytes.data());
      ++report.box16_nodes;
    } else {
      encode_box32(box, bytes.data());
      ++report.box32_nodes;
    }
    const NodeType type = nodes.fp16[n] ? NodeType::kBox16 : NodeType::kBox32;
    memory.write(base + nodes.unit[n] * kNodeUnitBytes, bytes.data(), node_bytes(type));
    // The SAH over the boxes as stored.
    const BoxNode stored = nodes.fp16[n] ? decode_box16(bytes.data()) : decode_box32(bytes.data());
    Aabb node_bounds = empty_box();
    for (uint32_t i = 0; i < node.slot_count; ++i) {
      slot_area_sum += surface_area(stored.box[i]);
      node_bounds = merge(node_bounds, stored.box[i]);
    }
    if (n == 0) {
      out.bounds = node_bounds;
      root_area = surface_area(node_bounds);
    }
  }
  out.root = box_pointer(0);
  if (links) (*links)[nodes.unit[0]] = kNoParent;
  report.padding_units = nodes.padding_units;
  report.depth = tree.depth;
  const uint64_t box_nodes = report.box16_nodes + report.box32_nodes;
  report.fp16_fraction = box_nodes == 0 ? 0 : static_cast<double>(report.box16_nodes) / box_nodes;
  report.sah_cost = root_area > 0 ? 1 + slot_area_sum / root_area : 1;
}

void write_parent_links(const std::vector<uint32_t>& links, uint64_t base_unit, MemoryImage& memory) {
  // Unit u's link is at base - 4 u - 4: the table runs backwards from the base.
  std::vector<uint8_t> bytes(4 * links.size());
  for (size_t u = 0; u < links.size(); ++u) {
    const size_t at = 4 * (links.size() - 1 - u);
    for (int k = 0; k < 4; ++k) bytes[at + k] = static_cast<uint8_t>(links[u] >> (8 * k));
  }
  if (!bytes.empty()) memory.write(base_unit * kNodeUnitBytes - bytes.size(), bytes.data(), bytes.size());
}

BvhLayout encode_bvh_into(const Mesh& mesh, const BvhTree& tree, const BvhOptions& options, bool root_fp32,
                          const std::function<uint64_t(uint64_t units)>& place, MemoryImage& memory) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<uint32_t> order = leaf_order(tree, mesh.triangle_count());
  // With parent links each box node's triangles are packed among themselves
  // (a triangle node has one parent): the references in tree order, one
  // group per box node.
  std::vector<uint32_t> references, group_end;
  std::vector<uint32_t> first_reference(tree.nodes.size(), 0);
  if (options.parent_links) {
    for (size_t n = 0; n < tree.nodes.size(); ++n) {
      first_reference[n] = static_cast<uint32_t>(references.size());
      const BvhBoxNode& node = tree.nodes[n];
      for (uint32_t i = 0; i < node.slot_count; ++i)
        if (node.slots[i].is_triangle) references.push_back(node.slots[i].index);
      group_end.resize(references.size(), static_cast<uint32_t>(references.size()));
    }
  }
  const TrianglePack pack = options.parent_links
                                ? pack_triangles_grouped(mesh, references, group_end, options.pack)
                                : pack_triangles(mesh, order, options.pack);
  const BoxNodes nodes = plan_box_nodes(tree, Fp16Choice::of(options), root_fp32);

  BvhLayout bvh;
  bvh.first_triangle_unit = nodes.unit_count;
  bvh.unit_count = nodes.unit_count + pack.nodes.size();
  if (bvh.unit_count > kMaxUnits)
    throw std::runtime_error(fmt::format("{}: BVH needs {} node units, more than a 32-bit node pointer addresses",
                                         mesh.name, bvh.unit_count));
  bvh.base_unit = place(bvh.unit_count);
  const uint64_t base = bvh.base_unit * kNodeUnitBytes;
  const auto triangle_pointer = [&](uint32_t node, uint32_t slot) {
    const BvhSlot& s = tree.nodes[node].slots[slot];
    // The reference's own node with links; the primitive's one node without.
    uint32_t k = 0;
    for (uint32_t i = 0; i < slot; ++i) k += tree.nodes[node].slots[i].is_triangle ? 1 : 0;
    const TriangleLocation& at =
        options.parent_links ? pack.by_position[first_reference[node] + k] : pack.location[s.index];
    return static_cast<uint32_t>(
        NodePtr::make(bvh.first_triangle_unit + at.node, static_cast<NodeType>(at.slot)).raw);
  };
  std::vector<uint32_t> links;
  if (options.parent_links) links.assign(bvh.unit_count, kNoParent);
  write_box_nodes(tree, nodes, triangle_pointer, memory, bvh, options.parent_links ? &links : nullptr);
  if (options.parent_links) write_parent_links(links, bvh.base_unit, memory);

  BvhReport& report = bvh.report;
  NodeBytes bytes{};
  bvh.slot_primitive.assign(4 * pack.nodes.size(), kNoPrimitive);
  for (size_t k = 0; k < pack.nodes.size(); ++k) {
    const PackedTriangleNode& packed = pack.nodes[k];
    TriangleNode node;
    node.vertex = packed.vertex;
    node.id = options.return_mode == 1 ? packed.remap_bits : static_cast<uint32_t>(4 * k);
    encode_triangle(node, bytes.data());
    memory.write(base + (bvh.first_triangle_unit + k) * kNodeUnitBytes, bytes.data(), kNodeUnitBytes);
    for (uint32_t t = 0; t < 4; ++t) bvh.slot_primitive[4 * k + t] = packed.primitive[t];
    ++report.triangle_nodes_holding[packed.triangle_count - 1];
  }

  report.triangles = mesh.triangle_count();
  report.degenerate_triangles = mesh.triangle_count() - order.size();
  report.triangle_references = tree.triangle_references;
  report.triangle_nodes = pack.nodes.size();
  report.link_bytes = options.parent_links ? 4 * bvh.unit_count : 0;
  report.bytes = bvh.unit_count * kNodeUnitBytes + report.link_bytes;
  report.bytes_per_triangle = order.empty() ? 0 : static_cast<double>(report.bytes) / order.size();
  const uint64_t stored_triangles = options.parent_links ? references.size() : order.size();
  report.triangles_per_triangle_node =
      pack.nodes.empty() ? 0 : static_cast<double>(stored_triangles) / pack.nodes.size();
  report.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return bvh;
}

Descriptor bvh_descriptor(uint64_t base_address, uint64_t unit_count, const BvhOptions& options) {
  Descriptor descriptor;
  descriptor.base_256b = base_address / 256;
  descriptor.size_units = unit_count - 1;
  descriptor.box_sort = true;  // the traversal visits the nearest child first
  descriptor.box_grow_ulps = options.box_grow_ulps;
  descriptor.return_mode = options.return_mode;
  return descriptor;
}

EncodedBvh encode_bvh(const Mesh& mesh, const BvhTree& tree, const BvhOptions& options) {
  EncodedBvh bvh;
  // The BVH's memory starts at base_address: its parent links, then the
  // nodes, whose first unit is the descriptor's base.
  const auto place = [&](uint64_t units) {
    return (options.base_address + (options.parent_links ? link_region_bytes(units) : 0)) / kNodeUnitBytes;
  };
  static_cast<BvhLayout&>(bvh) = encode_bvh_into(mesh, tree, options, false, place, bvh.memory);
  // The descriptor's base is the BVH's: its pointers count units from there.
  const uint64_t base_address = bvh.base_unit * kNodeUnitBytes;
  bvh.base_unit = 0;
  bvh.descriptor = bvh_descriptor(base_address, bvh.unit_count, options);
  bvh.parent_links = options.parent_links;
  return bvh;
}

}  // namespace td::scene

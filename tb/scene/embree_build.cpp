#include "tb/scene/embree_build.h"

#include <embree3/rtcore.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>

#include "tb/scene/scene_error.h"
#include "tb/scene/vec_math.h"

namespace td::scene {

namespace {

constexpr unsigned kBranchingFactor = 4;
constexpr unsigned kMaxEmbreeDepth = 48;  // well inside the traversal's trail (kMaxTraversalDepth)

// Nodes Embree builds through the callbacks, in its thread-local arenas
// (freed with the RTCBVH). Converted to a BvhTree once the build is done.
struct EmbreeNode {
  bool is_leaf = false;
};

struct EmbreeInner : EmbreeNode {
  unsigned count = 0;
  std::array<EmbreeNode*, kBranchingFactor> child{};
  std::array<Aabb, kBranchingFactor> bounds{};
};

struct LeafReference {
  uint32_t primitive = 0;
  Aabb bounds;  // the triangle's box, or the piece of it a spatial split left here
};

struct EmbreeLeaf : EmbreeNode {
  unsigned count = 0;
  std::array<LeafReference, 4> refs{};
};

Aabb to_aabb(const RTCBounds& b) { return Aabb{{b.lower_x, b.lower_y, b.lower_z}, {b.upper_x, b.upper_y, b.upper_z}}; }

RTCBounds to_rtc(const Aabb& box) {
  RTCBounds b{};
  b.lower_x = box.min[0];
  b.lower_y = box.min[1];
  b.lower_z = box.min[2];
  b.upper_x = box.max[0];
  b.upper_y = box.max[1];
  b.upper_z = box.max[2];
  return b;
}

Aabb reference_box(const RTCBuildPrimitive& ref) {
  return Aabb{{ref.lower_x, ref.lower_y, ref.lower_z}, {ref.upper_x, ref.upper_y, ref.upper_z}};
}

void* create_node(RTCThreadLocalAllocator alloc, unsigned int child_count, void* /*user*/) {
  void* memory = rtcThreadLocalAlloc(alloc, sizeof(EmbreeInner), alignof(EmbreeInner));
  auto* node = new (memory) EmbreeInner;
  node->count = child_count;
  return node;
}

void set_children(void* node_ptr, void** children, unsigned int child_count, void* /*user*/) {
  auto* node = static_cast<EmbreeInner*>(node_ptr);
  for (unsigned i = 0; i < child_count; ++i) node->child[i] = static_cast<EmbreeNode*>(children[i]);
}

void set_bounds(void* node_ptr, const RTCBounds** bounds, unsigned int child_count, void* /*user*/) {
  auto* node = static_cast<EmbreeInner*>(node_ptr);
  for (unsigned i = 0; i < child_count; ++i) node->bounds[i] = to_aabb(*bounds[i]);
}

void* create_leaf(RTCThreadLocalAllocator alloc, const RTCBuildPrimitive* prims, size_t count, void* /*user*/) {
  void* memory = rtcThreadLocalAlloc(alloc, sizeof(EmbreeLeaf), alignof(EmbreeLeaf));
  auto* leaf = new (memory) EmbreeLeaf;
  leaf->is_leaf = true;
  // max_leaf_size <= 4 bounds what Embree hands over; more would be a bug.
  if (count > leaf->refs.size()) std::abort();
  leaf->count = static_cast<unsigned>(count);
  for (size_t i = 0; i < count; ++i) {
    leaf->refs[i].primitive = prims[i].primID;
    leaf->refs[i].bounds = reference_box(prims[i]);
  }
  return leaf;
}


struct DoubleBox {
  std::array<double, 3> min{HUGE_VAL, HUGE_VAL, HUGE_VAL};
  std::array<double, 3> max{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  void extend(const std::array<double, 3>& p) {
    for (int a = 0; a < 3; ++a) {
      min[a] = std::min(min[a], p[a]);
      max[a] = std::max(max[a], p[a]);
    }
  }
  bool empty() const { return min[0] > max[0]; }
};

// The box of the part of the triangle on one side of the plane, rounded
// outward by one more float step (the double intersection points are not
// exact), then clipped to the reference's current box and to the plane.
RTCBounds piece_bounds(const DoubleBox& piece, const RTCBuildPrimitive& ref, unsigned dim, float position,
                       bool left) {
  Aabb box = reference_box(ref);
  if (left)
    box.max[dim] = std::min(box.max[dim], position);
  else
    box.min[dim] = std::max(box.min[dim], position);
  if (piece.empty()) return to_rtc(box);  // nothing on this side: Embree never asks, but stay inside
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (unsigned a = 0; a < 3; ++a) {
    const float lo = std::nextafter(float_down(piece.min[a]), -kInf);
    const float hi = std::nextafter(float_up(piece.max[a]), kInf);
    box.min[a] = std::max(box.min[a], lo);
    box.max[a] = std::min(box.max[a], hi);
  }
  return to_rtc(box);
}

void split_primitive(const RTCBuildPrimitive* ref, unsigned int dim, float position, RTCBounds* left_bounds,
                     RTCBounds* right_bounds, void* user) {
  const Mesh& mesh = *static_cast<const Mesh*>(user);
  std::array<std::array<double, 3>, 3> v{};
  for (int corner = 0; corner < 3; ++corner)
    for (int a = 0; a < 3; ++a) v[corner][a] = mesh.vertex(ref->primID, corner)[a];
  DoubleBox left, right;
  const double plane = position;
  for (int e = 0; e < 3; ++e) {
    const auto& a = v[e];
    const auto& b = v[(e + 1) % 3];
    if (a[dim] <= plane) left.extend(a);
    if (a[dim] >= plane) right.extend(a);
    if ((a[dim] < plane && b[dim] > plane) || (a[dim] > plane && b[dim] < plane)) {
      const double t = (plane - a[dim]) / (b[dim] - a[dim]);
      std::array<double, 3> p{};
      for (int k = 0; k < 3; ++k) p[k] = a[k] + t * (b[k] - a[k]);
      p[dim] = plane;
      left.extend(p);
      right.extend(p);
    }
  }
  *left_bounds = piece_bounds(left, *ref, dim, position, true);
  *right_bounds = piece_bounds(right, *ref, dim, position, false);
}

struct DeviceDeleter {
  void operator()(RTCDevice device) const { rtcReleaseDevice(device); }
};
struct BvhDeleter {
  void operator()(RTCBVH bvh) const { rtcReleaseBVH(bvh); }
};
using DeviceHandle = std::unique_ptr<RTCDeviceTy, DeviceDeleter>;
using BvhHandle = std::unique_ptr<RTCBVHTy, BvhDeleter>;

class TreeConverter {
 public:
  explicit TreeConverter(BvhTree& tree) : tree_(tree) {}

  // Appends `node` (and its subtree) in preorder; returns its index.
  uint32_t add_inner(const EmbreeInner& node, uint32_t level) {
    const uint32_t index = new_node(level);
    for (unsigned i = 0; i < node.count; ++i) {
      BvhSlot slot = child_slot(*node.child[i], node.bounds[i], level);
      tree_.nodes[index].slots[i] = slot;
    }
    tree_.nodes[index].slot_count = node.count;
    return index;
  }

  // A leaf of k > 1 triangles (or a root leaf) gets a box node of its own.
  uint32_t add_leaf_node(const EmbreeLeaf& leaf, uint32_t level) {
    const uint32_t index = new_node(level);
    std::array<LeafReference, 4> refs = leaf.refs;
    // Embree's partition leaves a leaf's references in an order that is not
    // part of its contract: sort them so the layout depends on the set only.
    // (Insertion sort: at most four, and std::sort trips GCC 12's bounds warning.)
    for (unsigned i = 1; i < leaf.count; ++i)
      for (unsigned j = i; j > 0 && refs[j].primitive < refs[j - 1].primitive; --j) std::swap(refs[j], refs[j - 1]);
    for (unsigned i = 0; i < leaf.count; ++i) tree_.nodes[index].slots[i] = triangle_slot(refs[i]);
    tree_.nodes[index].slot_count = leaf.count;
    return index;
  }

 private:
  BvhSlot child_slot(const EmbreeNode& child, const Aabb& bounds, uint32_t level) {
    if (!child.is_leaf) {
      BvhSlot slot{bounds, false, 0};
      slot.index = add_inner(static_cast<const EmbreeInner&>(child), level + 1);
      return slot;
    }
    const auto& leaf = static_cast<const EmbreeLeaf&>(child);
    if (leaf.count == 1) return triangle_slot(leaf.refs[0]);
    BvhSlot slot{bounds, false, 0};
    slot.index = add_leaf_node(leaf, level + 1);
    return slot;
  }

  BvhSlot triangle_slot(const LeafReference& ref) {
    ++tree_.triangle_references;
    return BvhSlot{ref.bounds, true, ref.primitive};
  }

  uint32_t new_node(uint32_t level) {
    tree_.depth = std::max(tree_.depth, level + 1);
    tree_.nodes.emplace_back();
    return static_cast<uint32_t>(tree_.nodes.size() - 1);
  }

  BvhTree& tree_;
};


RTCBuildPrimitive build_primitive(const Aabb& box, uint32_t index) {
  RTCBuildPrimitive prim{};
  prim.lower_x = box.min[0];
  prim.lower_y = box.min[1];
  prim.lower_z = box.min[2];
  prim.upper_x = box.max[0];
  prim.upper_y = box.max[1];
  prim.upper_z = box.max[2];
  prim.geomID = 0;
  prim.primID = index;
  return prim;
}

// Embree's build over `prims` (spatial splits of `mesh`'s triangles when
// given and quality is high), converted to a BvhTree.
BvhTree build_tree(std::vector<RTCBuildPrimitive>& prims, const Mesh* mesh, const std::string& name,
                   const BvhOptions& options) {
  const size_t count = prims.size();
  const bool high = options.quality == BvhQuality::kHigh && mesh != nullptr;
  // Spatial splits write their extra references after the input ones.
  prims.resize(high ? count + static_cast<size_t>(std::ceil(count * options.split_budget)) : count);

  DeviceHandle device(rtcNewDevice("threads=1"));
  if (!device) throw std::runtime_error("embree: cannot create a device");
  BvhHandle bvh(rtcNewBVH(device.get()));

  RTCBuildArguments args = rtcDefaultBuildArguments();
  args.byteSize = sizeof(args);
  args.buildQuality = high ? RTC_BUILD_QUALITY_HIGH : RTC_BUILD_QUALITY_MEDIUM;
  args.buildFlags = RTC_BUILD_FLAG_NONE;
  args.maxBranchingFactor = kBranchingFactor;
  args.maxDepth = kMaxEmbreeDepth;
  args.sahBlockSize = 1;
  args.minLeafSize = 1;
  args.maxLeafSize = options.max_leaf_size;
  // One box node (four box tests) and one triangle test each take one TD
  // clock (contract §8): equal costs.
  args.traversalCost = 1.0f;
  args.intersectionCost = 1.0f;
  args.bvh = bvh.get();
  args.primitives = prims.data();
  args.primitiveCount = count;
  args.primitiveArrayCapacity = prims.size();
  args.createNode = create_node;
  args.setNodeChildren = set_children;
  args.setNodeBounds = set_bounds;
  args.createLeaf = create_leaf;
  args.splitPrimitive = high ? split_primitive : nullptr;
  args.buildProgress = nullptr;
  args.userPtr = const_cast<Mesh*>(mesh);

  auto* root = static_cast<EmbreeNode*>(rtcBuildBVH(&args));
  if (root == nullptr)
    throw std::runtime_error(fmt::format("{}: embree BVH build failed (error {})", name,
                                         static_cast<int>(rtcGetDeviceError(device.get()))));

  BvhTree tree;
  tree.nodes.reserve(count / 2);
  TreeConverter converter(tree);
  if (root->is_leaf)
    converter.add_leaf_node(*static_cast<EmbreeLeaf*>(root), 0);
  else
    converter.add_inner(*static_cast<EmbreeInner*>(root), 0);
  return tree;
}

}  // namespace

BvhTree build_bvh_tree(const Mesh& mesh, const BvhOptions& options) {
  std::vector<RTCBuildPrimitive> prims;
  prims.reserve(mesh.triangle_count());
  for (uint32_t i = 0; i < mesh.triangle_count(); ++i)
    if (!is_degenerate(mesh, i)) prims.push_back(build_primitive(triangle_bounds(mesh, i), i));
  if (prims.empty()) throw SceneError(fmt::format("{}: no usable triangle (all degenerate)", mesh.name));
  return build_tree(prims, &mesh, mesh.name, options);
}

BvhTree build_bvh_tree_of_boxes(const std::vector<Aabb>& boxes, const std::string& name, const BvhOptions& options) {
  std::vector<RTCBuildPrimitive> prims;
  prims.reserve(boxes.size());
  for (uint32_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].min[0] <= boxes[i].max[0]) prims.push_back(build_primitive(boxes[i], i));
  if (prims.empty()) throw SceneError(fmt::format("{}: nothing to build a BVH over", name));
  return build_tree(prims, nullptr, name, options);
}

}  // namespace td::scene

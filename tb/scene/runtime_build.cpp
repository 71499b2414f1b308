#include "tb/scene/runtime_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "tb/scene/scene_error.h"

namespace td::scene {

namespace {

// A binary tree node: a leaf (one input box) or the union of two nodes.
struct BinaryNode {
  Aabb box;
  uint32_t left = 0, right = 0;  // inner: node indices
  uint32_t leaf = kNoLeaf;       // leaf: the input box's index
  static constexpr uint32_t kNoLeaf = std::numeric_limits<uint32_t>::max();
  bool is_leaf() const { return leaf != kNoLeaf; }
};

struct BinaryTree {
  std::vector<BinaryNode> nodes;
  uint32_t root = 0;
};

// 10 bits of `v` spread to every third bit.
uint32_t spread_bits(uint32_t v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

// The leaves (binary nodes 0..n-1, one per usable box) as sorted keys: the
// 30-bit Morton code of the box's centre within the centres' bounds, then
// the leaf's position (so every key is unique: ties in order of position).
std::vector<uint64_t> sorted_morton_keys(const std::vector<BinaryNode>& leaves) {
  const auto centre = [](const Aabb& box, int a) { return 0.5 * box.min[a] + 0.5 * box.max[a]; };
  std::array<double, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  for (const BinaryNode& leaf : leaves)
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], centre(leaf.box, a));
      hi[a] = std::max(hi[a], centre(leaf.box, a));
    }
  std::vector<uint64_t> keys(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    uint32_t code = 0;
    for (int a = 0; a < 3; ++a) {
      const double extent = hi[a] - lo[a];
      const double unit = extent > 0 ? (centre(leaves[i].box, a) - lo[a]) / extent : 0.0;
      code |= spread_bits(static_cast<uint32_t>(std::clamp(unit * 1024.0, 0.0, 1023.0))) << (2 - a);
    }
    keys[i] = uint64_t{code} << 32 | i;
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

uint32_t leaf_of(uint64_t key) { return static_cast<uint32_t>(key & 0xffffffffu); }

// LBVH: the radix tree over the sorted keys, split where the highest bit
// differing within a range turns on (top-down; the same tree as Karras's
// per-node construction).
class Lbvh {
 public:
  Lbvh(BinaryTree& tree, const std::vector<uint64_t>& keys) : tree_(tree), keys_(keys) {}
  uint32_t build(size_t first, size_t last) {  // [first, last]
    if (first == last) return leaf_of(keys_[first]);
    const int bit = 63 - __builtin_clzll(keys_[first] ^ keys_[last]);
    // The first key in range with that bit set (the keys are sorted, and
    // agree on every higher bit).
    size_t lo = first, hi = last;
    while (lo + 1 < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if ((keys_[mid] >> bit) & 1u)
        hi = mid;
      else
        lo = mid;
    }
    const uint32_t left = build(first, hi - 1), right = build(hi, last);
    BinaryNode node;
    node.box = merge(tree_.nodes[left].box, tree_.nodes[right].box);
    node.left = left;
    node.right = right;
    tree_.nodes.push_back(node);
    return static_cast<uint32_t>(tree_.nodes.size() - 1);
  }

 private:
  BinaryTree& tree_;
  const std::vector<uint64_t>& keys_;
};

// PLOC: clusters in Morton order; each finds, within `radius` positions on
// either side, the cluster whose union with it has the least surface area
// (ties: the nearer, then the earlier); mutual nearest neighbours merge
// into the earlier one's place; until one is left.
void build_ploc(BinaryTree& tree, std::vector<uint32_t> clusters, uint32_t radius) {
  std::vector<uint32_t> nearest(clusters.size());
  std::vector<double> cost(clusters.size() * radius);
  std::vector<Aabb> boxes(clusters.size());  // the clusters' boxes, in cluster order
  std::vector<uint32_t> next;
  next.reserve(clusters.size());
  while (clusters.size() > 1) {
    const size_t n = clusters.size();
    for (size_t i = 0; i < n; ++i) boxes[i] = tree.nodes[clusters[i]].box;
    // cost[i * radius + (d - 1)]: area of the union of clusters i and i + d.
    for (size_t i = 0; i < n; ++i)
      for (uint32_t d = 1; d <= radius; ++d)
        cost[i * radius + d - 1] =
            i + d < n ? surface_area(merge(boxes[i], boxes[i + d])) : std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      size_t best_j = i;
      for (uint32_t d = 1; d <= radius; ++d) {  // nearer first on each side: left then right
        if (i >= d && cost[(i - d) * radius + d - 1] < best) {
          best = cost[(i - d) * radius + d - 1];
          best_j = i - d;
        }
        if (i + d < n && cost[i * radius + d - 1] < best) {
          best = cost[i * radius + d - 1];
          best_j = i + d;
        }
      }
      nearest[i] = static_cast<uint32_t>(best_j);
    }
    next.clear();
    for (size_t i = 0; i < n; ++i) {
      const size_t j = nearest[i];
      if (j != i && nearest[j] == i) {
        if (i < j) {  // the earlier of the pair merges, in its place
          BinaryNode node;
          node.box = merge(boxes[i], boxes[j]);
          node.left = clusters[i];
          node.right = clusters[j];
          tree.nodes.push_back(node);
          next.push_back(static_cast<uint32_t>(tree.nodes.size() - 1));
        }
        continue;  // the later is merged away
      }
      next.push_back(clusters[i]);
    }
    std::swap(clusters, next);
  }
  tree.root = clusters[0];
}

// The binary tree as a 4-wide one, in preorder.
class Collapse {
 public:
  Collapse(const BinaryTree& binary, BvhTree& out) : binary_(binary), out_(out) {}
  uint32_t add(uint32_t node, uint32_t level) {
    const auto index = static_cast<uint32_t>(out_.nodes.size());
    out_.nodes.emplace_back();
    out_.depth = std::max(out_.depth, level + 1);
    // Its children: the node's own two (a root leaf: itself), then the
    // inner child of largest surface area opened while fewer than four.
    std::array<uint32_t, 4> children{};
    size_t count = 0;
    const BinaryNode& b = binary_.nodes[node];
    if (b.is_leaf()) {
      children[count++] = node;
    } else {
      children[count++] = b.left;
      children[count++] = b.right;
    }
    while (count < 4) {
      size_t widest = count;
      double widest_area = -1;
      for (size_t k = 0; k < count; ++k) {
        const BinaryNode& c = binary_.nodes[children[k]];
        if (c.is_leaf()) continue;
        const double area = surface_area(c.box);
        if (area > widest_area) {
          widest_area = area;
          widest = k;
        }
      }
      if (widest == count) break;  // only leaves left
      const BinaryNode& open = binary_.nodes[children[widest]];
      for (size_t k = count; k > widest + 1; --k) children[k] = children[k - 1];
      children[widest] = open.left;
      children[widest + 1] = open.right;
      ++count;
    }
    for (size_t k = 0; k < count; ++k) {
      const BinaryNode& c = binary_.nodes[children[k]];
      BvhSlot slot;
      slot.bounds = c.box;
      if (c.is_leaf()) {
        slot.is_triangle = true;
        slot.index = c.leaf;
        ++out_.triangle_references;
      } else {
        slot.index = add(children[k], level + 1);
      }
      out_.nodes[index].slots[k] = slot;
    }
    out_.nodes[index].slot_count = static_cast<uint32_t>(count);
    return index;
  }

 private:
  const BinaryTree& binary_;
  BvhTree& out_;
};

}  // namespace

BvhTree build_runtime_tree_of_boxes(const std::vector<Aabb>& boxes, BvhBuilder builder, uint32_t ploc_radius,
                                    const std::string& name) {
  if (builder == BvhBuilder::kSah) throw std::invalid_argument("runtime builders: sah is Embree's (embree_build.h)");
  if (ploc_radius < 1 || ploc_radius > 64) throw std::invalid_argument("runtime builders: ploc_radius must be 1..64");
  BinaryTree binary;
  binary.nodes.reserve(2 * boxes.size());
  for (uint32_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].min[0] <= boxes[i].max[0]) {
      // (An infinite coordinate would make every union's area infinite: no
      // cluster would find a nearest neighbour, and Morton codes need a centre.)
      for (int a = 0; a < 3; ++a)
        if (!std::isfinite(boxes[i].min[a]) || !std::isfinite(boxes[i].max[a]))
          throw SceneError(fmt::format("{}: leaf {} has a box past binary32's range", name, i));
      BinaryNode leaf;
      leaf.box = boxes[i];
      leaf.leaf = i;
      binary.nodes.push_back(leaf);
    }
  if (binary.nodes.empty()) throw SceneError(fmt::format("{}: nothing to build a BVH over", name));
  const std::vector<uint64_t> keys = sorted_morton_keys(binary.nodes);
  if (builder == BvhBuilder::kLbvh) {
    binary.root = Lbvh(binary, keys).build(0, keys.size() - 1);
  } else {
    std::vector<uint32_t> clusters(keys.size());
    for (size_t k = 0; k < keys.size(); ++k) clusters[k] = leaf_of(keys[k]);
    build_ploc(binary, std::move(clusters), ploc_radius);
  }
  BvhTree tree;
  Collapse(binary, tree).add(binary.root, 0);
  return tree;
}

BvhTree build_runtime_tree(const Mesh& mesh, BvhBuilder builder, uint32_t ploc_radius) {
  std::vector<Aabb> boxes(mesh.triangle_count(), empty_box());
  bool any = false;
  for (uint32_t i = 0; i < mesh.triangle_count(); ++i)
    if (!is_degenerate(mesh, i)) {
      boxes[i] = triangle_bounds(mesh, i);
      any = true;
    }
  if (!any) throw SceneError(fmt::format("{}: no usable triangle (all degenerate)", mesh.name));
  return build_runtime_tree_of_boxes(boxes, builder, ploc_radius, mesh.name);
}

}  // namespace td::scene

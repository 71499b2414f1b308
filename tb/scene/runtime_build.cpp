#include "tb/scene/runtime_build.h"

#include <fmt/format.h>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "model/sim/worker_pool.h"
#include "tb/scene/scene_error.h"

namespace td::scene {

namespace {

// The builders' loops, cut into chunks of a fixed number of items whatever
// the thread count. A chunk writes only its own items' results (and its
// own slot of a per-chunk array), and what it computes depends on its
// items and the loop's input only: so the tree is the same for any number
// of threads. The threads start with the first loop of two or more chunks.
class ChunkedLoops {
 public:
  explicit ChunkedLoops(unsigned threads) : threads_(std::max(1u, threads)) {}

  static size_t chunks(size_t count, size_t chunk_size) { return (count + chunk_size - 1) / chunk_size; }

  // body(begin, end, chunk) for each chunk [begin, end) of [0, count).
  template <typename Body>
  void run(size_t count, size_t chunk_size, const Body& body) {
    const size_t n = chunks(count, chunk_size);
    auto task = [&](size_t c) { body(c * chunk_size, std::min(count, (c + 1) * chunk_size), c); };
    if (threads_ == 1 || n < 2) {
      for (size_t c = 0; c < n; ++c) task(c);
      return;
    }
    if (!pool_) pool_ = std::make_unique<sim::WorkerPool>(threads_);
    pool_->run(n, task);
  }

 private:
  unsigned threads_;
  std::unique_ptr<sim::WorkerPool> pool_;
};

// Exclusive prefix sums of per-chunk counts, in place; returns the total.
uint32_t exclusive_scan(std::vector<uint32_t>& counts) {
  uint32_t total = 0;
  for (uint32_t& c : counts) total += std::exchange(c, total);
  return total;
}

// Host speed: huge pages for the builds' big arrays. Linux takes a page
// fault on the first touch of every 4 KB page, a large share of a big
// build's time (the commit that added this measured it). With transparent
// huge pages in `madvise` mode (Debian's default) a region advised
// MADV_HUGEPAGE gets 2 MB pages, 512 times fewer faults. Advice only: where
// the kernel does not take it, nothing but the speed changes. It relies on
// the storage being fresh (not touched yet), so it takes an empty vector.
template <typename T>
void reserve_on_huge_pages(std::vector<T>& v, size_t count) {
  assert(v.empty() && v.capacity() == 0);
  v.reserve(count);
#ifdef __linux__
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<uintptr_t>(v.data()), end = begin + count * sizeof(T);
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1), last = end & ~(kHugePage - 1);
  if (first < last) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}
template <typename T>
void resize_on_huge_pages(std::vector<T>& v, size_t count) {
  reserve_on_huge_pages(v, count);
  v.resize(count);
}

// A binary tree over the input boxes. A child is a leaf (kLeaf | the input
// box's index) or an inner node (its index); n leaves have n - 1 inner nodes.
constexpr uint32_t kLeaf = 1u << 31;

struct InnerNode {
  Aabb box;
  uint32_t left, right;
};

struct BinaryTree {
  explicit BinaryTree(const std::vector<Aabb>& boxes) : leaf_boxes(boxes) {}
  const Aabb& box(uint32_t child) const { return child & kLeaf ? leaf_boxes[child & ~kLeaf] : inner[child].box; }

  const std::vector<Aabb>& leaf_boxes;
  std::vector<InnerNode> inner;
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

double centre(const Aabb& box, int axis) { return 0.5 * box.min[axis] + 0.5 * box.max[axis]; }

// One pass of a least-significant-digit radix sort: `in` into `out` by the
// 10-bit digit at `shift`, stable. Each chunk counts its digits, then
// writes its keys where the chunks before it and the smaller digits end.
void radix_pass(ChunkedLoops& loops, const std::vector<uint64_t>& in, std::vector<uint64_t>& out, int shift) {
  constexpr size_t kChunk = 1 << 16, kDigits = 1 << 10;
  const size_t chunks = ChunkedLoops::chunks(in.size(), kChunk);
  std::vector<uint32_t> start(chunks * kDigits, 0);  // [digit * chunks + chunk]
  const auto digit = [shift](uint64_t key) { return (key >> shift) & (kDigits - 1); };
  loops.run(in.size(), kChunk, [&](size_t begin, size_t end, size_t c) {
    std::array<uint32_t, kDigits> count{};
    for (size_t k = begin; k < end; ++k) ++count[digit(in[k])];
    for (size_t d = 0; d < kDigits; ++d) start[d * chunks + c] = count[d];
  });
  exclusive_scan(start);
  loops.run(in.size(), kChunk, [&](size_t begin, size_t end, size_t c) {
    std::array<uint32_t, kDigits> next;
    for (size_t d = 0; d < kDigits; ++d) next[d] = start[d * chunks + c];
    for (size_t k = begin; k < end; ++k) out[next[digit(in[k])]++] = in[k];
  });
}

// The usable boxes (min <= max) as sorted keys: the 30-bit Morton code of
// the box's centre within the centres' bounds, then the box's index (so
// every key is unique: ties in input order).
std::vector<uint64_t> sorted_morton_keys(ChunkedLoops& loops, const std::vector<Aabb>& boxes, const std::string& name) {
  constexpr size_t kChunk = 1 << 14;
  const auto usable = [&](size_t i) { return boxes[i].min[0] <= boxes[i].max[0]; };
  struct Chunk {
    uint32_t usable;
    std::array<double, 3> lo, hi;  // of the centres
  };
  std::vector<Chunk> chunks(ChunkedLoops::chunks(boxes.size(), kChunk));
  // (A throw names the chunk's first bad box; the pool passes on the
  // lowest chunk's, so the first bad box of all, for any thread count.)
  loops.run(boxes.size(), kChunk, [&](size_t begin, size_t end, size_t c) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    Chunk chunk{0, {kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
    for (size_t i = begin; i < end; ++i) {
      if (!usable(i)) continue;
      ++chunk.usable;
      for (int a = 0; a < 3; ++a) {
        // (An infinite coordinate would make every union's area infinite: no
        // cluster would find a nearest neighbour, and Morton codes need a centre.)
        if (!std::isfinite(boxes[i].min[a]) || !std::isfinite(boxes[i].max[a]))
          throw SceneError(fmt::format("{}: leaf {} has a box past binary32's range", name, i));
        chunk.lo[a] = std::min(chunk.lo[a], centre(boxes[i], a));
        chunk.hi[a] = std::max(chunk.hi[a], centre(boxes[i], a));
      }
    }
    chunks[c] = chunk;
  });
  std::vector<uint32_t> start(chunks.size());
  Chunk all = chunks[0];
  for (size_t c = 0; c < chunks.size(); ++c) {
    start[c] = chunks[c].usable;
    for (int a = 0; a < 3; ++a) {
      all.lo[a] = std::min(all.lo[a], chunks[c].lo[a]);
      all.hi[a] = std::max(all.hi[a], chunks[c].hi[a]);
    }
  }
  const uint32_t n = exclusive_scan(start);
  if (n == 0) throw SceneError(fmt::format("{}: nothing to build a BVH over", name));
  std::vector<uint64_t> keys, spare;
  resize_on_huge_pages(keys, n);
  resize_on_huge_pages(spare, n);
  loops.run(boxes.size(), kChunk, [&](size_t begin, size_t end, size_t c) {
    uint32_t out = start[c];
    for (size_t i = begin; i < end; ++i) {
      if (!usable(i)) continue;
      uint32_t code = 0;
      for (int a = 0; a < 3; ++a) {
        const double extent = all.hi[a] - all.lo[a];
        const double unit = extent > 0 ? (centre(boxes[i], a) - all.lo[a]) / extent : 0.0;
        code |= spread_bits(static_cast<uint32_t>(std::clamp(unit * 1024.0, 0.0, 1023.0))) << (2 - a);
      }
      keys[out++] = uint64_t{code} << 32 | i;
    }
  });
  // The keys start in order of their low half: sorting the 30-bit code
  // stably (three 10-bit digits) sorts the whole key.
  for (int shift : {32, 42, 52}) {
    radix_pass(loops, keys, spare, shift);
    std::swap(keys, spare);
  }
  return keys;
}

uint32_t leaf_of(uint64_t key) { return kLeaf | static_cast<uint32_t>(key & 0xffffffffu); }

// LBVH: the radix tree over the sorted keys, split where the highest bit
// differing within a range turns on. Inner nodes numbered as Karras's
// per-node construction does: the root is inner node 0, a left child
// inner node (its range's last key), a right child (its range's first),
// which numbers every inner node once whatever order they are built in.
// So subtrees are built in parallel: the top levels first, one thread,
// down to ranges of kSubtreeKeys or fewer, then those ranges over the
// threads, then the top levels' boxes.
class Lbvh {
 public:
  Lbvh(BinaryTree& tree, const std::vector<uint64_t>& keys) : tree_(tree), keys_(keys) {}

  void build(ChunkedLoops& loops) {
    const auto last = static_cast<uint32_t>(keys_.size() - 1);
    tree_.root = child(Range{0, last, 0});
    std::vector<Range> subtrees, top;
    plan(Range{0, last, 0}, subtrees, top);
    loops.run(subtrees.size(), 1, [&](size_t begin, size_t end, size_t) {
      for (size_t s = begin; s < end; ++s) build_subtree(subtrees[s]);
    });
    for (auto range = top.rbegin(); range != top.rend(); ++range) set_box(*range);  // children first
  }

 private:
  struct Range {
    uint32_t first, last;  // sorted key positions, inclusive
    uint32_t inner;        // its inner node, when first < last
  };
  static constexpr uint32_t kSubtreeKeys = 1 << 14;

  uint32_t child(const Range& r) const { return r.first == r.last ? leaf_of(keys_[r.first]) : r.inner; }
  // The range's two halves, its inner node's children set.
  std::array<Range, 2> split(const Range& r) {
    const int bit = 63 - __builtin_clzll(keys_[r.first] ^ keys_[r.last]);
    // The first key in range with that bit set (the keys are sorted, and
    // agree on every higher bit).
    uint32_t lo = r.first, hi = r.last;
    while (lo + 1 < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if ((keys_[mid] >> bit) & 1u)
        hi = mid;
      else
        lo = mid;
    }
    const Range left{r.first, hi - 1, hi - 1}, right{hi, r.last, hi};
    InnerNode& node = tree_.inner[r.inner];
    node.left = child(left);
    node.right = child(right);
    return {left, right};
  }
  void set_box(const Range& r) {
    InnerNode& node = tree_.inner[r.inner];
    node.box = merge(tree_.box(node.left), tree_.box(node.right));
  }
  void plan(const Range& r, std::vector<Range>& subtrees, std::vector<Range>& top) {
    if (r.first == r.last) return;
    if (r.last - r.first < kSubtreeKeys) {
      subtrees.push_back(r);
      return;
    }
    top.push_back(r);
    for (const Range& half : split(r)) plan(half, subtrees, top);
  }
  void build_subtree(const Range& r) {
    if (r.first == r.last) return;
    for (const Range& half : split(r)) build_subtree(half);
    set_box(r);
  }

  BinaryTree& tree_;
  const std::vector<uint64_t>& keys_;
};

// PLOC: clusters in Morton order; each finds, within `radius` positions on
// either side, the cluster whose union with it has the least surface area
// (ties: the nearer, then the earlier); mutual nearest neighbours merge
// into the earlier one's place; until one is left. (Some pair is always
// mutual: take, among the pairs of least area, those nearest together,
// and of those the first; each of its two clusters picks the other.)
class Ploc {
 public:
  Ploc(BinaryTree& tree, uint32_t radius) : tree_(tree), radius_(radius) {}

  void build(ChunkedLoops& loops, const std::vector<uint64_t>& keys) {
    Clusters clusters(keys.size()), next(keys.size());
    clusters.size = keys.size();
    loops.run(keys.size(), kMergeChunk, [&](size_t begin, size_t end, size_t) {
      for (size_t k = begin; k < end; ++k) clusters.set(k, leaf_of(keys[k]), tree_.box(leaf_of(keys[k])));
    });
    std::vector<uint32_t> nearest(keys.size());
    uint32_t made = 0;  // inner nodes
    while (clusters.size > 1) {
      loops.run(clusters.size, kSearchChunk, [&](size_t begin, size_t end, size_t) {
        find_nearest(clusters, begin, end, nearest);
      });
      made += merge_pairs(loops, clusters, nearest, made, next);
      std::swap(clusters, next);
    }
    tree_.root = clusters.node[0];
  }

 private:
  static constexpr size_t kSearchChunk = 1024, kMergeChunk = 1 << 14;

  // The clusters in order: their nodes and boxes, one array per bound (so
  // the search's loops run over consecutive floats).
  struct Clusters {
    explicit Clusters(size_t most) : capacity(most) {
      resize_on_huge_pages(node, most);
      resize_on_huge_pages(bounds, 6 * most);
    }
    float* lo(int axis) { return bounds.data() + axis * capacity; }
    float* hi(int axis) { return bounds.data() + (3 + axis) * capacity; }
    const float* lo(int axis) const { return bounds.data() + axis * capacity; }
    const float* hi(int axis) const { return bounds.data() + (3 + axis) * capacity; }
    void set(size_t k, uint32_t n, const Aabb& box) {
      node[k] = n;
      for (int a = 0; a < 3; ++a) {
        lo(a)[k] = box.min[a];
        hi(a)[k] = box.max[a];
      }
    }
    size_t capacity, size = 0;  // clusters in use: [0, size)
    std::vector<uint32_t> node;
    std::vector<float> bounds;  // lo x, y, z, hi x, y, z: `capacity` each
  };

  // nearest[i] for i in [begin, end): for each distance d, the areas of the
  // pairs (j, j + d) starting in [begin - d, end) once, each read as the
  // right-hand pair of j and the left-hand pair of j + d. The area is half
  // surface_area(merge(...)), in double as it (doubled, it is that exactly).
  void find_nearest(const Clusters& c, size_t begin, size_t end, std::vector<uint32_t>& nearest) const {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const size_t len = end - begin;
    const float *lo_x = c.lo(0), *lo_y = c.lo(1), *lo_z = c.lo(2), *hi_x = c.hi(0), *hi_y = c.hi(1), *hi_z = c.hi(2);
    std::array<double, kSearchChunk> best;
    std::array<int64_t, kSearchChunk> best_j;    // (as wide as a double: the update loop vectorises)
    std::array<double, kSearchChunk + 64> area;  // area[k]: pair (begin - d + k, begin + k)
    for (size_t k = 0; k < len; ++k) {
      best[k] = kInf;
      best_j[k] = static_cast<int64_t>(begin + k);
    }
    for (size_t d = 1; d <= radius_; ++d) {
      // Pairs whose both clusters exist: begin - d + k >= 0, begin + k < size.
      const size_t k_lo = d > begin ? d - begin : 0, k_hi = std::min(len + d, c.size - begin);
      for (size_t k = 0; k < len + d; ++k) area[k] = kInf;
      for (size_t k = k_lo; k < k_hi; ++k) {
        const size_t i = begin - d + k, j = begin + k;
        const double dx = static_cast<double>(std::max(hi_x[i], hi_x[j])) - std::min(lo_x[i], lo_x[j]);
        const double dy = static_cast<double>(std::max(hi_y[i], hi_y[j])) - std::min(lo_y[i], lo_y[j]);
        const double dz = static_cast<double>(std::max(hi_z[i], hi_z[j])) - std::min(lo_z[i], lo_z[j]);
        area[k] = dx * dy + dy * dz + dz * dx;
      }
      const auto left_j = static_cast<int64_t>(begin - d), right_j = static_cast<int64_t>(begin + d);
      for (size_t k = 0; k < len; ++k) {  // nearer first on each side: left then right
        const double left = area[k], right = area[k + d];
        const bool take_left = left < best[k];
        best_j[k] = take_left ? left_j + static_cast<int64_t>(k) : best_j[k];
        best[k] = take_left ? left : best[k];
        const bool take_right = right < best[k];
        best_j[k] = take_right ? right_j + static_cast<int64_t>(k) : best_j[k];
        best[k] = take_right ? right : best[k];
      }
    }
    for (size_t k = 0; k < len; ++k) nearest[begin + k] = static_cast<uint32_t>(best_j[k]);
  }

  // The next round's clusters: each mutual pair merged into a new inner
  // node (numbered after the `made` so far, in cluster order) in the
  // earlier one's place, the rest as they were. Returns the pairs merged.
  uint32_t merge_pairs(ChunkedLoops& loops, const Clusters& c, const std::vector<uint32_t>& nearest, uint32_t made,
                       Clusters& next) {
    const auto mutual = [&](size_t i) { return nearest[i] != i && nearest[nearest[i]] == i; };
    const size_t chunks = ChunkedLoops::chunks(c.size, kMergeChunk);
    std::vector<uint32_t> kept(chunks), merged(chunks);  // per chunk, then where each chunk's start
    loops.run(c.size, kMergeChunk, [&](size_t begin, size_t end, size_t chunk) {
      uint32_t keeps = 0, merges = 0;
      for (size_t i = begin; i < end; ++i) {
        const bool pair = mutual(i);
        keeps += !pair || i < nearest[i];
        merges += pair && i < nearest[i];
      }
      kept[chunk] = keeps;
      merged[chunk] = merges;
    });
    next.size = exclusive_scan(kept);
    const uint32_t merges = exclusive_scan(merged);
    loops.run(c.size, kMergeChunk, [&](size_t begin, size_t end, size_t chunk) {
      uint32_t out = kept[chunk], inner = made + merged[chunk];
      for (size_t i = begin; i < end; ++i) {
        const size_t j = nearest[i];
        if (!mutual(i)) {
          next.node[out] = c.node[i];
          for (int a = 0; a < 3; ++a) {
            next.lo(a)[out] = c.lo(a)[i];
            next.hi(a)[out] = c.hi(a)[i];
          }
          ++out;
        } else if (i < j) {
          InnerNode& node = tree_.inner[inner];
          for (int a = 0; a < 3; ++a) {
            node.box.min[a] = std::min(c.lo(a)[i], c.lo(a)[j]);
            node.box.max[a] = std::max(c.hi(a)[i], c.hi(a)[j]);
          }
          node.left = c.node[i];
          node.right = c.node[j];
          next.set(out++, inner++, node.box);
        }
      }
    });
    return merges;
  }

  BinaryTree& tree_;
  uint32_t radius_;
};

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
    if (node & kLeaf) {
      children[count++] = node;
    } else {
      children[count++] = binary_.inner[node].left;
      children[count++] = binary_.inner[node].right;
    }
    while (count < 4) {
      size_t widest = count;
      double widest_area = -1;
      for (size_t k = 0; k < count; ++k) {
        if (children[k] & kLeaf) continue;
        const double area = surface_area(binary_.inner[children[k]].box);
        if (area > widest_area) {
          widest_area = area;
          widest = k;
        }
      }
      if (widest == count) break;  // only leaves left
      const InnerNode& open = binary_.inner[children[widest]];
      for (size_t k = count; k > widest + 1; --k) children[k] = children[k - 1];
      children[widest] = open.left;
      children[widest + 1] = open.right;
      ++count;
    }
    for (size_t k = 0; k < count; ++k) {
      BvhSlot slot;
      slot.bounds = binary_.box(children[k]);
      if (children[k] & kLeaf) {
        slot.is_triangle = true;
        slot.index = children[k] & ~kLeaf;
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
                                    const std::string& name, unsigned threads) {
  if (builder == BvhBuilder::kSah) throw std::invalid_argument("runtime builders: sah is Embree's (embree_build.h)");
  if (ploc_radius < 1 || ploc_radius > 64) throw std::invalid_argument("runtime builders: ploc_radius must be 1..64");
  if (boxes.size() >= kLeaf) throw SceneError(fmt::format("{}: {} leaves, 2^31 or more", name, boxes.size()));
  ChunkedLoops loops(threads);
  BinaryTree binary(boxes);
  const std::vector<uint64_t> keys = sorted_morton_keys(loops, boxes, name);
  resize_on_huge_pages(binary.inner, keys.size() - 1);
  if (builder == BvhBuilder::kLbvh)
    Lbvh(binary, keys).build(loops);
  else
    Ploc(binary, ploc_radius).build(loops, keys);
  BvhTree tree;
  // (At most one node per leaf: every node but the root has two or more children.)
  reserve_on_huge_pages(tree.nodes, keys.size());
  Collapse(binary, tree).add(binary.root, 0);
  return tree;
}

BvhTree build_runtime_tree(const Mesh& mesh, BvhBuilder builder, uint32_t ploc_radius, unsigned threads) {
  constexpr size_t kChunk = 1 << 14;
  std::vector<Aabb> boxes;
  resize_on_huge_pages(boxes, mesh.triangle_count());
  ChunkedLoops loops(threads);
  std::vector<uint32_t> usable(ChunkedLoops::chunks(boxes.size(), kChunk));
  loops.run(boxes.size(), kChunk, [&](size_t begin, size_t end, size_t c) {
    uint32_t count = 0;
    for (size_t i = begin; i < end; ++i) {
      const bool ok = !is_degenerate(mesh, static_cast<uint32_t>(i));
      boxes[i] = ok ? triangle_bounds(mesh, static_cast<uint32_t>(i)) : empty_box();
      count += ok;
    }
    usable[c] = count;
  });
  if (exclusive_scan(usable) == 0)
    throw SceneError(fmt::format("{}: no usable triangle (all degenerate)", mesh.name));
  return build_runtime_tree_of_boxes(boxes, builder, ploc_radius, mesh.name, threads);
}

}  // namespace td::scene

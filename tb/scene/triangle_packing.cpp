#include "tb/scene/triangle_packing.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "model/isa/fp32.h"

namespace td::scene {

namespace {

// Vertices are shared by bit pattern, not by index: files repeat positions
// under several indices, and only identical bits keep the stored node equal
// to the mesh triangle.
struct PositionKey {
  uint32_t x, y, z;
  bool operator==(const PositionKey& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct PositionKeyHash {
  size_t operator()(const PositionKey& k) const {
    uint64_t h = k.x * 0x9e3779b97f4a7c15u;
    h ^= (h >> 29) + k.y * 0xbf58476d1ce4e5b9u;
    h ^= (h >> 31) + k.z * 0x94d049bb133111ebu;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

// A triangle seen from one of its corners: (x, y, c) is a rotation of the
// mesh order with c = corner `centre`, x and y the corners after it.
struct FanView {
  uint32_t x, y, c;  // weld ids
};

FanView view_from(const std::array<uint32_t, 3>& weld, int centre) {
  return FanView{weld[(centre + 1) % 3], weld[(centre + 2) % 3], weld[centre]};
}

constexpr uint32_t kUnknown = 0xffffffffu;

// Slot k of a node spans rim edge (R[k], R[k+1]) about the centre V2, with
// rim R = (V0, V1, V3, V4).
constexpr std::array<int, 4> kRimVertex = {0, 1, 3, 4};

struct Placement {
  uint32_t position = 0;  // index into `order`
  int centre = 0;         // the mesh corner placed at V2
};

class Packer {
 public:
  Packer(const Mesh& mesh, const std::vector<uint32_t>& order, TrianglePacking packing,
         const std::vector<uint32_t>* group_end = nullptr)
      : mesh_(mesh), order_(order), packing_(packing), packed_(order.size(), false), group_end_(group_end) {
    weld_.reserve(order.size());
    std::unordered_map<PositionKey, uint32_t, PositionKeyHash> ids;
    for (uint32_t primitive : order) {
      std::array<uint32_t, 3> w{};
      for (int corner = 0; corner < 3; ++corner) {
        const Vec3& p = mesh.vertex(primitive, corner);
        const PositionKey key{bits_of(p[0]), bits_of(p[1]), bits_of(p[2])};
        w[corner] = ids.emplace(key, static_cast<uint32_t>(ids.size())).first->second;
      }
      weld_.push_back(w);
    }
  }

  TrianglePack run() {
    TrianglePack pack;
    pack.location.assign(mesh_.triangle_count(), TriangleLocation{});
    pack.by_position.assign(order_.size(), TriangleLocation{});
    for (uint32_t pos = 0; pos < order_.size(); ++pos) {
      if (packed_[pos]) continue;
      const std::array<std::optional<Placement>, 4> slots = best_fan(pos);
      pack.nodes.push_back(make_node(slots));
      const auto node_index = static_cast<uint32_t>(pack.nodes.size() - 1);
      for (uint32_t slot = 0; slot < 4; ++slot) {
        if (!slots[slot]) continue;
        packed_[slots[slot]->position] = true;
        pack.location[order_[slots[slot]->position]] = TriangleLocation{node_index, slot};
        pack.by_position[slots[slot]->position] = TriangleLocation{node_index, slot};
      }
    }
    return pack;
  }

 private:
  // The fullest fan the seed at `pos` can start, over its three corners as
  // centre (ties: the lower corner).
  std::array<std::optional<Placement>, 4> best_fan(uint32_t pos) const {
    std::array<std::optional<Placement>, 4> best{};
    best[0] = Placement{pos, 2};  // single: mesh order (P0, P1, P2) as (V0, V1, V2)
    if (packing_ == TrianglePacking::kSingle) return best;
    int best_count = 1;
    for (int centre = 0; centre < 3; ++centre) {
      const auto fan = grow_fan(pos, centre);
      int count = 0;
      for (const auto& slot : fan) count += slot ? 1 : 0;
      if (count > best_count) {
        best = fan;
        best_count = count;
      }
    }
    return best;
  }

  std::array<std::optional<Placement>, 4> grow_fan(uint32_t pos, int centre) const {
    std::array<std::optional<Placement>, 4> fan{};
    fan[0] = Placement{pos, centre};
    const FanView seed = view_from(weld_[pos], centre);
    std::array<uint32_t, 4> rim = {seed.x, seed.y, kUnknown, kUnknown};
    const uint32_t c = seed.c;
    // Slot 1 shares edge (V1, V2) with slot 0.
    if (auto p = find_partner(pos, fan, c, rim[1], kUnknown)) {
      fan[1] = p;
      rim[2] = view_from(weld_[p->position], p->centre).y;
    }
    if (packing_ == TrianglePacking::kStrips) {
      // Slot 3 shares edge (V0, V2) with slot 0.
      if (auto p = find_partner(pos, fan, c, kUnknown, rim[0])) {
        fan[3] = p;
        rim[3] = view_from(weld_[p->position], p->centre).x;
      }
      // Slot 2 shares edge (V3, V2) with slot 1 or (V4, V2) with slot 3.
      if (rim[2] != kUnknown || rim[3] != kUnknown) {
        if (auto p = find_partner(pos, fan, c, rim[2], rim[3])) fan[2] = p;
      }
    }
    return fan;
  }

  // First triangle after `seed` in the window, not packed nor in `fan`,
  // that has a rotation (x, y, c) matching the wanted x and y (kUnknown:
  // any).
  std::optional<Placement> find_partner(uint32_t seed, const std::array<std::optional<Placement>, 4>& fan,
                                        uint32_t c, uint32_t want_x, uint32_t want_y) const {
    const size_t end = std::min<size_t>(group_end_ ? (*group_end_)[seed] : order_.size(), seed + 1 + kPackingWindow);
    for (size_t pos = seed + 1; pos < end; ++pos) {
      if (packed_[pos] || in_fan(fan, pos)) continue;
      for (int centre = 0; centre < 3; ++centre) {
        const FanView v = view_from(weld_[pos], centre);
        if (v.c != c) continue;
        if (want_x != kUnknown && v.x != want_x) continue;
        if (want_y != kUnknown && v.y != want_y) continue;
        return Placement{static_cast<uint32_t>(pos), centre};
      }
    }
    return std::nullopt;
  }

  static bool in_fan(const std::array<std::optional<Placement>, 4>& fan, size_t pos) {
    for (const auto& slot : fan)
      if (slot && slot->position == pos) return true;
    return false;
  }

  PackedTriangleNode make_node(const std::array<std::optional<Placement>, 4>& slots) const {
    PackedTriangleNode node;
    // The centre V2 and the rim from whichever slots are filled; a rim
    // vertex no slot uses keeps a copy of V2 (its bytes are never read).
    const Placement& first = *slots[0];
    const uint32_t seed_primitive = order_[first.position];
    const Vec3& centre = mesh_.vertex(seed_primitive, first.centre);
    node.vertex.fill(centre);
    for (uint32_t slot = 0; slot < 4; ++slot) {
      if (!slots[slot]) continue;
      const uint32_t primitive = order_[slots[slot]->position];
      const int c = slots[slot]->centre;
      const int x = (c + 1) % 3, y = (c + 2) % 3;
      node.vertex[kRimVertex[slot]] = mesh_.vertex(primitive, x);
      node.vertex[kRimVertex[(slot + 1) % 4]] = mesh_.vertex(primitive, y);
      // Hardware order: slots 0, 1 are (x, y, c); slots 2, 3 are (c, x, y).
      const int at_a = slot < 2 ? x : c;
      node.corner_at_a[slot] = static_cast<uint8_t>(at_a);
      node.primitive[slot] = primitive;
      ++node.triangle_count;
      // Remap: hardware index (0..2) of mesh corners P1 (I) and P2 (J).
      const auto hardware_index = [&](int corner) { return static_cast<uint32_t>((corner - at_a + 3) % 3); };
      const uint32_t i_src = hardware_index(1), j_src = hardware_index(2);
      node.remap_bits |= (i_src | j_src << 2) << (8 * slot);
    }
    return node;
  }

  const Mesh& mesh_;
  const std::vector<uint32_t>& order_;
  TrianglePacking packing_;
  std::vector<std::array<uint32_t, 3>> weld_;  // by position in order_
  std::vector<bool> packed_;                   // by position in order_
  const std::vector<uint32_t>* group_end_;     // by position in order_; nullptr: one group
};

}  // namespace

TrianglePack pack_triangles(const Mesh& mesh, const std::vector<uint32_t>& order, TrianglePacking packing) {
  return Packer(mesh, order, packing).run();
}

TrianglePack pack_triangles_grouped(const Mesh& mesh, const std::vector<uint32_t>& order,
                                    const std::vector<uint32_t>& group_end, TrianglePacking packing) {
  if (group_end.size() != order.size()) throw std::invalid_argument("pack_triangles_grouped: a group end per position");
  for (size_t pos = 0; pos < group_end.size(); ++pos)
    if (group_end[pos] <= pos || group_end[pos] > order.size() || (pos > 0 && group_end[pos] < group_end[pos - 1]))
      throw std::invalid_argument("pack_triangles_grouped: groups must be consecutive runs");
  return Packer(mesh, order, packing, &group_end).run();
}

}  // namespace td::scene

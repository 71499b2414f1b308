// triangle_packing.h — puts triangles into 64-byte triangle nodes (five
// vertices V0..V4, four triangles: t0 (V0,V1,V2), t1 (V1,V3,V2),
// t2 (V2,V3,V4), t3 (V2,V4,V0), contract §7).
//
// The four triangles of a node are a fan about V2 whose rim is the cycle
// V0, V1, V3, V4: triangle k spans rim edge k, so neighbours k and k+1 share
// an edge with V2, and every triangle holds V2. A mesh triangle goes into a
// slot in one of its three rotations, never mirrored, so its winding (the
// sign of det) is kept; the node's remap bits (return mode 1) name which
// hardware vertex holds the triangle's own P1 (I) and P2 (J), so the
// returned barycentrics refer to the mesh triangle's vertex order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/isa/node.h"
#include "tb/scene/bvh_options.h"
#include "tb/scene/mesh.h"

namespace td::scene {

constexpr uint32_t kNoPrimitive = 0xffffffffu;

struct PackedTriangleNode {
  std::array<Vec3, 5> vertex{};
  std::array<uint32_t, 4> primitive{kNoPrimitive, kNoPrimitive, kNoPrimitive, kNoPrimitive};
  // Mesh corner (0..2) at hardware vertex A of each used slot; B and C are
  // the next corners cyclically (a rotation, never a mirror).
  std::array<uint8_t, 4> corner_at_a{};
  uint32_t remap_bits = 0;  // the node id for return mode 1: (I_SRC | J_SRC << 2) << 8t per used slot t
  uint32_t triangle_count = 0;

  // Mesh corners (0..2) at hardware A, B, C of `slot`.
  std::array<int, 3> hardware_corners(uint32_t slot) const {
    const int a = corner_at_a[slot];
    return {a, (a + 1) % 3, (a + 2) % 3};
  }
};

struct TriangleLocation {
  uint32_t node = kNoPrimitive;  // index into TrianglePack::nodes
  uint32_t slot = 0;             // 0..3: the node pointer's type
};

struct TrianglePack {
  std::vector<PackedTriangleNode> nodes;
  std::vector<TriangleLocation> location;     // by mesh primitive; node == kNoPrimitive: not packed
  std::vector<TriangleLocation> by_position;  // by position in the order packed
};

// How far ahead of a node's first triangle, in `order`, the packer looks for
// partners: triangles close in BVH order sit in nearby boxes, so a node's
// triangles are usually fetched by the same few box nodes.
constexpr size_t kPackingWindow = 32;

// Packs each primitive of `order` (distinct indices; BVH leaf order) once.
// single: one triangle per node. pairs: a second triangle sharing an edge.
// strips: up to four, each sharing an edge with one already in the node.
// Vertices are shared only when bit-identical, so every stored coordinate
// is the mesh's own. Greedy and deterministic: first triangle of `order`
// not yet packed, the centre vertex giving the most partners, first
// partners in `order`.
TrianglePack pack_triangles(const Mesh& mesh, const std::vector<uint32_t>& order, TrianglePacking packing);

// The same, partners only within a group: `group_end[pos]` is the end (one
// past) of the group holding position `pos` of `order`, whose groups are
// consecutive runs. A primitive may appear in several groups and is then
// packed once in each (`location` names its last; `by_position` each).
// A BVH whose box nodes each get their own triangle nodes has one parent
// per triangle node (its parent link, encoded_bvh.h).
TrianglePack pack_triangles_grouped(const Mesh& mesh, const std::vector<uint32_t>& order,
                                    const std::vector<uint32_t>& group_end, TrianglePacking packing);

}  // namespace td::scene

// node.h — node pointers and the three hardware node layouts (FP16 box,
// FP32 box, triangle), decoded from and encoded to their little-endian bytes.
#pragma once

#include <array>
#include <cstdint>

namespace td {

enum class NodeType : uint8_t {
  kTriangle0 = 0,
  kTriangle1 = 1,
  kTriangle2 = 2,
  kTriangle3 = 3,
  kBox16 = 4,
  kBox32 = 5,
  kReserved6 = 6,
  kReserved7 = 7,
};

constexpr uint32_t kNodeUnitBytes = 64;
constexpr uint32_t kMaxNodeBytes = 128;
constexpr uint32_t kInvalidChild = 0xffffffffu;

inline bool is_triangle(NodeType type) { return static_cast<uint8_t>(type) <= 3; }
inline bool is_box(NodeType type) { return type == NodeType::kBox16 || type == NodeType::kBox32; }
inline bool is_reserved(NodeType type) { return static_cast<uint8_t>(type) >= 6; }

// Number of 64-byte units a node of this type covers.
inline uint32_t node_units(NodeType type) { return type == NodeType::kBox32 ? 2 : 1; }
inline uint32_t node_bytes(NodeType type) { return node_units(type) * kNodeUnitBytes; }

// A node pointer as the instruction receives it: 32 bits for
// image_bvh_intersect_ray (upper half ignored), 64 for the bvh64 form.
struct NodePtr {
  uint64_t raw = 0;
  bool is_64bit = false;

  NodeType type() const { return static_cast<NodeType>(raw & 7u); }
  // 29-bit (32-bit form) or 61-bit (64-bit form) index of 64-byte units.
  uint64_t unit() const { return (is_64bit ? raw : (raw & 0xffffffffu)) >> 3; }

  static NodePtr make(uint64_t unit, NodeType type, bool is_64bit = false) {
    return NodePtr{(unit << 3) | static_cast<uint64_t>(type), is_64bit};
  }
};

using Vec3 = std::array<float, 3>;

struct Aabb {
  Vec3 min{};
  Vec3 max{};
};

// Box node, FP16 or FP32: children and boxes widened to binary32.
struct BoxNode {
  std::array<uint32_t, 4> child{};
  std::array<Aabb, 4> box{};
};

struct TriangleNode {
  std::array<Vec3, 5> vertex{};
  uint32_t id = 0;
};

using NodeBytes = std::array<uint8_t, kMaxNodeBytes>;

BoxNode decode_box16(const uint8_t* bytes);  // 64 bytes
BoxNode decode_box32(const uint8_t* bytes);  // 128 bytes
TriangleNode decode_triangle(const uint8_t* bytes);  // 64 bytes

// Encoders for node builders and vector generators. encode_box16 rounds each
// min down and each max up so the stored box contains the given one.
void encode_box16(const BoxNode& node, uint8_t* bytes);
void encode_box32(const BoxNode& node, uint8_t* bytes);
void encode_triangle(const TriangleNode& node, uint8_t* bytes);

// Vertex indices (A, B, C) of triangle t (0..3) within a triangle node.
std::array<int, 3> triangle_vertices(uint32_t t);

}  // namespace td

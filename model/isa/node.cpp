#include "model/isa/node.h"

#include <cstring>

#include "model/isa/fp32.h"
#include "model/isa/half.h"

namespace td {

namespace {

uint32_t load_u32(const uint8_t* bytes) {
  return static_cast<uint32_t>(bytes[0]) | static_cast<uint32_t>(bytes[1]) << 8 |
         static_cast<uint32_t>(bytes[2]) << 16 | static_cast<uint32_t>(bytes[3]) << 24;
}

uint16_t load_u16(const uint8_t* bytes) {
  return static_cast<uint16_t>(bytes[0] | bytes[1] << 8);
}

void store_u32(uint8_t* bytes, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
}

void store_u16(uint8_t* bytes, uint16_t value) {
  bytes[0] = static_cast<uint8_t>(value);
  bytes[1] = static_cast<uint8_t>(value >> 8);
}

float load_f32(const uint8_t* bytes) { return float_of(load_u32(bytes)); }

void load_children(const uint8_t* bytes, BoxNode& node) {
  for (int i = 0; i < 4; ++i) node.child[i] = load_u32(bytes + 4 * i);
}

void store_children(const BoxNode& node, uint8_t* bytes) {
  for (int i = 0; i < 4; ++i) store_u32(bytes + 4 * i, node.child[i]);
}

}  // namespace

BoxNode decode_box16(const uint8_t* bytes) {
  BoxNode node;
  load_children(bytes, node);
  // 24 halves in a row (per box: min.xyz, max.xyz): widen them in one loop.
  float widened[24];
  for (int k = 0; k < 24; ++k) widened[k] = half_to_float(load_u16(bytes + 16 + 2 * k));
  for (int i = 0; i < 4; ++i) {
    for (int a = 0; a < 3; ++a) {
      node.box[i].min[a] = widened[6 * i + a];
      node.box[i].max[a] = widened[6 * i + 3 + a];
    }
  }
  return node;
}

BoxNode decode_box32(const uint8_t* bytes) {
  BoxNode node;
  load_children(bytes, node);
  for (int i = 0; i < 4; ++i) {
    const uint8_t* box = bytes + 16 + 24 * i;
    for (int a = 0; a < 3; ++a) {
      node.box[i].min[a] = load_f32(box + 4 * a);
      node.box[i].max[a] = load_f32(box + 12 + 4 * a);
    }
  }
  return node;
}

TriangleNode decode_triangle(const uint8_t* bytes) {
  TriangleNode node;
  for (int v = 0; v < 5; ++v)
    for (int a = 0; a < 3; ++a) node.vertex[v][a] = load_f32(bytes + 12 * v + 4 * a);
  node.id = load_u32(bytes + 60);
  return node;
}

void encode_box16(const BoxNode& node, uint8_t* bytes) {
  std::memset(bytes, 0, 64);
  store_children(node, bytes);
  for (int i = 0; i < 4; ++i) {
    uint8_t* box = bytes + 16 + 12 * i;
    for (int a = 0; a < 3; ++a) {
      store_u16(box + 2 * a, float_to_half_down(node.box[i].min[a]));
      store_u16(box + 6 + 2 * a, float_to_half_up(node.box[i].max[a]));
    }
  }
}

void encode_box32(const BoxNode& node, uint8_t* bytes) {
  std::memset(bytes, 0, 128);
  store_children(node, bytes);
  for (int i = 0; i < 4; ++i) {
    uint8_t* box = bytes + 16 + 24 * i;
    for (int a = 0; a < 3; ++a) {
      store_u32(box + 4 * a, bits_of(node.box[i].min[a]));
      store_u32(box + 12 + 4 * a, bits_of(node.box[i].max[a]));
    }
  }
}

void encode_triangle(const TriangleNode& node, uint8_t* bytes) {
  for (int v = 0; v < 5; ++v)
    for (int a = 0; a < 3; ++a) store_u32(bytes + 12 * v + 4 * a, bits_of(node.vertex[v][a]));
  store_u32(bytes + 60, node.id);
}

std::array<int, 3> triangle_vertices(uint32_t t) {
  static constexpr std::array<std::array<int, 3>, 4> kTriangles = {{
      {0, 1, 2},
      {1, 3, 2},
      {2, 3, 4},
      {2, 4, 0},
  }};
  return kTriangles[t & 3u];
}

}  // namespace td

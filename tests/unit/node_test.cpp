// node_test.cpp — contract §5-§7 formats: node pointer type/unit for the
// 32- and 64-bit forms, node sizes, and the byte layout of FP16 box, FP32 box
// and triangle nodes. Expected bytes are laid out here by hand from the
// contract's offsets, independently of node.cpp's encoders.
#include "model/isa/node.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "model/isa/fp32.h"

namespace td {
namespace {

void put_u32(uint8_t* bytes, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));  // little-endian
}
void put_u16(uint8_t* bytes, uint16_t value) {
  bytes[0] = static_cast<uint8_t>(value);
  bytes[1] = static_cast<uint8_t>(value >> 8);
}

// binary16 bits of an integer 1 <= n < 2048, by the definition of the format.
uint16_t half_of_integer(int n) {
  int e = 0;
  while ((n >> (e + 1)) != 0) ++e;  // e = floor(log2 n)
  return static_cast<uint16_t>((e + 15) << 10 | ((n << (10 - e)) & 0x3ff));
}

void expect_same_bits(const Vec3& actual, const Vec3& expected) {
  for (int a = 0; a < 3; ++a) EXPECT_EQ(bits_of(actual[a]), bits_of(expected[a])) << "axis " << a;
}

TEST(NodePtr, TypeIsLowThreeBitsAndUnitTheRest) {
  const NodePtr p{0x0000002du, false};  // unit 5, type 5
  EXPECT_EQ(p.type(), NodeType::kBox32);
  EXPECT_EQ(p.unit(), 5u);
  EXPECT_EQ((NodePtr{0x00000018u, false}.type()), NodeType::kTriangle0);
  EXPECT_EQ((NodePtr{0x00000018u, false}.unit()), 3u);
}

// image_bvh_intersect_ray: only the low 32 bits count, so unit has 29 bits.
TEST(NodePtr, ThirtyTwoBitFormIgnoresUpperHalf) {
  const NodePtr p{0xdeadbeef0000002cull, false};
  EXPECT_EQ(p.type(), NodeType::kBox16);
  EXPECT_EQ(p.unit(), 5u);
  const NodePtr all_ones{~uint64_t{0}, false};
  EXPECT_EQ(all_ones.type(), NodeType::kReserved7);
  EXPECT_EQ(all_ones.unit(), 0x1fffffffu);
}

TEST(NodePtr, SixtyFourBitFormKeepsSixtyOneUnitBits) {
  const NodePtr p{0xdeadbeef0000002cull, true};
  EXPECT_EQ(p.type(), NodeType::kBox16);
  EXPECT_EQ(p.unit(), 0x1bd5b7dde0000005ull);
  const NodePtr all_ones{~uint64_t{0}, true};
  EXPECT_EQ(all_ones.type(), NodeType::kReserved7);
  EXPECT_EQ(all_ones.unit(), (uint64_t{1} << 61) - 1);
}

TEST(NodePtr, MakePlacesUnitAboveType) {
  EXPECT_EQ(NodePtr::make(5, NodeType::kTriangle3).raw, 0x2bu);
  EXPECT_EQ(NodePtr::make(uint64_t{1} << 40, NodeType::kBox32, true).raw, (uint64_t{1} << 43) | 5);
}

TEST(Node, OnlyFp32BoxCoversTwoUnits) {
  for (uint8_t t = 0; t < 8; ++t) {
    const auto type = static_cast<NodeType>(t);
    EXPECT_EQ(node_units(type), t == 5 ? 2u : 1u) << "type " << int{t};
    EXPECT_EQ(node_bytes(type), t == 5 ? 128u : 64u) << "type " << int{t};
    EXPECT_EQ(is_triangle(type), t <= 3) << "type " << int{t};
    EXPECT_EQ(is_box(type), t == 4 || t == 5) << "type " << int{t};
    EXPECT_EQ(is_reserved(type), t >= 6) << "type " << int{t};
  }
}

TEST(Node, TriangleVerticesFollowTheContractTable) {
  EXPECT_EQ(triangle_vertices(0), (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(triangle_vertices(1), (std::array<int, 3>{1, 3, 2}));
  EXPECT_EQ(triangle_vertices(2), (std::array<int, 3>{2, 3, 4}));
  EXPECT_EQ(triangle_vertices(3), (std::array<int, 3>{2, 4, 0}));
}

// Distinct, exactly representable values per (box, axis, min/max).
float box_value(int box, int axis, bool is_max) { return static_cast<float>(100 * box + 10 * axis + (is_max ? 5 : 1)); }

TEST(Node, Fp32BoxDecodesFromContractOffsets) {
  uint8_t bytes[128] = {};
  for (int i = 0; i < 4; ++i) put_u32(bytes + 4 * i, 0x11223300u + static_cast<uint32_t>(i));
  for (int i = 0; i < 4; ++i)
    for (int a = 0; a < 3; ++a) {
      put_u32(bytes + 16 + 24 * i + 4 * a, bits_of(box_value(i, a, false)));
      put_u32(bytes + 28 + 24 * i + 4 * a, bits_of(box_value(i, a, true)));
    }
  for (int b = 112; b < 128; ++b) bytes[b] = 0xa5;  // unused bytes must not matter
  const BoxNode node = decode_box32(bytes);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(testing::Message() << "box " << i);
    EXPECT_EQ(node.child[i], 0x11223300u + static_cast<uint32_t>(i));
    expect_same_bits(node.box[i].min, {box_value(i, 0, false), box_value(i, 1, false), box_value(i, 2, false)});
    expect_same_bits(node.box[i].max, {box_value(i, 0, true), box_value(i, 1, true), box_value(i, 2, true)});
  }
}

TEST(Node, Fp32BoxEncodesToContractOffsets) {
  BoxNode node;
  for (int i = 0; i < 4; ++i) {
    node.child[i] = 0xc0ffee00u + static_cast<uint32_t>(i);
    for (int a = 0; a < 3; ++a) {
      node.box[i].min[a] = box_value(i, a, false);
      node.box[i].max[a] = box_value(i, a, true);
    }
  }
  uint8_t expected[128] = {};
  for (int i = 0; i < 4; ++i) put_u32(expected + 4 * i, node.child[i]);
  for (int i = 0; i < 4; ++i)
    for (int a = 0; a < 3; ++a) {
      put_u32(expected + 16 + 24 * i + 4 * a, bits_of(box_value(i, a, false)));
      put_u32(expected + 28 + 24 * i + 4 * a, bits_of(box_value(i, a, true)));
    }
  uint8_t actual[128];
  for (auto& b : actual) b = 0x5a;  // encoder must clear the unused tail
  encode_box32(node, actual);
  for (int b = 0; b < 128; ++b) EXPECT_EQ(actual[b], expected[b]) << "byte " << b;
}

TEST(Node, Fp16BoxDecodesFromContractOffsets) {
  uint8_t bytes[64] = {};
  for (int i = 0; i < 4; ++i) put_u32(bytes + 4 * i, 0xabcd0000u + static_cast<uint32_t>(i));
  for (int i = 0; i < 4; ++i)
    for (int a = 0; a < 3; ++a) {
      put_u16(bytes + 16 + 12 * i + 2 * a, half_of_integer(static_cast<int>(box_value(i, a, false))));
      put_u16(bytes + 22 + 12 * i + 2 * a, half_of_integer(static_cast<int>(box_value(i, a, true))));
    }
  const BoxNode node = decode_box16(bytes);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(testing::Message() << "box " << i);
    EXPECT_EQ(node.child[i], 0xabcd0000u + static_cast<uint32_t>(i));
    expect_same_bits(node.box[i].min, {box_value(i, 0, false), box_value(i, 1, false), box_value(i, 2, false)});
    expect_same_bits(node.box[i].max, {box_value(i, 0, true), box_value(i, 1, true), box_value(i, 2, true)});
  }
}

TEST(Node, Fp16BoxEncodesToContractOffsets) {
  BoxNode node;
  for (int i = 0; i < 4; ++i) {
    node.child[i] = 0x0badf00du + static_cast<uint32_t>(i);
    for (int a = 0; a < 3; ++a) {
      node.box[i].min[a] = box_value(i, a, false);
      node.box[i].max[a] = box_value(i, a, true);
    }
  }
  uint8_t expected[64] = {};
  for (int i = 0; i < 4; ++i) put_u32(expected + 4 * i, node.child[i]);
  for (int i = 0; i < 4; ++i)
    for (int a = 0; a < 3; ++a) {
      put_u16(expected + 16 + 12 * i + 2 * a, half_of_integer(static_cast<int>(box_value(i, a, false))));
      put_u16(expected + 22 + 12 * i + 2 * a, half_of_integer(static_cast<int>(box_value(i, a, true))));
    }
  uint8_t actual[64];
  encode_box16(node, actual);
  for (int b = 0; b < 64; ++b) EXPECT_EQ(actual[b], expected[b]) << "byte " << b;
}

// encode_box16 must round min down and max up so the stored box contains the
// given one; 0.1 lies between halves 0x2e66 and 0x2e67.
TEST(Node, Fp16BoxEncodeRoundsOutward) {
  BoxNode node;
  node.box[0] = Aabb{{0.1f, -0.1f, 0.1f}, {0.1f, -0.1f, 0.1f}};
  uint8_t bytes[64];
  encode_box16(node, bytes);
  const auto u16_at = [&](int offset) { return static_cast<uint16_t>(bytes[offset] | bytes[offset + 1] << 8); };
  EXPECT_EQ(u16_at(16), 0x2e66u);  // min.x rounded down
  EXPECT_EQ(u16_at(18), 0xae67u);  // min.y = -0.1 rounded toward -Inf
  EXPECT_EQ(u16_at(22), 0x2e67u);  // max.x rounded up
  EXPECT_EQ(u16_at(24), 0xae66u);  // max.y = -0.1 rounded toward +Inf
  const BoxNode back = decode_box16(bytes);
  for (int a = 0; a < 3; ++a) {
    EXPECT_LE(back.box[0].min[a], node.box[0].min[a]) << "axis " << a;
    EXPECT_GE(back.box[0].max[a], node.box[0].max[a]) << "axis " << a;
  }
}

TEST(Node, TriangleDecodesFromContractOffsets) {
  uint8_t bytes[64] = {};
  for (int v = 0; v < 5; ++v)
    for (int a = 0; a < 3; ++a) put_u32(bytes + 12 * v + 4 * a, bits_of(static_cast<float>(10 * v + a) + 0.5f));
  put_u32(bytes + 60, 0x87654321u);
  const TriangleNode node = decode_triangle(bytes);
  for (int v = 0; v < 5; ++v) {
    SCOPED_TRACE(testing::Message() << "vertex " << v);
    expect_same_bits(node.vertex[v], {10.0f * v + 0.5f, 10.0f * v + 1.5f, 10.0f * v + 2.5f});
  }
  EXPECT_EQ(node.id, 0x87654321u);
}

TEST(Node, TriangleEncodesToContractOffsets) {
  TriangleNode node;
  for (int v = 0; v < 5; ++v)
    for (int a = 0; a < 3; ++a) node.vertex[v][a] = -static_cast<float>(10 * v + a) - 0.25f;
  node.id = 0xfedcba98u;
  uint8_t expected[64] = {};
  for (int v = 0; v < 5; ++v)
    for (int a = 0; a < 3; ++a) put_u32(expected + 12 * v + 4 * a, bits_of(node.vertex[v][a]));
  put_u32(expected + 60, 0xfedcba98u);
  uint8_t actual[64];
  encode_triangle(node, actual);
  for (int b = 0; b < 64; ++b) EXPECT_EQ(actual[b], expected[b]) << "byte " << b;
}

// Bit patterns of any kind (NaN, -0, subnormal) survive an FP32 round trip.
TEST(Node, Fp32BoxAndTriangleRoundTripRandomBits) {
  const uint32_t seed = 4242u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 500; ++iter) {
    BoxNode box;
    for (int i = 0; i < 4; ++i) {
      box.child[i] = rng();
      for (int a = 0; a < 3; ++a) {
        box.box[i].min[a] = float_of(rng());
        box.box[i].max[a] = float_of(rng());
      }
    }
    uint8_t bytes[128];
    encode_box32(box, bytes);
    const BoxNode box_back = decode_box32(bytes);
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(box_back.child[i], box.child[i]);
      for (int a = 0; a < 3; ++a) {
        ASSERT_EQ(bits_of(box_back.box[i].min[a]), bits_of(box.box[i].min[a])) << "iter " << iter;
        ASSERT_EQ(bits_of(box_back.box[i].max[a]), bits_of(box.box[i].max[a])) << "iter " << iter;
      }
    }
    TriangleNode triangle;
    for (auto& vertex : triangle.vertex)
      for (auto& c : vertex) c = float_of(rng());
    triangle.id = rng();
    encode_triangle(triangle, bytes);
    const TriangleNode triangle_back = decode_triangle(bytes);
    ASSERT_EQ(triangle_back.id, triangle.id);
    for (int v = 0; v < 5; ++v)
      for (int a = 0; a < 3; ++a)
        ASSERT_EQ(bits_of(triangle_back.vertex[v][a]), bits_of(triangle.vertex[v][a])) << "iter " << iter;
  }
}

// FP16 boxes whose coordinates are halves already round-trip exactly.
TEST(Node, Fp16BoxRoundTripsHalfRepresentableBoxes) {
  const uint32_t seed = 99u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> integer(1, 2047);
  std::uniform_int_distribution<int> scale(-20, 5);
  for (int iter = 0; iter < 500; ++iter) {
    BoxNode box;
    for (int i = 0; i < 4; ++i) {
      box.child[i] = rng();
      for (int a = 0; a < 3; ++a) {
        // n * 2^s with n < 2^11 and 2^s >= 2^-20 is a binary16 normal or subnormal multiple of 2^-24.
        box.box[i].min[a] = -std::ldexp(static_cast<float>(integer(rng)), scale(rng) - 4);
        box.box[i].max[a] = std::ldexp(static_cast<float>(integer(rng)), scale(rng) - 4);
      }
    }
    uint8_t bytes[64];
    encode_box16(box, bytes);
    const BoxNode back = decode_box16(bytes);
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(back.child[i], box.child[i]);
      for (int a = 0; a < 3; ++a) {
        ASSERT_EQ(bits_of(back.box[i].min[a]), bits_of(box.box[i].min[a])) << "iter " << iter;
        ASSERT_EQ(bits_of(back.box[i].max[a]), bits_of(box.box[i].max[a])) << "iter " << iter;
      }
    }
  }
}

}  // namespace
}  // namespace td

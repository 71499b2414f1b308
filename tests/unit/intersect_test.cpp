// intersect_test.cpp — contract §2-§5 end to end through ref::intersect():
// inactive lanes, descriptor faults, reserved node types, bounds checks,
// address computation for 32- and 64-bit pointers, and A16 operand packing.
#include "model/ref/intersect.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "model/isa/fp32.h"

namespace td::ref {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr std::array<uint32_t, 4> kAllOnes{~0u, ~0u, ~0u, ~0u};

Descriptor make_descriptor(uint64_t base_256b, uint64_t size_units) {
  Descriptor d;
  d.base_256b = base_256b;
  d.size_units = size_units;
  return d;
}

// Up +z through (0.25, 0.25) from z = -1: hits standard_triangle with
// T = det = -1 (see triangle_test_test.cpp) and any box containing
// [-1,1]^2 x [-1,1] with key 0.
Ray standard_ray() {
  Ray ray;
  ray.extent = 10.0f;
  ray.origin = {0.25f, 0.25f, -1.0f};
  ray.dir = {0, 0, 1};
  ray.inv_dir = {kInf, kInf, 1};
  return ray;
}

LaneInput lane_at(uint64_t unit, NodeType type, const Ray& ray = standard_ray(), Opcode op = Opcode::kBvh) {
  return LaneInput::from_ray(ray, NodePtr::make(unit, type, op == Opcode::kBvh64).raw, op);
}

void put_triangle(MemoryImage& memory, uint64_t address, uint32_t id) {
  TriangleNode node;
  node.vertex[0] = {0, 0, 0};
  node.vertex[1] = {1, 0, 0};
  node.vertex[2] = {0, 1, 0};
  node.id = id;
  NodeBytes bytes{};
  encode_triangle(node, bytes.data());
  memory.write(address, bytes.data(), 64);
}

BoxNode box_node(const Aabb& box) {
  BoxNode node;
  node.child = {0x11u, 0x22u, 0x33u, 0x44u};
  node.box = {box, box, box, box};
  return node;
}

void put_box(MemoryImage& memory, uint64_t address, const BoxNode& node, NodeType type) {
  NodeBytes bytes{};
  if (type == NodeType::kBox16)
    encode_box16(node, bytes.data());
  else
    encode_box32(node, bytes.data());
  memory.write(address, bytes.data(), node_bytes(type));
}

// A triangle at unit 0, FP16 box at unit 1, FP32 box at units 2-3; base 0.
MemoryImage standard_memory() {
  MemoryImage memory;
  put_triangle(memory, 0, 7);
  put_box(memory, 64, box_node(Aabb{{-1, -1, -1}, {1, 1, 1}}), NodeType::kBox16);
  put_box(memory, 128, box_node(Aabb{{-1, -1, -1}, {1, 1, 1}}), NodeType::kBox32);
  return memory;
}

void expect_no_write(const Descriptor& d, const LaneInput& lane, const MemoryImage& memory) {
  EXPECT_FALSE(plan_lane(d, lane).needs_fetch());
  const LaneResult r = intersect(d, lane, memory);
  EXPECT_FALSE(r.written);
  EXPECT_EQ(r.outcome, LaneOutcome::kInactive);
}

void expect_all_ones(const Descriptor& d, const LaneInput& lane, const MemoryImage& memory, LaneOutcome why) {
  EXPECT_FALSE(plan_lane(d, lane).needs_fetch());
  const LaneResult r = intersect(d, lane, memory);
  EXPECT_TRUE(r.written);
  EXPECT_EQ(r.dwords, kAllOnes);
  EXPECT_EQ(r.outcome, why);
}

// --- normal lanes: address, node kinds, descriptor options --------------------

// base 3 (768 B) + unit 5 (320 B) = byte 1088. Decoys sit where a wrong
// formula would look: base ignored (320), unit ignored (768), base in 64 B
// units (512).
TEST(Intersect, FetchesFromBaseTimes256PlusUnitTimes64) {
  MemoryImage memory;
  put_triangle(memory, 1088, 0x1234);
  put_triangle(memory, 320, 0xdead0001u);
  put_triangle(memory, 768, 0xdead0002u);
  put_triangle(memory, 512, 0xdead0003u);
  const Descriptor d = make_descriptor(3, 100);
  const LaneInput lane = lane_at(5, NodeType::kTriangle0);
  const LanePlan plan = plan_lane(d, lane);
  EXPECT_EQ(plan.outcome, LaneOutcome::kTriangle);
  EXPECT_EQ(plan.address, 1088u);
  EXPECT_EQ(plan.bytes, 64u);
  const LaneResult r = intersect(d, lane, memory);
  EXPECT_TRUE(r.written);
  EXPECT_EQ(r.dwords, (std::array<uint32_t, 4>{0xbf800000u, 0xbf800000u, 0x1234u, 1u}));
}

TEST(Intersect, TriangleTypeSelectsTriangleAndAddsToId) {
  MemoryImage memory;
  put_triangle(memory, 0, 100);
  // Type 3 = (V2, V4, V0): V4 is (0,0,0) here, so the triangle is degenerate
  // and misses; the id still gets + 3.
  const LaneResult r = intersect(make_descriptor(0, 0), lane_at(0, NodeType::kTriangle3), memory);
  EXPECT_EQ(r.outcome, LaneOutcome::kTriangle);
  EXPECT_EQ(r.dwords, (std::array<uint32_t, 4>{kPlusInfBits, kOneBits, 103u, 0u}));
}

TEST(Intersect, ReturnModeComesFromDescriptor) {
  MemoryImage memory;
  put_triangle(memory, 0, 0x00000004u);  // I_SRC = 0 (U), J_SRC = 1 (V)
  Descriptor d = make_descriptor(0, 0);
  d.return_mode = 1;
  // U, V, W = -.5, -.25, -.25 for the standard ray and triangle.
  EXPECT_EQ(intersect(d, lane_at(0, NodeType::kTriangle0), memory).dwords,
            (std::array<uint32_t, 4>{0xbf800000u, 0xbf800000u, bits_of(-0.5f), bits_of(-0.25f)}));
}

TEST(Intersect, BoxNodesOfBothFormatsReturnChildren) {
  const MemoryImage memory = standard_memory();
  const Descriptor d = make_descriptor(0, 3);
  const std::array<uint32_t, 4> all_children{0x11u, 0x22u, 0x33u, 0x44u};
  const LanePlan plan16 = plan_lane(d, lane_at(1, NodeType::kBox16));
  EXPECT_EQ(plan16.address, 64u);
  EXPECT_EQ(plan16.bytes, 64u);
  EXPECT_EQ(intersect(d, lane_at(1, NodeType::kBox16), memory).dwords, all_children);
  const LanePlan plan32 = plan_lane(d, lane_at(2, NodeType::kBox32));
  EXPECT_EQ(plan32.address, 128u);
  EXPECT_EQ(plan32.bytes, 128u);
  const LaneResult r = intersect(d, lane_at(2, NodeType::kBox32), memory);
  EXPECT_EQ(r.outcome, LaneOutcome::kBoxNode);
  EXPECT_EQ(r.dwords, all_children);
}

// Boxes entered at z = 3, 1, 4, 2 (keys, the ray starts at z = -1).
TEST(Intersect, BoxSortComesFromDescriptor) {
  BoxNode node = box_node(Aabb{});
  const float z_min[4] = {2, 0, 3, 1};
  for (int i = 0; i < 4; ++i) node.box[i] = Aabb{{-1, -1, z_min[i]}, {1, 1, z_min[i] + 1}};
  MemoryImage memory;
  put_box(memory, 0, node, NodeType::kBox32);
  Descriptor d = make_descriptor(0, 1);
  EXPECT_EQ(intersect(d, lane_at(0, NodeType::kBox32), memory).dwords,
            (std::array<uint32_t, 4>{0x11u, 0x22u, 0x33u, 0x44u}));
  d.box_sort = true;
  EXPECT_EQ(intersect(d, lane_at(0, NodeType::kBox32), memory).dwords,
            (std::array<uint32_t, 4>{0x22u, 0x44u, 0x11u, 0x33u}));
}

// Enter at x = 1, leave y one ulp before 1 (see BoxTest.BoxGrowTurnsJustMissIntoHit).
TEST(Intersect, BoxGrowComesFromDescriptor) {
  MemoryImage memory;
  put_box(memory, 0, box_node(Aabb{{1, -1, -1}, {2, float_of(0x3f7fffffu), 2}}), NodeType::kBox32);
  Ray ray;
  ray.extent = 10;
  ray.origin = {0, 0, 0};
  ray.dir = {1, 1, 1};
  ray.inv_dir = {1, 1, 1};
  Descriptor d = make_descriptor(0, 1);
  EXPECT_EQ(intersect(d, lane_at(0, NodeType::kBox32, ray), memory).dwords, kAllOnes);
  d = Descriptor::unpack({0, 1u << 23, 1, 0x88000000u});  // box_grow = 1 at bit 55
  ASSERT_EQ(d.box_grow_ulps, 1u);
  EXPECT_EQ(intersect(d, lane_at(0, NodeType::kBox32, ray), memory).dwords,
            (std::array<uint32_t, 4>{0x11u, 0x22u, 0x33u, 0x44u}));
}

// --- inactive lanes (§3) ------------------------------------------------------------

TEST(Intersect, ExecOffWritesNothing) {
  const MemoryImage memory = standard_memory();
  LaneInput lane = lane_at(0, NodeType::kTriangle0);
  lane.exec = false;
  expect_no_write(make_descriptor(0, 3), lane, memory);
}

TEST(Intersect, NanExtentMakesLaneInactive) {
  Ray ray = standard_ray();
  ray.extent = kNan;
  expect_no_write(make_descriptor(0, 3), lane_at(0, NodeType::kTriangle0, ray), standard_memory());
}

TEST(Intersect, NanInAnyOriginDirOrInvDirComponentMakesLaneInactive) {
  const MemoryImage memory = standard_memory();
  for (int vec = 0; vec < 3; ++vec)
    for (int a = 0; a < 3; ++a) {
      SCOPED_TRACE(testing::Message() << (vec == 0 ? "origin" : vec == 1 ? "dir" : "inv_dir") << "[" << a << "]");
      Ray ray = standard_ray();
      (vec == 0 ? ray.origin : vec == 1 ? ray.dir : ray.inv_dir)[a] = kNan;
      expect_no_write(make_descriptor(0, 3), lane_at(1, NodeType::kBox16, ray), memory);
    }
}

TEST(Intersect, InfiniteOriginComponentMakesLaneInactive) {
  const MemoryImage memory = standard_memory();
  for (float inf : {kInf, -kInf})
    for (int a = 0; a < 3; ++a) {
      SCOPED_TRACE(testing::Message() << "origin[" << a << "] = " << inf);
      Ray ray = standard_ray();
      ray.origin[a] = inf;
      expect_no_write(make_descriptor(0, 3), lane_at(1, NodeType::kBox16, ray), memory);
    }
}

// Only NaN (and an infinite origin) deactivates: infinite extent, dir and
// inv_dir are ordinary operands.
TEST(Intersect, InfiniteExtentDirAndInvDirStayActive) {
  const MemoryImage memory = standard_memory();
  const Descriptor d = make_descriptor(0, 3);
  Ray ray = standard_ray();
  ray.extent = kInf;
  const LaneResult r = intersect(d, lane_at(0, NodeType::kTriangle0, ray), memory);
  EXPECT_TRUE(r.written);
  EXPECT_EQ(r.dwords, (std::array<uint32_t, 4>{0xbf800000u, 0xbf800000u, 7u, 1u}));  // still a hit
  ray.extent = -kInf;
  EXPECT_TRUE(intersect(d, lane_at(0, NodeType::kTriangle0, ray), memory).written);
  for (float inf : {kInf, -kInf})
    for (int a = 0; a < 3; ++a) {
      SCOPED_TRACE(testing::Message() << "axis " << a << " = " << inf);
      Ray inv_ray = standard_ray();
      inv_ray.inv_dir[a] = inf;
      EXPECT_TRUE(intersect(d, lane_at(1, NodeType::kBox16, inv_ray), memory).written);
      Ray dir_ray = standard_ray();
      dir_ray.dir[a] = inf;
      EXPECT_TRUE(intersect(d, lane_at(0, NodeType::kTriangle0, dir_ray), memory).written);
    }
}

TEST(Intersect, NanA16HalfMakesLaneInactive) {
  const std::array<uint16_t, 3> one{0x3c00u, 0x3c00u, 0x3c00u};
  for (int a = 0; a < 6; ++a) {
    std::array<uint16_t, 3> dir = one, inv = one;
    (a < 3 ? dir : inv)[a % 3] = 0x7e00u;
    const LaneInput lane =
        LaneInput::from_a16(10, {0.25f, 0.25f, -1}, dir, inv, NodePtr::make(1, NodeType::kBox16).raw);
    expect_no_write(make_descriptor(0, 3), lane, standard_memory());
  }
}

// Inactivity is decided first: it beats every reason to write all ones.
TEST(Intersect, InactiveLaneWinsOverReservedTypeAndOutOfBounds) {
  const MemoryImage memory = standard_memory();
  for (const LaneInput& base : {lane_at(0, NodeType::kReserved6), lane_at(50, NodeType::kTriangle0)}) {
    LaneInput lane = base;
    lane.exec = false;
    expect_no_write(make_descriptor(0, 3), lane, memory);
  }
}

TEST(Intersect, DescriptorFaultLeavesInactiveLanesUnwritten) {
  const MemoryImage memory = standard_memory();
  Descriptor d = make_descriptor(0, 3);
  d.type = 7;
  LaneInput off = lane_at(0, NodeType::kTriangle0);
  off.exec = false;
  expect_no_write(d, off, memory);
  Ray nan_ray = standard_ray();
  nan_ray.dir[1] = kNan;
  expect_no_write(d, lane_at(0, NodeType::kTriangle0, nan_ray), memory);
  // ...while an active lane of the same instruction gets all ones.
  expect_all_ones(d, lane_at(0, NodeType::kTriangle0), memory, LaneOutcome::kDescriptorFault);
}

// --- reserved types and bounds (§5) ----------------------------------------------

TEST(Intersect, ReservedTypesGiveAllOnes) {
  const MemoryImage memory = standard_memory();
  expect_all_ones(make_descriptor(0, 3), lane_at(0, NodeType::kReserved6), memory, LaneOutcome::kReservedType);
  expect_all_ones(make_descriptor(0, 3), lane_at(0, NodeType::kReserved7), memory, LaneOutcome::kReservedType);
}

// size = 9: a one-unit node at unit 9 is the last in bounds (9 + 1 - 1 == 9).
TEST(Intersect, OutOfBoundsExactlyAtTheBoundary) {
  MemoryImage memory;
  put_triangle(memory, 9 * 64, 5);
  const Descriptor d = make_descriptor(0, 9);
  EXPECT_EQ(intersect(d, lane_at(9, NodeType::kTriangle0), memory).outcome, LaneOutcome::kTriangle);
  expect_all_ones(d, lane_at(10, NodeType::kTriangle0), memory, LaneOutcome::kOutOfBounds);
  EXPECT_EQ(intersect(d, lane_at(9, NodeType::kBox16), memory).outcome, LaneOutcome::kBoxNode);
  expect_all_ones(d, lane_at(10, NodeType::kBox16), memory, LaneOutcome::kOutOfBounds);
}

// A 128-byte FP32 box covers units u and u+1: at u = size its second unit is
// past the end even though its first is not.
TEST(Intersect, Fp32BoxWhoseSecondUnitIsOutOfBounds) {
  MemoryImage memory;
  put_box(memory, 8 * 64, box_node(Aabb{{-1, -1, -1}, {1, 1, 1}}), NodeType::kBox32);
  const Descriptor d = make_descriptor(0, 9);
  EXPECT_EQ(intersect(d, lane_at(8, NodeType::kBox32), memory).outcome, LaneOutcome::kBoxNode);
  expect_all_ones(d, lane_at(9, NodeType::kBox32), memory, LaneOutcome::kOutOfBounds);
  expect_all_ones(make_descriptor(0, 0), lane_at(0, NodeType::kBox32), memory, LaneOutcome::kOutOfBounds);
}

// A 128-byte node at byte 0xffc0 has its second unit on the next 64 KiB
// page: the fetch must still see all four boxes (the last two lie there).
TEST(Intersect, Fp32BoxStraddlingA64KiBPageIsReadWhole) {
  BoxNode node = box_node(Aabb{{-1, -1, -1}, {1, 1, 1}});
  node.box[3] = Aabb{{-1, -1, 5}, {1, 1, 6}};
  MemoryImage memory;
  put_box(memory, 0xffc0, node, NodeType::kBox32);
  const uint64_t unit = 0xffc0 / 64;
  Ray ray = standard_ray();
  ray.extent = 5.5f;  // box 3 is entered at z = 5 - (-1) = 6: beyond the extent
  EXPECT_EQ(intersect(make_descriptor(0, unit + 1), lane_at(unit, NodeType::kBox32, ray), memory).dwords,
            (std::array<uint32_t, 4>{0x11u, 0x22u, 0x33u, kInvalidChild}));
  ray.extent = 6.0f;
  EXPECT_EQ(intersect(make_descriptor(0, unit + 1), lane_at(unit, NodeType::kBox32, ray), memory).dwords,
            (std::array<uint32_t, 4>{0x11u, 0x22u, 0x33u, 0x44u}));
}

TEST(Intersect, LargestThirtyTwoBitUnitIsOutOfBoundsForSmallSize) {
  const LaneInput lane = LaneInput::from_ray(standard_ray(), 0xfffffff8u);  // unit 2^29 - 1, type 0
  expect_all_ones(make_descriptor(0, 3), lane, standard_memory(), LaneOutcome::kOutOfBounds);
}

// --- 64-bit pointers -------------------------------------------------------------------

// Raw pointer with unit 2^32 + 5: bvh64 reads the node at (2^32 + 5) * 64;
// the 32-bit form drops the upper half and reads unit 5.
TEST(Intersect, Bvh64PointerReachesUnitsAbove2To29) {
  const uint64_t unit = (uint64_t{1} << 32) + 5;
  const uint64_t raw = unit << 3 | static_cast<uint64_t>(NodeType::kTriangle0);
  MemoryImage memory;
  put_triangle(memory, unit * 64, 0x64);
  put_triangle(memory, 5 * 64, 0x32);
  const Descriptor d = make_descriptor(0, uint64_t{1} << 40);
  const LaneInput wide = LaneInput::from_ray(standard_ray(), raw, Opcode::kBvh64);
  EXPECT_EQ(plan_lane(d, wide).address, (uint64_t{1} << 38) + 320);
  EXPECT_EQ(intersect(d, wide, memory).dwords[2], 0x64u);
  const LaneInput narrow = LaneInput::from_ray(standard_ray(), raw, Opcode::kBvh);
  EXPECT_EQ(plan_lane(d, narrow).address, 320u);
  EXPECT_EQ(intersect(d, narrow, memory).dwords[2], 0x32u);
}

TEST(Intersect, Bvh64UnitIsBoundsCheckedInFull) {
  const uint64_t raw = ((uint64_t{1} << 32) + 1) << 3;  // low half says unit 1
  const Descriptor d = make_descriptor(0, 3);
  expect_all_ones(d, LaneInput::from_ray(standard_ray(), raw, Opcode::kBvh64), standard_memory(),
                  LaneOutcome::kOutOfBounds);
  EXPECT_EQ(intersect(d, LaneInput::from_ray(standard_ray(), raw, Opcode::kBvh), standard_memory()).outcome,
            LaneOutcome::kTriangle);
}

// --- A16 (§2) ------------------------------------------------------------------------------

// dir = (0.5, 3, -8), inv = (1, 2, 4) as binary16, packed by hand:
// w0 = dir.x | dir.y<<16, w1 = dir.z | inv.x<<16, w2 = inv.y | inv.z<<16.
constexpr uint32_t kW0 = 0x42003800u, kW1 = 0x3c00c800u, kW2 = 0x44004000u;

LaneInput a16_lane(uint32_t w0, uint32_t w1, uint32_t w2) {
  LaneInput lane;
  lane.a16 = true;
  lane.node_ptr = NodePtr::make(0, NodeType::kBox32).raw;
  lane.ray_dwords[0] = bits_of(100.0f);
  lane.ray_dwords[1] = bits_of(0.1f);  // origin stays f32: not a binary16 value
  lane.ray_dwords[2] = 0;
  lane.ray_dwords[3] = 0;
  lane.ray_dwords[4] = w0;
  lane.ray_dwords[5] = w1;
  lane.ray_dwords[6] = w2;
  return lane;
}

TEST(Intersect, A16WidensDirAndInvDirLowHalfFirst) {
  const Ray ray = a16_lane(kW0, kW1, kW2).ray();
  EXPECT_EQ(bits_of(ray.extent), bits_of(100.0f));
  EXPECT_EQ(bits_of(ray.origin[0]), bits_of(0.1f));
  EXPECT_EQ(ray.dir, (Vec3{0.5f, 3.0f, -8.0f}));
  EXPECT_EQ(ray.inv_dir, (Vec3{1.0f, 2.0f, 4.0f}));
  const LaneInput built = LaneInput::from_a16(100.0f, {0.1f, 0, 0}, {0x3800u, 0x4200u, 0xc800u},
                                              {0x3c00u, 0x4000u, 0x4400u}, lane_at(0, NodeType::kBox32).node_ptr);
  EXPECT_EQ(built.ray_dwords[4], kW0);
  EXPECT_EQ(built.ray_dwords[5], kW1);
  EXPECT_EQ(built.ray_dwords[6], kW2);
}

// Box x in [1,2] from x = 0.1 with inv.x = 1 is entered at 0.9 (y, z slabs are
// wide): a hit. With the halves of each word swapped, inv.x would be dir.z = -8
// and the x slab would lie behind the ray: a miss.
TEST(Intersect, A16PackingOrderDecidesTheResult) {
  MemoryImage memory;
  put_box(memory, 0, box_node(Aabb{{1, -10, -10}, {2, 10, 10}}), NodeType::kBox32);
  const Descriptor d = make_descriptor(0, 1);
  EXPECT_EQ(intersect(d, a16_lane(kW0, kW1, kW2), memory).dwords,
            (std::array<uint32_t, 4>{0x11u, 0x22u, 0x33u, 0x44u}));
  const auto swap_halves = [](uint32_t w) { return w << 16 | w >> 16; };
  EXPECT_EQ(intersect(d, a16_lane(swap_halves(kW0), swap_halves(kW1), swap_halves(kW2)), memory).dwords,
            kAllOnes);
}

}  // namespace
}  // namespace td::ref

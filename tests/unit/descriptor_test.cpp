// descriptor_test.cpp — contract §4: the 128-bit resource descriptor. Field
// positions are checked bit by bit against a table written from the contract,
// pack/unpack round trips on random words, and each "must" both as a fault
// flag and as its effect on intersect(): all ones on every active lane.
#include "model/isa/descriptor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "model/isa/fp32.h"
#include "model/isa/lane.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"
#include "model/ref/intersect.h"

namespace td {
namespace {

// Descriptor with every field zero, including the two "must" fields.
Descriptor zero_descriptor() {
  Descriptor d;
  d.big_page = false;
  d.type = 0;
  return d;
}

// d3 of an otherwise empty valid descriptor: type 8 at 127:124, big_page at 123.
constexpr uint32_t kValidD3 = 0x88000000u;

DescriptorWords single_bit(unsigned bit) {
  DescriptorWords words{};
  words[bit / 32] = 1u << (bit % 32);
  return words;
}

TEST(Descriptor, DefaultIsValidTypeEightBigPage) {
  const Descriptor d;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, kValidD3}));
  EXPECT_EQ(d.faults(), static_cast<uint32_t>(kDescriptorOk));
  EXPECT_TRUE(d.valid());
}

// Each field filled with ones lands exactly on its bits (hand-written words).
TEST(Descriptor, EachFieldPacksAtItsBitPositions) {
  Descriptor d = zero_descriptor();
  d.base_256b = 0xffffffffffull;
  EXPECT_EQ(d.pack(), (DescriptorWords{0xffffffffu, 0x000000ffu, 0, 0}));
  d = zero_descriptor();
  d.reserved_54_40 = 0x7fff;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0x007fff00u, 0, 0}));
  d = zero_descriptor();
  d.box_grow_ulps = 0xff;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0x7f800000u, 0, 0}));
  d = zero_descriptor();
  d.box_sort = true;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0x80000000u, 0, 0}));
  d = zero_descriptor();
  d.size_units = (uint64_t{1} << 42) - 1;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0xffffffffu, 0x000003ffu}));
  d = zero_descriptor();
  d.reserved_119_106 = 0x3fff;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, 0x00fffc00u}));
  d = zero_descriptor();
  d.return_mode = 1;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, 0x01000000u}));
  d = zero_descriptor();
  d.reserved_122_121 = 3;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, 0x06000000u}));
  d = zero_descriptor();
  d.big_page = true;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, 0x08000000u}));
  d = zero_descriptor();
  d.type = 0xf;
  EXPECT_EQ(d.pack(), (DescriptorWords{0, 0, 0, 0xf0000000u}));
}

// Every one of the 128 bits belongs to exactly one field, at the offset the
// contract's table gives.
TEST(Descriptor, EveryBitUnpacksIntoItsField) {
  struct Field {
    unsigned lsb, width;
  };
  const Field kBase{0, 40}, kRes54{40, 15}, kGrow{55, 8}, kSize{64, 42}, kRes119{106, 14},
      kRes122{121, 2}, kType{124, 4};
  const auto expected = [](const Field& f, unsigned bit) -> uint64_t {
    return bit >= f.lsb && bit < f.lsb + f.width ? uint64_t{1} << (bit - f.lsb) : 0;
  };
  for (unsigned bit = 0; bit < 128; ++bit) {
    SCOPED_TRACE(testing::Message() << "bit " << bit);
    const Descriptor d = Descriptor::unpack(single_bit(bit));
    EXPECT_EQ(d.base_256b, expected(kBase, bit));
    EXPECT_EQ(d.reserved_54_40, expected(kRes54, bit));
    EXPECT_EQ(d.box_grow_ulps, expected(kGrow, bit));
    EXPECT_EQ(d.box_sort, bit == 63);
    EXPECT_EQ(d.size_units, expected(kSize, bit));
    EXPECT_EQ(d.reserved_119_106, expected(kRes119, bit));
    EXPECT_EQ(d.return_mode, bit == 120 ? 1u : 0u);
    EXPECT_EQ(d.reserved_122_121, expected(kRes122, bit));
    EXPECT_EQ(d.big_page, bit == 123);
    EXPECT_EQ(d.type, expected(kType, bit));
  }
}

// A value too wide for its field must not spill into a neighbour (which
// could be a reserved field and fault the descriptor).
TEST(Descriptor, PackMasksEachFieldToItsWidth) {
  Descriptor d = zero_descriptor();
  d.base_256b = (uint64_t{1} << 40) | 5;
  d.box_grow_ulps = 0x1ff;
  d.size_units = (uint64_t{1} << 42) | 7;
  d.type = 0x18;
  EXPECT_EQ(d.pack(), (DescriptorWords{5, 0x7f800000u, 7, 0x80000000u}));
}

TEST(Descriptor, PackUnpackRoundTripsRandomWords) {
  const uint32_t seed = 12345u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    DescriptorWords words;
    for (auto& word : words) word = static_cast<uint32_t>(rng());
    ASSERT_EQ(Descriptor::unpack(words).pack(), words) << "case " << i;
  }
}

TEST(Descriptor, UnpackPackRoundTripsRandomFields) {
  const uint32_t seed = 777u;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    Descriptor d;
    d.base_256b = rng() & 0xffffffffffull;
    d.reserved_54_40 = static_cast<uint32_t>(rng() & 0x7fff);
    d.box_grow_ulps = static_cast<uint32_t>(rng() & 0xff);
    d.box_sort = (rng() & 1) != 0;
    d.size_units = rng() & 0x3ffffffffffull;
    d.reserved_119_106 = static_cast<uint32_t>(rng() & 0x3fff);
    d.return_mode = static_cast<uint32_t>(rng() & 1);
    d.reserved_122_121 = static_cast<uint32_t>(rng() & 3);
    d.big_page = (rng() & 1) != 0;
    d.type = static_cast<uint32_t>(rng() & 0xf);
    const Descriptor back = Descriptor::unpack(d.pack());
    ASSERT_EQ(back.base_256b, d.base_256b) << "case " << i;
    ASSERT_EQ(back.reserved_54_40, d.reserved_54_40) << "case " << i;
    ASSERT_EQ(back.box_grow_ulps, d.box_grow_ulps) << "case " << i;
    ASSERT_EQ(back.box_sort, d.box_sort) << "case " << i;
    ASSERT_EQ(back.size_units, d.size_units) << "case " << i;
    ASSERT_EQ(back.reserved_119_106, d.reserved_119_106) << "case " << i;
    ASSERT_EQ(back.return_mode, d.return_mode) << "case " << i;
    ASSERT_EQ(back.reserved_122_121, d.reserved_122_121) << "case " << i;
    ASSERT_EQ(back.big_page, d.big_page) << "case " << i;
    ASSERT_EQ(back.type, d.type) << "case " << i;
  }
}

TEST(Descriptor, BaseAddressIsIn256ByteUnits) {
  Descriptor d;
  d.base_256b = 0xffffffffffull;
  EXPECT_EQ(d.base_address(), 0xffffffffff00ull);
}

// One flag per reserved range, for every bit of the range.
TEST(Descriptor, EachReservedBitRaisesItsFaultFlag) {
  const auto flag_for = [](unsigned bit) -> uint32_t {
    if (bit >= 40 && bit <= 54) return kReservedBits54To40;
    if (bit >= 106 && bit <= 119) return kReservedBits119To106;
    if (bit >= 121 && bit <= 122) return kReservedBits122To121;
    return kDescriptorOk;
  };
  for (unsigned bit = 0; bit < 124; ++bit) {
    DescriptorWords words = single_bit(bit);
    words[3] |= kValidD3;
    EXPECT_EQ(Descriptor::unpack(words).faults(), flag_for(bit)) << "bit " << bit;
  }
}

TEST(Descriptor, BigPageClearFaults) {
  EXPECT_EQ(Descriptor::unpack({0, 0, 0, 0x80000000u}).faults(), static_cast<uint32_t>(kBigPageNotSet));
}

TEST(Descriptor, TypeOtherThanEightFaults) {
  for (uint32_t type = 0; type < 16; ++type) {
    const DescriptorWords words{0, 0, 0, type << 28 | 0x08000000u};
    EXPECT_EQ(Descriptor::unpack(words).faults(), type == 8 ? 0u : static_cast<uint32_t>(kTypeNotEight))
        << "type " << type;
  }
}

TEST(Descriptor, SeveralFaultsAreAllReported) {
  const DescriptorWords words{0, 0x00000100u, 0, 0x02000400u};  // bits 40, 106, 121; type 0
  const uint32_t all = kReservedBits54To40 | kReservedBits119To106 | kReservedBits122To121 |
                       kBigPageNotSet | kTypeNotEight;
  EXPECT_EQ(Descriptor::unpack(words).faults(), all);
  EXPECT_EQ(describe_faults(all),
            "reserved bits 54:40 set, reserved bits 119:106 set, reserved bits 122:121 set, "
            "big_page (bit 123) clear, type (bits 127:124) != 8");
  EXPECT_EQ(describe_faults(kDescriptorOk), "valid");
}

// --- the fault's effect on intersect(): every active lane returns all ones --

constexpr uint64_t kSizeUnits = 15;

Ray ray_toward_plus_z() {
  Ray ray;
  ray.extent = 100.0f;
  ray.origin = {0.25f, 0.25f, -1.0f};
  ray.dir = {0.0f, 0.0f, 1.0f};
  ray.inv_dir = {1.0f, 1.0f, 1.0f};
  return ray;
}

// Unit 0: triangle hit by ray_toward_plus_z; unit 1: FP16 box node whose
// four children all contain that ray; units 2-3: the same as FP32.
MemoryImage make_memory() {
  MemoryImage memory;
  NodeBytes bytes{};
  TriangleNode triangle;
  triangle.vertex[0] = {0, 0, 0};
  triangle.vertex[1] = {1, 0, 0};
  triangle.vertex[2] = {0, 1, 0};
  triangle.id = 42;
  encode_triangle(triangle, bytes.data());
  memory.write(0, bytes.data(), 64);
  BoxNode box;
  for (int i = 0; i < 4; ++i) {
    box.child[i] = static_cast<uint32_t>(0x100 + i);
    box.box[i] = Aabb{{-1, -1, -1}, {1, 1, 1}};
  }
  encode_box16(box, bytes.data());
  memory.write(64, bytes.data(), 64);
  encode_box32(box, bytes.data());
  memory.write(128, bytes.data(), 128);
  return memory;
}

std::vector<LaneInput> active_lanes() {
  const Ray ray = ray_toward_plus_z();
  return {
      LaneInput::from_ray(ray, NodePtr::make(0, NodeType::kTriangle0).raw),
      LaneInput::from_ray(ray, NodePtr::make(1, NodeType::kBox16).raw),
      LaneInput::from_ray(ray, NodePtr::make(2, NodeType::kBox32).raw),
      LaneInput::from_ray(ray, NodePtr::make(0, NodeType::kReserved6).raw),
      LaneInput::from_ray(ray, NodePtr::make(kSizeUnits + 1, NodeType::kTriangle0).raw),
      LaneInput::from_ray(ray, NodePtr::make(1, NodeType::kBox16).raw, Opcode::kBvh64),
  };
}

void expect_fault_on_every_active_lane(const DescriptorWords& words, uint32_t flag) {
  const Descriptor descriptor = Descriptor::unpack(words);
  ASSERT_EQ(descriptor.faults(), flag);
  const MemoryImage memory = make_memory();
  const std::vector<LaneInput> lanes = active_lanes();
  for (size_t i = 0; i < lanes.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "lane " << i);
    const ref::LanePlan plan = ref::plan_lane(descriptor, lanes[i]);
    EXPECT_FALSE(plan.needs_fetch());  // nothing is fetched
    const LaneResult result = ref::intersect(descriptor, lanes[i], memory);
    EXPECT_TRUE(result.written);
    EXPECT_EQ(result.dwords, (std::array<uint32_t, 4>{~0u, ~0u, ~0u, ~0u}));
    EXPECT_EQ(result.outcome, LaneOutcome::kDescriptorFault);
  }
}

DescriptorWords valid_words() { return {0, 0, static_cast<uint32_t>(kSizeUnits), kValidD3}; }

// Sanity for the fault tests: with a valid descriptor the same lanes fetch.
TEST(Descriptor, ValidDescriptorLetsTheSameLanesRun) {
  const Descriptor descriptor = Descriptor::unpack(valid_words());
  const std::vector<LaneInput> lanes = active_lanes();
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[0]).outcome, LaneOutcome::kTriangle);
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[1]).outcome, LaneOutcome::kBoxNode);
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[2]).outcome, LaneOutcome::kBoxNode);
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[3]).outcome, LaneOutcome::kReservedType);
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[4]).outcome, LaneOutcome::kOutOfBounds);
  EXPECT_EQ(ref::plan_lane(descriptor, lanes[5]).outcome, LaneOutcome::kBoxNode);
}

TEST(Descriptor, ReservedBits54To40FaultEveryActiveLane) {
  for (unsigned bit : {40u, 54u}) {
    SCOPED_TRACE(testing::Message() << "bit " << bit);
    DescriptorWords words = valid_words();
    words[1] |= 1u << (bit - 32);
    expect_fault_on_every_active_lane(words, kReservedBits54To40);
  }
}

TEST(Descriptor, ReservedBits119To106FaultEveryActiveLane) {
  for (unsigned bit : {106u, 119u}) {
    SCOPED_TRACE(testing::Message() << "bit " << bit);
    DescriptorWords words = valid_words();
    words[3] |= 1u << (bit - 96);
    expect_fault_on_every_active_lane(words, kReservedBits119To106);
  }
}

TEST(Descriptor, ReservedBits122To121FaultEveryActiveLane) {
  for (unsigned bit : {121u, 122u}) {
    SCOPED_TRACE(testing::Message() << "bit " << bit);
    DescriptorWords words = valid_words();
    words[3] |= 1u << (bit - 96);
    expect_fault_on_every_active_lane(words, kReservedBits122To121);
  }
}

TEST(Descriptor, BigPageClearFaultsEveryActiveLane) {
  DescriptorWords words = valid_words();
  words[3] &= ~0x08000000u;
  expect_fault_on_every_active_lane(words, kBigPageNotSet);
}

TEST(Descriptor, TypeNotEightFaultsEveryActiveLane) {
  for (uint32_t type : {0u, 7u, 9u, 15u}) {
    SCOPED_TRACE(testing::Message() << "type " << type);
    DescriptorWords words = valid_words();
    words[3] = (words[3] & 0x0fffffffu) | type << 28;
    expect_fault_on_every_active_lane(words, kTypeNotEight);
  }
}

}  // namespace
}  // namespace td

// The golden reference of a vector memory load: the dwords read,
// little-endian, the rest 0; EXEC off writes nothing; a lane that leaves its
// 64-byte unit or reads no or more than four dwords is refused.
#include "model/ref/load.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

namespace td::ref {
namespace {

MemoryImage counting_bytes(uint64_t base, size_t count) {
  MemoryImage memory(MemoryImage::kMinPageBits);
  for (size_t i = 0; i < count; ++i) {
    const auto byte = static_cast<uint8_t>(i);
    memory.write(base + i, &byte, 1);
  }
  return memory;
}

TEST(LoadReference, ReadsLittleEndianDwordsAndZerosTheRest) {
  const MemoryImage memory = counting_bytes(0x1000, 256);
  const LaneResult two = load(LaneInput::load(0x1008, 2), memory);
  EXPECT_TRUE(two.written);
  EXPECT_EQ(two.outcome, LaneOutcome::kLoad);
  EXPECT_EQ(two.dwords, (std::array<uint32_t, 4>{0x0b0a0908u, 0x0f0e0d0cu, 0, 0}));
  const LaneResult four = load(LaneInput::load(0x1030, 4), memory);
  EXPECT_EQ(four.dwords, (std::array<uint32_t, 4>{0x33323130u, 0x37363534u, 0x3b3a3938u, 0x3f3e3d3cu}));
}

TEST(LoadReference, ReadsAtAnyByteInsideTheUnitAndUnwrittenBytesAsZero) {
  const MemoryImage memory = counting_bytes(0x1000, 64);
  EXPECT_EQ(load(LaneInput::load(0x1001, 1), memory).dwords[0], 0x04030201u);
  EXPECT_EQ(load(LaneInput::load(0x103c, 1), memory).dwords[0], 0x3f3e3d3cu);  // the unit's last dword
  const LaneResult unwritten = load(LaneInput::load(0x2000, 3), memory);
  EXPECT_TRUE(unwritten.written);
  EXPECT_EQ(unwritten.dwords, (std::array<uint32_t, 4>{}));
}

TEST(LoadReference, ExecOffWritesNothingWhateverItsOperands) {
  const MemoryImage memory = counting_bytes(0x1000, 64);
  EXPECT_FALSE(load(LaneInput::load(0x1000, 1, false), memory).written);
  EXPECT_FALSE(load(LaneInput::load(0x103f, 9, false), memory).written);
  EXPECT_EQ(load_lane_error(LaneInput::load(0x103f, 9, false)), "");
}

TEST(LoadReference, RefusesALaneLeavingItsUnitOrOfNoOrTooManyDwords) {
  const MemoryImage memory = counting_bytes(0x1000, 128);
  EXPECT_EQ(load_lane_error(LaneInput::load(0x1030, 4)), "");
  EXPECT_EQ(load_lane_error(LaneInput::load(0x1034, 4)), "load of 16 bytes at 0x1034 crosses a 64-byte unit");
  EXPECT_EQ(load_lane_error(LaneInput::load(0x103d, 1)), "load of 4 bytes at 0x103d crosses a 64-byte unit");
  EXPECT_EQ(load_lane_error(LaneInput::load(0x1000, 0)), "load of 0 dwords (must be 1 to 4)");
  EXPECT_EQ(load_lane_error(LaneInput::load(0x1000, 5)), "load of 5 dwords (must be 1 to 4)");
  // load_lane_ok() says the same without the words, at every offset and count.
  for (uint64_t address = 0x1000; address < 0x1040; ++address)
    for (uint32_t dwords = 0; dwords <= 5; ++dwords)
      for (const bool exec : {true, false}) {
        const LaneInput lane = LaneInput::load(address, dwords, exec);
        EXPECT_EQ(load_lane_ok(lane), load_lane_error(lane).empty()) << address << " " << dwords << " " << exec;
      }
  EXPECT_THROW(load(LaneInput::load(0x1034, 4), memory), std::invalid_argument);
  EXPECT_THROW(load(LaneInput::load(0x1000, 5), memory), std::invalid_argument);
}

TEST(LoadReference, TheResultFromFetchedBytesIsTheResultFromMemory) {
  const MemoryImage memory = counting_bytes(0x1000, 64);
  const std::array<uint8_t, 12> bytes{0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};
  EXPECT_TRUE(load_result(bytes.data(), 3).same_value(load(LaneInput::load(0x1014, 3), memory)));
}

}  // namespace
}  // namespace td::ref

// memory_image_test.cpp — the sparse memory that holds BVH nodes: unwritten
// bytes read as zero, accesses that straddle a 64 KiB page, and addresses
// anywhere in the 64-bit space (descriptor base * 256 + unit * 64 reaches far
// above 4 GiB).
#include "model/isa/memory_image.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace td {
namespace {

std::vector<uint8_t> pattern(size_t length, uint8_t start) {
  std::vector<uint8_t> bytes(length);
  for (size_t i = 0; i < length; ++i) bytes[i] = static_cast<uint8_t>(start + 7 * i);
  return bytes;
}

std::vector<uint8_t> read_back(const MemoryImage& memory, uint64_t address, size_t length) {
  std::vector<uint8_t> bytes(length, 0xcc);  // poisoned: every byte must be written by read()
  memory.read(address, bytes.data(), length);
  return bytes;
}

TEST(MemoryImage, UnwrittenMemoryReadsZero) {
  const MemoryImage memory;
  EXPECT_EQ(read_back(memory, 0, 128), std::vector<uint8_t>(128, 0));
  EXPECT_EQ(read_back(memory, 0xfffffffffff00000ull, 64), std::vector<uint8_t>(64, 0));
  EXPECT_EQ(memory.page_count(), 0u);  // reading allocates nothing
}

TEST(MemoryImage, WrittenBytesReadBack) {
  MemoryImage memory;
  const auto data = pattern(64, 1);
  memory.write(0x1000, data.data(), data.size());
  EXPECT_EQ(read_back(memory, 0x1000, 64), data);
  EXPECT_EQ(memory.page_count(), 1u);
}

TEST(MemoryImage, UnwrittenBytesOfAWrittenPageReadZero) {
  MemoryImage memory;
  const auto data = pattern(4, 0x10);
  memory.write(0x2002, data.data(), data.size());
  EXPECT_EQ(read_back(memory, 0x2000, 8), (std::vector<uint8_t>{0, 0, data[0], data[1], data[2], data[3], 0, 0}));
}

TEST(MemoryImage, WriteAndReadAcrossA64KiBPageBoundary) {
  MemoryImage memory;
  const uint64_t address = 0x1ffc0;  // a 128-byte FP32 box node straddling 0x20000
  const auto data = pattern(128, 3);
  memory.write(address, data.data(), data.size());
  EXPECT_EQ(memory.page_count(), 2u);
  EXPECT_EQ(read_back(memory, address, 128), data);
  // Each half is where it should be on its own page.
  EXPECT_EQ(read_back(memory, 0x20000, 64), std::vector<uint8_t>(data.begin() + 64, data.end()));
  EXPECT_EQ(read_back(memory, 0x1ffc0, 64), std::vector<uint8_t>(data.begin(), data.begin() + 64));
}

TEST(MemoryImage, ReadAcrossIntoAnUnwrittenPageGivesZeros) {
  MemoryImage memory;
  const auto data = pattern(16, 9);
  memory.write(0xfff0, data.data(), data.size());  // last 16 bytes of page 0
  std::vector<uint8_t> expected = data;
  expected.resize(32, 0);
  EXPECT_EQ(read_back(memory, 0xfff0, 32), expected);
}

TEST(MemoryImage, HighAddressesAreDistinctFromLowOnes) {
  MemoryImage memory;
  const auto low = pattern(64, 0x20);
  const auto high = pattern(64, 0x80);
  const uint64_t high_address = (uint64_t{1} << 48) + 0x40;  // beyond any 32-bit address
  memory.write(0x40, low.data(), low.size());
  memory.write(high_address, high.data(), high.size());
  EXPECT_EQ(read_back(memory, 0x40, 64), low);
  EXPECT_EQ(read_back(memory, high_address, 64), high);
  // Same low 32 bits, different high bits: must not alias.
  EXPECT_EQ(read_back(memory, (uint64_t{1} << 32) + 0x40, 64), std::vector<uint8_t>(64, 0));
}

TEST(MemoryImage, TopOfTheAddressSpace) {
  MemoryImage memory;
  const auto data = pattern(64, 0x55);
  memory.write(0xffffffffffffffc0ull, data.data(), data.size());
  EXPECT_EQ(read_back(memory, 0xffffffffffffffc0ull, 64), data);
  EXPECT_EQ(read_back(memory, 0, 64), std::vector<uint8_t>(64, 0));
}

// memory_image.cpp documents that addresses wrap at 2^64.
TEST(MemoryImage, AccessPastTopWrapsToZero) {
  MemoryImage memory;
  const auto data = pattern(8, 0x70);
  memory.write(0xfffffffffffffffcull, data.data(), data.size());
  EXPECT_EQ(read_back(memory, 0, 4), std::vector<uint8_t>(data.begin() + 4, data.end()));
  EXPECT_EQ(read_back(memory, 0xfffffffffffffffcull, 8), data);
}

TEST(MemoryImage, OverwriteChangesOnlyTheWrittenBytes) {
  MemoryImage memory;
  const auto first = pattern(16, 1);
  memory.write(0x100, first.data(), first.size());
  const uint8_t patch[2] = {0xee, 0xff};
  memory.write(0x104, patch, 2);
  std::vector<uint8_t> expected = first;
  expected[4] = 0xee;
  expected[5] = 0xff;
  EXPECT_EQ(read_back(memory, 0x100, 16), expected);
}

// view(): the node-fetch fast path. Inside one page it points into the
// page; across a page boundary it copies into the caller's scratch.
TEST(MemoryImage, ViewWithinAPageSeesWrittenBytes) {
  MemoryImage memory;
  const auto data = pattern(64, 0x31);
  memory.write(0x30040, data.data(), data.size());
  uint8_t scratch[128] = {};
  const uint8_t* view = memory.view(0x30040, 64, scratch);
  EXPECT_EQ(std::vector<uint8_t>(view, view + 64), data);
}

TEST(MemoryImage, ViewOfUnwrittenMemoryIsZero) {
  const MemoryImage memory;
  uint8_t scratch[128];
  for (auto& b : scratch) b = 0xcc;
  const uint8_t* view = memory.view(0x7000000000ull, 128, scratch);
  EXPECT_EQ(std::vector<uint8_t>(view, view + 128), std::vector<uint8_t>(128, 0));
}

TEST(MemoryImage, ViewAcrossA64KiBPageBoundary) {
  MemoryImage memory;
  const auto data = pattern(128, 0x42);
  memory.write(0x2ffc0, data.data(), data.size());
  uint8_t scratch[128] = {};
  const uint8_t* view = memory.view(0x2ffc0, 128, scratch);
  EXPECT_EQ(std::vector<uint8_t>(view, view + 128), data);
}

TEST(MemoryImage, ClearForgetsEverything) {
  MemoryImage memory;
  const auto data = pattern(16, 1);
  memory.write(0x100, data.data(), data.size());
  memory.clear();
  EXPECT_EQ(memory.page_count(), 0u);
  EXPECT_EQ(memory.resident_bytes(), 0u);
  EXPECT_EQ(read_back(memory, 0x100, 16), std::vector<uint8_t>(16, 0));
}

}  // namespace
}  // namespace td

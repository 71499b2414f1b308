// memory_image.h — sparse, byte-addressable 64-bit memory holding BVH nodes.
// Backed by fixed-size pages found through an open-addressing table (power-
// of-two size, multiplicative hash: no division on the lookup path, which
// every node fetch of every engine takes). Unwritten bytes read as zero.
// The page size is chosen per image: 64 KiB (the console's page) for a BVH
// that fills memory densely; small pages for the scattered single nodes of
// reference vectors, where a 64 KiB page per case would be almost all zeros.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace td {

class MemoryImage {
 public:
  static constexpr unsigned kDefaultPageBits = 16;  // 64 KiB pages: the console's page size
  static constexpr unsigned kMinPageBits = 7;       // 128 B: one FP32 box node
  static constexpr unsigned kMaxPageBits = 16;

  // page_bits in kMinPageBits..kMaxPageBits (std::invalid_argument otherwise).
  explicit MemoryImage(unsigned page_bits = kDefaultPageBits);

  void write(uint64_t address, const uint8_t* data, size_t length);
  void read(uint64_t address, uint8_t* out, size_t length) const;

  // Pointer to `length` bytes at `address`: straight into the page when the
  // range lies within one page (no copy: the hot path of node fetch), else a
  // copy in `scratch` (at least `length` bytes). Valid until the next write.
  const uint8_t* view(uint64_t address, size_t length, uint8_t* scratch) const;

  void clear();
  size_t page_count() const { return pages_.size(); }
  size_t resident_bytes() const { return pages_.size() * page_bytes(); }
  size_t page_bytes() const { return size_t{1} << page_bits_; }

 private:
  struct Slot {
    uint64_t page_index = 0;
    uint8_t* page = nullptr;  // nullptr: empty slot
  };

  uint8_t* page_for_write(uint64_t page_index);
  uint8_t* find_page(uint64_t page_index) const;  // nullptr: never written
  size_t home_slot(uint64_t page_index) const;
  void grow();

  unsigned page_bits_;
  uint64_t offset_mask_;                            // page_bytes() - 1
  std::vector<std::unique_ptr<uint8_t[]>> pages_;  // owners, zero-filled when made
  std::vector<Slot> table_;                   // size: 0 or a power of two, at most half full
};

}  // namespace td

// memory_image.h — sparse, byte-addressable 64-bit memory holding BVH nodes.
// Backed by fixed-size pages found through an open-addressing table (power-
// of-two size, multiplicative hash: no division on the lookup path, which
// every node fetch of every engine takes). Unwritten bytes read as zero.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace td {

class MemoryImage {
 public:
  static constexpr unsigned kPageBits = 16;  // 64 KiB pages: the console's page size
  static constexpr uint64_t kPageBytes = uint64_t{1} << kPageBits;

  void write(uint64_t address, const uint8_t* data, size_t length);
  void read(uint64_t address, uint8_t* out, size_t length) const;

  // Pointer to `length` bytes at `address`: straight into the page when the
  // range lies within one page (no copy: the hot path of node fetch), else a
  // copy in `scratch` (at least `length` bytes). Valid until the next write.
  const uint8_t* view(uint64_t address, size_t length, uint8_t* scratch) const;

  void clear();
  size_t page_count() const { return pages_.size(); }
  size_t resident_bytes() const { return pages_.size() * kPageBytes; }

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  struct Slot {
    uint64_t page_index = 0;
    Page* page = nullptr;  // nullptr: empty slot
  };

  Page& page_for_write(uint64_t page_index);
  Page* find_page(uint64_t page_index) const;  // nullptr: never written
  size_t home_slot(uint64_t page_index) const;
  void grow();

  std::vector<std::unique_ptr<Page>> pages_;  // owners
  std::vector<Slot> table_;                   // size: 0 or a power of two, at most half full
};

}  // namespace td

// memory_image.h — sparse, byte-addressable 64-bit memory holding BVH nodes.
// Backed by fixed-size pages in a hash map: a node read is one or two page
// lookups, never a per-byte map walk. Unwritten bytes read as zero.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

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

  void clear() { pages_.clear(); }
  size_t page_count() const { return pages_.size(); }
  size_t resident_bytes() const { return pages_.size() * kPageBytes; }

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  Page& page_for_write(uint64_t page_index);
  const Page* page_for_read(uint64_t page_index) const;

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace td

#include "model/isa/memory_image.h"

#include <algorithm>
#include <cstring>

namespace td {

MemoryImage::Page& MemoryImage::page_for_write(uint64_t page_index) {
  auto& slot = pages_[page_index];
  if (!slot) {
    slot = std::make_unique<Page>();
    slot->fill(0);
  }
  return *slot;
}

const MemoryImage::Page* MemoryImage::page_for_read(uint64_t page_index) const {
  const auto it = pages_.find(page_index);
  return it == pages_.end() ? nullptr : it->second.get();
}

void MemoryImage::write(uint64_t address, const uint8_t* data, size_t length) {
  while (length > 0) {
    const uint64_t offset = address & (kPageBytes - 1);
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(length, kPageBytes - offset));
    std::memcpy(page_for_write(address >> kPageBits).data() + offset, data, chunk);
    address += chunk;  // wraps at 2^64 like the hardware address would
    data += chunk;
    length -= chunk;
  }
}

void MemoryImage::read(uint64_t address, uint8_t* out, size_t length) const {
  while (length > 0) {
    const uint64_t offset = address & (kPageBytes - 1);
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(length, kPageBytes - offset));
    const Page* page = page_for_read(address >> kPageBits);
    if (page)
      std::memcpy(out, page->data() + offset, chunk);
    else
      std::memset(out, 0, chunk);
    address += chunk;
    out += chunk;
    length -= chunk;
  }
}

const uint8_t* MemoryImage::view(uint64_t address, size_t length, uint8_t* scratch) const {
  static const Page kZeroPage{};
  const uint64_t offset = address & (kPageBytes - 1);
  if (offset + length > kPageBytes) {
    read(address, scratch, length);
    return scratch;
  }
  const Page* page = page_for_read(address >> kPageBits);
  return (page ? page->data() : kZeroPage.data()) + offset;
}

}  // namespace td

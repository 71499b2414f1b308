#include "model/isa/memory_image.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace td {

MemoryImage::MemoryImage(unsigned page_bits) : page_bits_(page_bits), offset_mask_((uint64_t{1} << page_bits) - 1) {
  if (page_bits < kMinPageBits || page_bits > kMaxPageBits)
    throw std::invalid_argument("MemoryImage: page_bits must be 7..16, got " + std::to_string(page_bits));
}

size_t MemoryImage::home_slot(uint64_t page_index) const {
  // Fibonacci hashing: the top bits of the product index the table.
  return static_cast<size_t>((page_index * 0x9e3779b97f4a7c15ull) >> 32) & (table_.size() - 1);
}

uint8_t* MemoryImage::find_page(uint64_t page_index) const {
  if (table_.empty()) return nullptr;
  for (size_t i = home_slot(page_index);; i = (i + 1) & (table_.size() - 1)) {
    const Slot& slot = table_[i];
    if (!slot.page) return nullptr;
    if (slot.page_index == page_index) return slot.page;
  }
}

void MemoryImage::grow() {
  std::vector<Slot> old = std::move(table_);
  table_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
  for (const Slot& slot : old) {
    if (!slot.page) continue;
    size_t i = home_slot(slot.page_index);
    while (table_[i].page) i = (i + 1) & (table_.size() - 1);
    table_[i] = slot;
  }
}

uint8_t* MemoryImage::page_for_write(uint64_t page_index) {
  if (uint8_t* existing = find_page(page_index)) return existing;
  if (2 * (pages_.size() + 1) > table_.size()) grow();
  pages_.push_back(std::make_unique<uint8_t[]>(page_bytes()));  // value-initialised: zeros
  uint8_t* page = pages_.back().get();
  size_t i = home_slot(page_index);
  while (table_[i].page) i = (i + 1) & (table_.size() - 1);
  table_[i] = Slot{page_index, page};
  return page;
}

void MemoryImage::clear() {
  pages_.clear();
  table_.clear();
}

void MemoryImage::write(uint64_t address, const uint8_t* data, size_t length) {
  while (length > 0) {
    const uint64_t offset = address & offset_mask_;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(length, page_bytes() - offset));
    std::memcpy(page_for_write(address >> page_bits_) + offset, data, chunk);
    address += chunk;  // wraps at 2^64 like the hardware address would
    data += chunk;
    length -= chunk;
  }
}

void MemoryImage::read(uint64_t address, uint8_t* out, size_t length) const {
  while (length > 0) {
    const uint64_t offset = address & offset_mask_;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(length, page_bytes() - offset));
    const uint8_t* page = find_page(address >> page_bits_);
    if (page)
      std::memcpy(out, page + offset, chunk);
    else
      std::memset(out, 0, chunk);
    address += chunk;
    out += chunk;
    length -= chunk;
  }
}

const uint8_t* MemoryImage::view(uint64_t address, size_t length, uint8_t* scratch) const {
  static const std::array<uint8_t, uint64_t{1} << kMaxPageBits> kZeroPage{};
  const uint64_t offset = address & offset_mask_;
  if (offset + length > page_bytes()) {
    read(address, scratch, length);
    return scratch;
  }
  const uint8_t* page = find_page(address >> page_bits_);
  return (page ? page : kZeroPage.data()) + offset;
}

}  // namespace td

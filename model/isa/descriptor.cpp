#include "model/isa/descriptor.h"

namespace td {

namespace {

// Bits [lsb, lsb+width) of the 128-bit little-endian value held in `words`.
uint64_t field(const DescriptorWords& words, unsigned lsb, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    value |= static_cast<uint64_t>((words[bit / 32] >> (bit % 32)) & 1u) << i;
  }
  return value;
}

void set_field(DescriptorWords& words, unsigned lsb, unsigned width, uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    if ((value >> i) & 1u) words[bit / 32] |= 1u << (bit % 32);
  }
}

constexpr uint64_t mask(unsigned width) { return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace

Descriptor Descriptor::unpack(const DescriptorWords& words) {
  Descriptor d;
  d.base_256b = field(words, 0, 40);
  d.reserved_54_40 = static_cast<uint32_t>(field(words, 40, 15));
  d.box_grow_ulps = static_cast<uint32_t>(field(words, 55, 8));
  d.box_sort = field(words, 63, 1) != 0;
  d.size_units = field(words, 64, 42);
  d.reserved_119_106 = static_cast<uint32_t>(field(words, 106, 14));
  d.return_mode = static_cast<uint32_t>(field(words, 120, 1));
  d.reserved_122_121 = static_cast<uint32_t>(field(words, 121, 2));
  d.big_page = field(words, 123, 1) != 0;
  d.type = static_cast<uint32_t>(field(words, 124, 4));
  return d;
}

DescriptorWords Descriptor::pack() const {
  DescriptorWords words{};
  set_field(words, 0, 40, base_256b & mask(40));
  set_field(words, 40, 15, reserved_54_40 & mask(15));
  set_field(words, 55, 8, box_grow_ulps & mask(8));
  set_field(words, 63, 1, box_sort ? 1 : 0);
  set_field(words, 64, 42, size_units & mask(42));
  set_field(words, 106, 14, reserved_119_106 & mask(14));
  set_field(words, 120, 1, return_mode & 1u);
  set_field(words, 121, 2, reserved_122_121 & mask(2));
  set_field(words, 123, 1, big_page ? 1 : 0);
  set_field(words, 124, 4, type & mask(4));
  return words;
}

uint32_t Descriptor::faults() const {
  uint32_t result = kDescriptorOk;
  if (reserved_54_40 != 0) result |= kReservedBits54To40;
  if (reserved_119_106 != 0) result |= kReservedBits119To106;
  if (reserved_122_121 != 0) result |= kReservedBits122To121;
  if (!big_page) result |= kBigPageNotSet;
  if (type != 8) result |= kTypeNotEight;
  return result;
}

std::string describe_faults(uint32_t faults) {
  static const struct {
    uint32_t flag;
    const char* text;
  } kNames[] = {
      {kReservedBits54To40, "reserved bits 54:40 set"},
      {kReservedBits119To106, "reserved bits 119:106 set"},
      {kReservedBits122To121, "reserved bits 122:121 set"},
      {kBigPageNotSet, "big_page (bit 123) clear"},
      {kTypeNotEight, "type (bits 127:124) != 8"},
  };
  std::string text;
  for (const auto& entry : kNames) {
    if ((faults & entry.flag) == 0) continue;
    if (!text.empty()) text += ", ";
    text += entry.text;
  }
  return text.empty() ? "valid" : text;
}

}  // namespace td

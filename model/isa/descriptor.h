// descriptor.h — the 128-bit BVH resource descriptor (sgpr_resource[4]).
// Unpacking keeps every bit, reserved ones included, so that pack(unpack(w))
// == w for any four dwords and validation can name the field that is wrong.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace td {

using DescriptorWords = std::array<uint32_t, 4>;

// Reasons a descriptor breaks a "must" of the contract (bit flags: a
// descriptor may break several at once).
enum DescriptorFault : uint32_t {
  kDescriptorOk = 0,
  kReservedBits54To40 = 1u << 0,
  kReservedBits119To106 = 1u << 1,
  kReservedBits122To121 = 1u << 2,
  kBigPageNotSet = 1u << 3,
  kTypeNotEight = 1u << 4,
};

struct Descriptor {
  uint64_t base_256b = 0;        // bits 39:0, node base address in 256-byte units
  uint32_t reserved_54_40 = 0;   // 15 bits, must be 0
  uint32_t box_grow_ulps = 0;    // bits 62:55
  bool box_sort = false;         // bit 63
  uint64_t size_units = 0;       // bits 105:64, 64-byte node units minus 1
  uint32_t reserved_119_106 = 0; // 14 bits, must be 0
  uint32_t return_mode = 0;      // bit 120
  uint32_t reserved_122_121 = 0; // 2 bits, must be 0
  bool big_page = true;          // bit 123, must be 1
  uint32_t type = 8;             // bits 127:124, must be 8

  static Descriptor unpack(const DescriptorWords& words);
  DescriptorWords pack() const;

  // kDescriptorOk or an OR of DescriptorFault flags.
  uint32_t faults() const;
  bool valid() const { return faults() == kDescriptorOk; }

  uint64_t base_address() const { return base_256b * 256; }

  friend bool operator==(const Descriptor& a, const Descriptor& b) { return a.pack() == b.pack(); }
  friend bool operator!=(const Descriptor& a, const Descriptor& b) { return !(a == b); }
};

// "reserved bits 54:40 set, type != 8" for messages and reports.
std::string describe_faults(uint32_t faults);

}  // namespace td

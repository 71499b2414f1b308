#include "model/rtl/ports.h"

#include <algorithm>
#include <cstring>

#include "model/isa/fp32.h"

namespace td::rtl {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the ports take the node's bytes as little-endian words");

namespace {

// `bytes` (zero past `size`) into a Verilated wide port, byte k at bit 8k:
// the host is little-endian, like the port's 32-bit words. One copy of a
// fixed size, not a call per word.
template <size_t Words, typename Port>
void drive_bytes(Port& port, const uint8_t* bytes, size_t size) {
  uint8_t padded[4 * Words] = {};
  std::memcpy(padded, bytes, std::min(size, sizeof padded));
  std::memcpy(port.data(), padded, sizeof padded);
}

template <typename Port>
void drive_vec3(Port& port, const Vec3& v) {
  for (int a = 0; a < 3; ++a) port[a] = bits_of(v[a]);
}

template <typename Port>
std::array<uint32_t, 4> dwords_of(const Port& port) {
  return {port[0], port[1], port[2], port[3]};
}

}  // namespace

void drive_box(Vtd_box_datapath& unit, const uint8_t* node, uint32_t node_bytes, bool fp16, const Ray& ray,
               uint32_t box_grow_ulps) {
  unit.in_fp16_i = fp16;
  drive_bytes<28>(unit.in_node_i, node, node_bytes);  // bytes 0..111
  drive_vec3(unit.in_origin_i, ray.origin);
  drive_vec3(unit.in_inv_dir_i, ray.inv_dir);
  unit.in_extent_i = bits_of(ray.extent);
  unit.in_grow_ulps_i = static_cast<uint8_t>(box_grow_ulps);
}

ref::BoxTestResult box_tests(const Vtd_box_datapath& unit) {
  ref::BoxTestResult tests;
  for (int i = 0; i < 4; ++i) {
    tests.hit[i] = (unit.out_hit_o >> i) & 1u;
    tests.key[i] = float_of(unit.out_key_o[i]);
  }
  return tests;
}

std::array<uint32_t, 4> box_children(const Vtd_box_datapath& unit) { return dwords_of(unit.out_child_o); }

void drive_sort(Vtd_sort4& unit, const std::array<uint32_t, 4>& child, const ref::BoxTestResult& tests, bool box_sort) {
  unit.in_sort_i = box_sort;
  uint8_t hits = 0;
  for (int i = 0; i < 4; ++i) {
    hits = static_cast<uint8_t>(hits | (tests.hit[i] ? 1u << i : 0u));
    unit.in_key_i[i] = bits_of(tests.key[i]);
    unit.in_child_i[i] = child[i];
  }
  unit.in_hit_i = hits;
}

std::array<uint32_t, 4> sorted_children(const Vtd_sort4& unit) { return dwords_of(unit.out_child_o); }

void drive_triangle(Vtd_tri_datapath& unit, const uint8_t* node, uint32_t t, uint32_t return_mode, const Ray& ray) {
  drive_bytes<16>(unit.in_node_i, node, 64);
  unit.in_triangle_i = static_cast<uint8_t>(t & 3u);
  unit.in_return_mode_i = return_mode != 0;
  drive_vec3(unit.in_origin_i, ray.origin);
  drive_vec3(unit.in_dir_i, ray.dir);
  drive_vec3(unit.in_inv_dir_i, ray.inv_dir);
  unit.in_extent_i = bits_of(ray.extent);
}

std::array<uint32_t, 4> triangle_dwords(const Vtd_tri_datapath& unit) { return dwords_of(unit.out_dwords_o); }

}  // namespace td::rtl

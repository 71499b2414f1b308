#include "model/isa/lane.h"

#include <cstdio>

#include "model/isa/fp32.h"
#include "model/isa/half.h"

namespace td {

Ray LaneInput::ray() const {
  Ray ray;
  ray.extent = float_of(ray_dwords[0]);
  for (int a = 0; a < 3; ++a) ray.origin[a] = float_of(ray_dwords[1 + a]);
  if (!a16) {
    for (int a = 0; a < 3; ++a) {
      ray.dir[a] = float_of(ray_dwords[4 + a]);
      ray.inv_dir[a] = float_of(ray_dwords[7 + a]);
    }
    return ray;
  }
  // w0 = dir.x | dir.y<<16, w1 = dir.z | inv.x<<16, w2 = inv.y | inv.z<<16
  const auto half = [&](int index) {
    const uint32_t word = ray_dwords[4 + index / 2];
    return half_to_float(static_cast<uint16_t>(index % 2 ? word >> 16 : word & 0xffffu));
  };
  for (int a = 0; a < 3; ++a) {
    ray.dir[a] = half(a);
    ray.inv_dir[a] = half(3 + a);
  }
  return ray;
}

LaneInput LaneInput::from_ray(const Ray& ray, uint64_t node_ptr, Opcode op) {
  LaneInput lane;
  lane.op = op;
  lane.node_ptr = node_ptr;
  lane.ray_dwords[0] = bits_of(ray.extent);
  for (int a = 0; a < 3; ++a) {
    lane.ray_dwords[1 + a] = bits_of(ray.origin[a]);
    lane.ray_dwords[4 + a] = bits_of(ray.dir[a]);
    lane.ray_dwords[7 + a] = bits_of(ray.inv_dir[a]);
  }
  return lane;
}

LaneInput LaneInput::from_a16(float extent, const Vec3& origin, const std::array<uint16_t, 3>& dir,
                              const std::array<uint16_t, 3>& inv_dir, uint64_t node_ptr, Opcode op) {
  LaneInput lane;
  lane.op = op;
  lane.a16 = true;
  lane.node_ptr = node_ptr;
  lane.ray_dwords[0] = bits_of(extent);
  for (int a = 0; a < 3; ++a) lane.ray_dwords[1 + a] = bits_of(origin[a]);
  lane.ray_dwords[4] = dir[0] | static_cast<uint32_t>(dir[1]) << 16;
  lane.ray_dwords[5] = dir[2] | static_cast<uint32_t>(inv_dir[0]) << 16;
  lane.ray_dwords[6] = inv_dir[1] | static_cast<uint32_t>(inv_dir[2]) << 16;
  return lane;
}

LaneInput LaneInput::load(uint64_t address, uint32_t dwords, bool exec) {
  LaneInput lane;
  lane.exec = exec;
  lane.load_dwords = static_cast<uint8_t>(dwords);
  lane.node_ptr = address;
  return lane;
}

const char* outcome_name(LaneOutcome outcome) {
  switch (outcome) {
    case LaneOutcome::kInactive: return "inactive";
    case LaneOutcome::kDescriptorFault: return "descriptor_fault";
    case LaneOutcome::kReservedType: return "reserved_type";
    case LaneOutcome::kOutOfBounds: return "out_of_bounds";
    case LaneOutcome::kBoxNode: return "box_node";
    case LaneOutcome::kTriangle: return "triangle";
    case LaneOutcome::kLoad: return "load";
  }
  return "unknown";
}

std::string format_result(const LaneResult& result) {
  if (!result.written) return "none";
  char text[4 * 9];
  std::snprintf(text, sizeof text, "%08x,%08x,%08x,%08x", result.dwords[0], result.dwords[1], result.dwords[2],
                result.dwords[3]);
  return text;
}

}  // namespace td

#include "tb/traversal/hit_shading.h"

#include <algorithm>
#include <stdexcept>

namespace td::traversal {

namespace {

uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// Triangles of a BVH's mesh: one more than the highest primitive its slots name.
uint64_t mesh_triangles(const scene::BvhLayout& layout) {
  uint64_t count = 0;
  for (const uint32_t primitive : layout.slot_primitive)
    if (primitive != scene::kNoPrimitive) count = std::max<uint64_t>(count, uint64_t{primitive} + 1);
  return count;
}

}  // namespace

ShadingLayout::ShadingLayout(const scene::EncodedBvh& bvh, const HitShading& shading)
    : two_level_(bvh.two_level()), texture_bytes_(shading.texture_bytes) {
  if (texture_bytes_ < kLoadBytes || texture_bytes_ % kLoadBytes != 0)
    throw std::invalid_argument("hit shading: a texture must be a whole number of 16-byte blocks");
  if (two_level_) {
    uint32_t instances = 0;
    for (const uint32_t index : bvh.instance_index) instances = std::max(instances, index + 1);
    blas_of_instance_.assign(instances, 0);
    for (size_t ordinal = 0; ordinal < bvh.instance_index.size(); ++ordinal)
      blas_of_instance_[bvh.instance_index[ordinal]] = bvh.instance_blas[ordinal];
  }
  uint64_t next = align_up(bvh.descriptor.base_address() + (bvh.descriptor.size_units + 1) * kNodeUnitBytes, kAlignment);
  const auto place = [&](const scene::BvhLayout& layout) {
    attribute_base_.push_back(next);
    next = align_up(next + mesh_triangles(layout) * kAttributeBytesPerTriangle, kAlignment);
    texture_base_.push_back(next);
    next = align_up(next + shading.texture_loads * texture_bytes_, kAlignment);
  };
  if (two_level_)
    for (const scene::BvhLayout& blas : bvh.blases) place(blas);
  else
    place(bvh);
  end_ = next;
}

}  // namespace td::traversal

// hit_shading.h — the closest-hit shading a wave of the traversal shader
// does once its traversal is done, and where that shading's loads go.
//
// A title's ray-tracing pass shades what its rays hit: once every lane of a
// wave has finished its walk, the lanes whose ray hit fetch their
// triangle's vertex attributes (normal, texture coordinates), then sample
// the material's textures at the interpolated coordinates, then do the
// lighting arithmetic. Those loads take the TD's L0, L1 and L2 with the
// BVH's nodes (RGP's cache counters count both); a traversal-only shader
// leaves the caches to the BVH alone.
//
// The model of it, per lane whose ray hit:
//   1. `attribute_loads` 16-byte loads of its triangle's vertices (up to
//      3), back to back; the wave waits for them (the coordinates feed the
//      samples' addresses);
//   2. `texture_loads` 16-byte loads, one block of each of as many
//      textures (a BC7 block: 4x4 texels in 16 bytes, what one bilinear
//      sample of a block-compressed texture reads at its mip level);
//      the wave waits for them;
//   3. `alu_instructions` of VALU work on its SIMD; then the wave ends.
// Where (ShadingLayout): above the BVH's bytes, each BLAS (one-level: the
// one BVH) has an unindexed attribute stream, 48 bytes a triangle (three
// vertices of 16 bytes, in the mesh's triangle order), and its textures,
// `texture_kib` each, one after the other. A hit at barycentrics (u, v)
// of triangle p reads block 4 p + q of each texture, q the quarter of the
// triangle (u > v, u + v > 1/2) it lies in, wrapped at the texture's size:
// a mesh's triangles map to its textures in their order, as a UV atlas of
// a mesh laid out along its triangles would. The attributes and textures
// are not stored: the loads read zeros (timing needs their addresses only).
#pragma once

#include <cstdint>
#include <vector>

#include "tb/scene/encoded_bvh.h"
#include "tb/scene/scene_ray.h"

namespace td::traversal {

struct HitShading {
  uint32_t attribute_loads = 0;  // 0..3
  uint32_t texture_loads = 0;    // 0..16
  uint64_t texture_bytes = 0;    // each texture's
  uint32_t alu_instructions = 0;
  bool on() const { return attribute_loads + texture_loads + alu_instructions > 0; }
};

class ShadingLayout {
 public:
  static constexpr uint32_t kLoadBytes = 16;
  static constexpr uint32_t kAttributeBytesPerTriangle = 3 * kLoadBytes;
  static constexpr uint64_t kAlignment = uint64_t{1} << 20;  // each region from a 1 MiB boundary

  ShadingLayout() = default;
  ShadingLayout(const scene::EncodedBvh& bvh, const HitShading& shading);

  // The first vertex's attributes of the hit's triangle (the k-th vertex's at + 16 k).
  uint64_t attribute_address(const scene::RayHit& hit) const {
    return attribute_base_[blas_of(hit)] + uint64_t{hit.primitive} * kAttributeBytesPerTriangle;
  }
  // The hit's block of the BLAS's first texture (the t-th texture's at + t * texture_bytes).
  uint64_t texture_address(const scene::RayHit& hit) const {
    const uint64_t quarter = (hit.u > hit.v ? 1u : 0u) + (hit.u + hit.v > 0.5f ? 2u : 0u);
    return texture_base_[blas_of(hit)] + (uint64_t{hit.primitive} * 4 + quarter) * kLoadBytes % texture_bytes_;
  }
  uint64_t texture_bytes() const { return texture_bytes_; }
  // The first byte above every region (the image's top plus the shading's).
  uint64_t end() const { return end_; }

 private:
  uint32_t blas_of(const scene::RayHit& hit) const { return two_level_ ? blas_of_instance_[hit.instance] : 0; }

  bool two_level_ = false;
  uint64_t texture_bytes_ = kLoadBytes;
  std::vector<uint32_t> blas_of_instance_;  // by the scene's instance index
  std::vector<uint64_t> attribute_base_, texture_base_;  // by BLAS
  uint64_t end_ = 0;
};

}  // namespace td::traversal

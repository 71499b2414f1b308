// ShadingLayout on the default level: every BLAS's attribute stream and
// textures lie above the BVH's bytes, apart from each other, and a hit's
// loads land in its own BLAS's regions.
#include "tb/traversal/hit_shading.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "tb/scene/default_level.h"
#include "tb/scene/scene_bvh.h"

namespace td::traversal {
namespace {

TEST(HitShading, EachBlasHasItsOwnRegionsAboveTheBvhAndAHitLoadsFromItsBlas) {
  const scene::Scene level = scene::make_default_level();
  const scene::EncodedBvh bvh = scene::build_scene_bvh(level, scene::BvhOptions{});
  HitShading shading;
  shading.attribute_loads = 3;
  shading.texture_loads = 5;
  shading.texture_bytes = 4096 * 1024;
  const ShadingLayout layout(bvh, shading);
  const uint64_t image_top = bvh.descriptor.base_address() + (bvh.descriptor.size_units + 1) * kNodeUnitBytes;

  // Per BLAS, the attributes of its last triangle and the last block of its
  // last texture: each BLAS's span is [first attribute, end of its textures).
  struct Span {
    uint64_t begin, end;
  };
  std::vector<Span> spans;
  for (uint32_t b = 0; b < level.blases.size(); ++b) {
    // An instance of BLAS b (the hit names the scene's instance).
    uint32_t instance = 0;
    while (instance < level.instances.size() && level.instances[instance].blas != b) ++instance;
    ASSERT_LT(instance, level.instances.size());
    scene::RayHit first;
    first.hit = true;
    first.instance = instance;
    first.primitive = 0;
    scene::RayHit last = first;
    last.primitive = static_cast<uint32_t>(level.blases[b].triangle_count() - 1);
    last.u = 0.6f;  // the quarter u > v, u + v > 1/2: block 4 p + 3
    last.v = 0.1f;
    const uint64_t attributes = layout.attribute_address(first);
    EXPECT_GE(attributes, image_top) << b;
    EXPECT_EQ(attributes % ShadingLayout::kAlignment, 0u) << b;
    EXPECT_EQ(layout.attribute_address(last) - attributes,
              uint64_t{last.primitive} * ShadingLayout::kAttributeBytesPerTriangle);
    const uint64_t texture = layout.texture_address(first);
    EXPECT_GE(texture, layout.attribute_address(last) + ShadingLayout::kAttributeBytesPerTriangle) << b;
    EXPECT_EQ(layout.texture_address(last) - texture,
              (uint64_t{last.primitive} * 4 + 3) * ShadingLayout::kLoadBytes % shading.texture_bytes);
    spans.push_back({attributes, texture + shading.texture_loads * shading.texture_bytes});
  }
  for (size_t b = 1; b < spans.size(); ++b) EXPECT_LE(spans[b - 1].end, spans[b].begin) << b;
  EXPECT_LE(spans.back().end, layout.end());
}

TEST(HitShading, ATextureOfNoWholeBlockIsRefused) {
  const scene::EncodedBvh bvh = scene::build_scene_bvh(scene::make_default_level(), scene::BvhOptions{});
  HitShading shading;
  shading.texture_loads = 1;
  shading.texture_bytes = 24;
  EXPECT_THROW(ShadingLayout(bvh, shading), std::invalid_argument);
}

}  // namespace
}  // namespace td::traversal

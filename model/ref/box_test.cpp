#include "model/ref/box_test.h"

#include "model/isa/fp32.h"

namespace td::ref {

namespace {

bool box_has_nan(const Aabb& box) {
  for (int a = 0; a < 3; ++a)
    if (is_nan(box.min[a]) || is_nan(box.max[a])) return true;
  return false;
}

}  // namespace

SlabResult slab_test(const Ray& ray, const Aabb& box, uint32_t box_grow_ulps) {
  if (box_has_nan(box)) return {};
  Vec3 near, far;
  for (int a = 0; a < 3; ++a) {
    const float lo = (box.min[a] - ray.origin[a]) * ray.inv_dir[a];
    const float hi = (box.max[a] - ray.origin[a]) * ray.inv_dir[a];
    // The sign bit, not a comparison: inv = -0 swaps like any negative.
    const bool negative = sign_bit(ray.inv_dir[a]);
    near[a] = negative ? hi : lo;
    far[a] = negative ? lo : hi;
  }
  const float tnear = fmax(fmax(near[0], near[1]), near[2]);
  float tfar = fmin(fmin(far[0], far[1]), far[2]);
  if (is_nan(tnear) || is_nan(tfar)) return {};
  tfar = ulp_up(tfar, box_grow_ulps);
  const float entry = fmax(tnear, 0.0f);
  const float exit = fmin(tfar, ray.extent);
  return SlabResult{entry <= exit, entry};
}

BoxTestResult box_test(const Ray& ray, const BoxNode& node, uint32_t box_grow_ulps) {
  BoxTestResult result;
  for (int i = 0; i < 4; ++i) {
    if (node.child[i] == kInvalidChild) continue;  // empty slot: miss
    const SlabResult slab = slab_test(ray, node.box[i], box_grow_ulps);
    result.hit[i] = slab.hit;
    result.key[i] = slab.key;
  }
  return result;
}

std::array<uint32_t, 4> box_result(const std::array<uint32_t, 4>& child, const BoxTestResult& tests, bool box_sort) {
  std::array<uint32_t, 4> out{kInvalidChild, kInvalidChild, kInvalidChild, kInvalidChild};
  if (!box_sort) {
    for (int i = 0; i < 4; ++i)
      if (tests.hit[i]) out[i] = child[i];
    return out;
  }
  // Rank each hit child: the number of hit children that precede it in
  // (key, slot) order. Float `<` treats -0 and +0 as equal, as required.
  for (int i = 0; i < 4; ++i) {
    if (!tests.hit[i]) continue;
    int rank = 0;
    for (int j = 0; j < 4; ++j) {
      if (j == i || !tests.hit[j]) continue;
      const bool before = tests.key[j] < tests.key[i] || (!(tests.key[i] < tests.key[j]) && j < i);
      rank += before ? 1 : 0;
    }
    out[rank] = child[i];
  }
  return out;
}

}  // namespace td::ref

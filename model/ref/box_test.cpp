#include "model/ref/box_test.h"

#include <cstddef>

#include "model/isa/fp32.h"
#include "model/isa/fp32x4.h"

#if defined(__SSE2__)
#include <xmmintrin.h>  // _MM_TRANSPOSE4_PS
#endif

namespace td::ref {

namespace {

bool box_has_nan(const Aabb& box) {
  for (int a = 0; a < 3; ++a)
    if (is_nan(box.min[a]) || is_nan(box.max[a])) return true;
  return false;
}

}  // namespace

SlabDistances slab_distances(const Ray& ray, const Aabb& box) {
  if (box_has_nan(box)) return SlabDistances{true, 0, 0};
  Vec3 near, far;
  for (int a = 0; a < 3; ++a) {
    const float lo = (box.min[a] - ray.origin[a]) * ray.inv_dir[a];
    const float hi = (box.max[a] - ray.origin[a]) * ray.inv_dir[a];
    // The sign bit, not a comparison: inv = -0 swaps like any negative.
    const bool negative = sign_bit(ray.inv_dir[a]);
    near[a] = negative ? hi : lo;
    far[a] = negative ? lo : hi;
  }
  return SlabDistances{false, fmax(fmax(near[0], near[1]), near[2]), fmin(fmin(far[0], far[1]), far[2])};
}

SlabResult slab_test(const Ray& ray, const Aabb& box, uint32_t box_grow_ulps) {
  const SlabDistances d = slab_distances(ray, box);
  if (d.box_nan || is_nan(d.tnear) || is_nan(d.tfar)) return {};
  const float tfar = ulp_up(d.tfar, box_grow_ulps);
  const float entry = fmax(d.tnear, 0.0f);
  const float exit = fmin(tfar, ray.extent);
  return SlabResult{entry <= exit, entry};
}

#if defined(__SSE2__)

namespace {

// The four boxes' bounds, one vector per bound and axis, lane i box i's.
// A box is six packed floats (min xyz, max xyz): two overlapping 16-byte
// loads per box, transposed, give all six four-wide.
static_assert(sizeof(Aabb) == 6 * sizeof(float) && offsetof(Aabb, max) == 3 * sizeof(float),
              "Aabb must be six packed floats");
struct Bounds4 {
  __m128 min[3], max[3];
};
inline Bounds4 load_bounds(const BoxNode& node) {
  __m128 low[4], high[4];  // box i: (min x, min y, min z, max x) and (min z, max x, max y, max z)
  for (int i = 0; i < 4; ++i) {
    const float* box = node.box[i].min.data();
    low[i] = _mm_loadu_ps(box);
    high[i] = _mm_loadu_ps(box + 2);
  }
  _MM_TRANSPOSE4_PS(low[0], low[1], low[2], low[3]);
  _MM_TRANSPOSE4_PS(high[0], high[1], high[2], high[3]);
  return Bounds4{{low[0], low[1], low[2]}, {low[3], high[2], high[3]}};
}

}  // namespace

// The four children's slab tests side by side, one per SSE lane: the same
// binary32 operations in the same order as slab_test (SSE is also what the
// scalar code compiles to on x86-64, same rounding, same subnormals), so
// each lane's hit and key are slab_test's bits. box_test_test.cpp checks
// that on random and special operands.
BoxTestResult box_test(const Ray& ray, const BoxNode& node, uint32_t box_grow_ulps) {
  const Bounds4 bounds = load_bounds(node);
  __m128 near[3], far[3];
  __m128 box_nan = _mm_setzero_ps();
  for (int a = 0; a < 3; ++a) {
    const __m128 lo_bound = bounds.min[a], hi_bound = bounds.max[a];
    box_nan = _mm_or_ps(box_nan, _mm_or_ps(nan_mask4(lo_bound), nan_mask4(hi_bound)));
    const __m128 origin = _mm_set1_ps(ray.origin[a]), inv_dir = _mm_set1_ps(ray.inv_dir[a]);
    const __m128 lo = _mm_mul_ps(_mm_sub_ps(lo_bound, origin), inv_dir);
    const __m128 hi = _mm_mul_ps(_mm_sub_ps(hi_bound, origin), inv_dir);
    const bool negative = sign_bit(ray.inv_dir[a]);  // the sign bit, as in slab_test
    near[a] = negative ? hi : lo;
    far[a] = negative ? lo : hi;
  }
  const __m128 tnear = fmax4(fmax4(near[0], near[1]), near[2]);
  __m128 tfar = fmin4(fmin4(far[0], far[1]), far[2]);
  const __m128 miss = _mm_or_ps(box_nan, _mm_or_ps(nan_mask4(tnear), nan_mask4(tfar)));
  tfar = ulp_up4(tfar, box_grow_ulps);
  const __m128 entry = fmax4(tnear, _mm_setzero_ps());
  const __m128 exit = fmin4(tfar, _mm_set1_ps(ray.extent));
  const __m128 hit = _mm_andnot_ps(miss, _mm_cmple_ps(entry, exit));
  alignas(16) float key[4];
  _mm_store_ps(key, _mm_andnot_ps(miss, entry));  // a NaN miss has key +0, as slab_test's {}
  const int hits = _mm_movemask_ps(hit);
  BoxTestResult result;
  for (int i = 0; i < 4; ++i) {
    if (node.child[i] == kInvalidChild) continue;  // empty slot: miss, key 0
    result.hit[i] = ((hits >> i) & 1) != 0;
    result.key[i] = key[i];
  }
  return result;
}

#else

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

#endif

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

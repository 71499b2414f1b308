// box_test.h — the ray/box datapath (contract §6) as plain functions, shared
// by the golden reference, the timing model's box and sort stages and tests.
#pragma once

#include <array>
#include <cstdint>

#include "model/isa/lane.h"
#include "model/isa/node.h"

namespace td::ref {

struct SlabResult {
  bool hit = false;
  float key = 0;  // entry distance clamped to >= 0; meaningful when hit
};

// Steps 2..4 of §6: whether the box has a NaN coordinate, else its entry
// and exit distances along the ray before the grow and the clamps (either
// may be NaN).
struct SlabDistances {
  bool box_nan = false;
  float tnear = 0, tfar = 0;
};
SlabDistances slab_distances(const Ray& ray, const Aabb& box);

// One ray/box slab test (steps 2..6 of §6; the empty-slot check is the
// caller's, since it depends on the child pointer, not on the box).
SlabResult slab_test(const Ray& ray, const Aabb& box, uint32_t box_grow_ulps);

// All four children of a box node: the box stage's work for one lane. Four
// slab tests side by side (SSE2 where the host has it), each bit for bit
// slab_test's.
struct BoxTestResult {
  std::array<bool, 4> hit{};
  std::array<float, 4> key{};
};
BoxTestResult box_test(const Ray& ray, const BoxNode& node, uint32_t box_grow_ulps);

// The four returned dwords: unsorted (hit ? child : ~0) or, with box_sort,
// hit children by ascending (key, slot) then ~0 — the sort stage's work.
std::array<uint32_t, 4> box_result(const std::array<uint32_t, 4>& child, const BoxTestResult& tests, bool box_sort);

}  // namespace td::ref

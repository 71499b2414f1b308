// functional_trace.h — traces rays through an encoded BVH on the golden
// reference (ref::intersect, one lane per step), no timing: the oracle and
// the speed limit every timed engine is compared with.
#pragma once

#include <cstdint>
#include <vector>

#include "tb/scene/encoded_bvh.h"
#include "tb/scene/scene_ray.h"
#include "tb/traversal/ray_traversal.h"

namespace td::traversal {

struct TraceTotals {
  uint64_t rays = 0;
  uint64_t hits = 0;
  uint64_t box_steps = 0;
  uint64_t triangle_steps = 0;
  uint64_t restarts = 0;
  uint64_t dropped_entries = 0;
  uint64_t faults = 0;
  uint32_t max_stack = 0;
  uint64_t blas_box_steps = 0;
  uint64_t instance_steps = 0;
  uint64_t instance_loads = 0;
  uint64_t transforms = 0;
  uint64_t parent_loads = 0;
  uint64_t reissues = 0;
  void add(const TraversalCounters& counters, bool hit);
};

scene::RayHit trace_ray(const scene::EncodedBvh& bvh, const scene::SceneRay& ray, const TraversalOptions& options,
                        TraversalCounters* counters = nullptr);

// Appends one hit per ray to `hits`; adds to `totals` when given.
void trace_rays(const scene::EncodedBvh& bvh, const std::vector<scene::SceneRay>& rays,
                const TraversalOptions& options, std::vector<scene::RayHit>& hits, TraceTotals* totals = nullptr);

}  // namespace td::traversal

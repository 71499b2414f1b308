#include "tb/traversal/functional_trace.h"

#include <algorithm>
#include <array>

#include "model/ref/intersect.h"

namespace td::traversal {

void TraceTotals::add(const TraversalCounters& counters, bool hit) {
  ++rays;
  hits += hit ? 1 : 0;
  box_steps += counters.box_steps;
  triangle_steps += counters.triangle_steps;
  restarts += counters.restarts;
  dropped_entries += counters.dropped_entries;
  faults += counters.faults;
  max_stack = std::max(max_stack, counters.max_stack);
  blas_box_steps += counters.blas_box_steps;
  instance_steps += counters.instance_steps;
  instance_loads += counters.instance_loads;
  transforms += counters.transforms;
  parent_loads += counters.parent_loads;
  reissues += counters.reissues;
}

namespace {

void walk(const scene::EncodedBvh& bvh, RayTraversal& traversal) {
  while (!traversal.done()) {
    if (traversal.wants_load()) {  // the instance step's or the way back's loads, straight from memory
      const RayTraversal::LoadRequest request = traversal.load_request();
      RayTraversal::LoadedDwords dwords{};
      bvh.memory.read(request.address, reinterpret_cast<uint8_t*>(dwords.data()), 16 * (request.count - 1) + 4 * request.dwords);
      traversal.consume_loaded(dwords);
      continue;
    }
    traversal.consume(ref::intersect(bvh.descriptor, traversal.next_instruction(), bvh.memory));
  }
}

}  // namespace

scene::RayHit trace_ray(const scene::EncodedBvh& bvh, const scene::SceneRay& ray, const TraversalOptions& options,
                        TraversalCounters* counters) {
  RayTraversal traversal;
  traversal.start(bvh, ray, options);
  walk(bvh, traversal);
  if (counters != nullptr) *counters = traversal.counters();
  return traversal.hit();
}

void trace_rays(const scene::EncodedBvh& bvh, const std::vector<scene::SceneRay>& rays,
                const TraversalOptions& options, std::vector<scene::RayHit>& hits, TraceTotals* totals) {
  hits.reserve(hits.size() + rays.size());
  RayTraversal traversal;
  for (const scene::SceneRay& ray : rays) {
    traversal.start(bvh, ray, options);
    walk(bvh, traversal);
    hits.push_back(traversal.hit());
    if (totals != nullptr) totals->add(traversal.counters(), traversal.hit().hit);
  }
}

}  // namespace td::traversal

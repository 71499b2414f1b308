#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

#include "model/sim/interrupt.h"
#include "tb/run/trace_engine.h"

namespace td::run {

FunctionalEngine::FunctionalEngine(unsigned threads) : threads_(threads) {
  if (threads_ == 0) throw std::invalid_argument("functional engine: threads must be >= 1");
}

void FunctionalEngine::trace(const scene::EncodedBvh& bvh, RaySource& source,
                             const traversal::TraversalOptions& options, HitSink& sink) {
  // Per thread, rays in slices of this size: large enough that starting
  // threads costs nothing measurable, small enough to stay in cache.
  constexpr size_t kSliceRays = 4096;
  const size_t chunk_rays = kSliceRays * threads_;
  std::vector<scene::SceneRay> rays;
  std::vector<TracedRay> traced;
  uint64_t first_index = 0;
  while (true) {
    sim::throw_if_interrupted();
    rays.clear();
    if (source.read(rays, chunk_rays) == 0) break;
    traced.assign(rays.size(), TracedRay{});
    const auto trace_slice = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        TracedRay& out = traced[i];
        out.index = first_index + i;
        out.ray = rays[i];
        out.hit = traversal::trace_ray(bvh, rays[i], options, &out.counters);
      }
    };
    const size_t slices = (rays.size() + kSliceRays - 1) / kSliceRays;
    std::vector<std::thread> workers;
    for (size_t s = 1; s < slices; ++s)
      workers.emplace_back(trace_slice, s * kSliceRays, std::min(rays.size(), (s + 1) * kSliceRays));
    trace_slice(0, std::min(rays.size(), kSliceRays));
    for (std::thread& worker : workers) worker.join();
    for (TracedRay& t : traced) sink.deliver(std::move(t));
    first_index += rays.size();
  }
}

}  // namespace td::run

#include <algorithm>
#include <atomic>
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
  // Rays are read a chunk at a time; within a chunk the threads take blocks
  // from a shared counter (rays differ widely in cost: fixed shares would
  // leave a thread idle), each ray's result going to its own slot. Results
  // are delivered in ray order after the chunk, so nothing depends on which
  // thread traced what.
  constexpr size_t kChunkRays = 65536;
  constexpr size_t kBlockRays = 256;
  std::vector<scene::SceneRay> rays;
  std::vector<TracedRay> traced;
  uint64_t first_index = 0;
  while (true) {
    sim::throw_if_interrupted();
    rays.clear();
    if (source.read(rays, kChunkRays) == 0) break;
    traced.assign(rays.size(), TracedRay{});
    std::atomic<size_t> next_block{0};
    const auto work = [&] {
      for (size_t begin; (begin = next_block.fetch_add(kBlockRays)) < rays.size();) {
        const size_t end = std::min(rays.size(), begin + kBlockRays);
        for (size_t i = begin; i < end; ++i) {
          TracedRay& out = traced[i];
          out.index = first_index + i;
          out.ray = rays[i];
          out.hit = traversal::trace_ray(bvh, rays[i], options, &out.counters);
        }
      }
    };
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < threads_; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    for (TracedRay& t : traced) sink.deliver(std::move(t));
    first_index += rays.size();
  }
}

}  // namespace td::run

// trace_engine.h — what executes a ray workload: the golden reference with
// no time (`functional`, the oracle and the speed limit) or the SystemC chip
// running the traversal shader (`model`). Both take rays from a RaySource,
// walk them with RayTraversal, and hand every finished ray to a HitSink, so
// they are compared ray for ray.
#pragma once

#include <string>

#include "model/sim/stats.h"
#include "tb/run/hit_sink.h"
#include "tb/run/ray_source.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/traversal/ray_traversal.h"

namespace td::run {

class TraceEngine {
 public:
  virtual ~TraceEngine() = default;
  virtual std::string name() const = 0;
  // Every ray of `source` through `bvh`; each finished ray goes to `sink`.
  // Throws sim::Interrupted on SIGINT/SIGTERM.
  virtual void trace(const scene::EncodedBvh& bvh, RaySource& source, const traversal::TraversalOptions& options,
                     HitSink& sink) = 0;
};

// The golden reference over `threads` threads (>= 1). Rays are split into
// fixed chunks, each traced whole by one thread and delivered in order: the
// output does not depend on the thread count.
class FunctionalEngine final : public TraceEngine {
 public:
  explicit FunctionalEngine(unsigned threads);
  std::string name() const override { return "functional"; }
  void trace(const scene::EncodedBvh& bvh, RaySource& source, const traversal::TraversalOptions& options,
             HitSink& sink) override;

 private:
  unsigned threads_;
};

}  // namespace td::run

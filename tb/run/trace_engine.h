// trace_engine.h — what executes a ray workload: the golden reference with
// no time (`functional`, the oracle and the speed limit) or the SystemC chip
// running the traversal shader (`model`; `rtl` with td.datapath: rtl),
// registered by name in engines.h (`tdsim run --engine`). All take rays from a RaySource,
// walk them with RayTraversal, and hand every finished ray to a HitSink, so
// they are compared ray for ray.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/sim/host_time.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "tb/engines/engine.h"
#include "tb/run/hit_sink.h"
#include "tb/run/ray_source.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/traversal/ray_traversal.h"
#include "tb/shader/traversal_shader.h"

namespace td::run {

// What a timed engine's lanes came to against the golden reference.
struct ScoreboardCounts {
  uint64_t lanes_checked = 0;
  uint64_t mismatches = 0;
  std::vector<std::string> reports;  // the first few mismatches, one line each
};

class TraceEngine {
 public:
  virtual ~TraceEngine() = default;
  virtual std::string name() const = 0;
  // Every ray of `source` through `bvh`; each finished ray goes to `sink`.
  // Throws sim::Interrupted on SIGINT/SIGTERM.
  virtual void trace(const scene::EncodedBvh& bvh, RaySource& source, const traversal::TraversalOptions& options,
                     HitSink& sink) = 0;
  // A timed engine's simulated cycles (0 without time) and scoreboard.
  virtual uint64_t cycles() const { return 0; }
  virtual ScoreboardCounts scoreboard() const { return {}; }
  // A timed engine's chip: where the host's time went (none for others).
  virtual std::optional<sim::HostTime> host_time() const { return std::nullopt; }
};

// What the factories take; each engine reads its part.
struct TraceEngineSetup {
  const cfg::Config* config = nullptr;   // timed engines: the chip
  uint64_t check_every = 1;              // timed engines: the scoreboard's sampling (1 all, N every Nth, 0 none)
  sim::StatsRegistry* stats = nullptr;   // timed engines: where their statistics go
  sim::VcdWriter* vcd = nullptr;         // timed engines: a waveform, or none
  unsigned threads = 1;                  // functional: host threads; timed: threads ticking the TDs
};

// The golden reference over `threads` threads (>= 1). Rays are split into
// fixed chunks, each traced whole by one thread and delivered in order: the
// output does not depend on the thread count.
class FunctionalEngine final : public TraceEngine {
 public:
  explicit FunctionalEngine(unsigned threads);
  std::string name() const override { return tb::kReferenceEngineName; }
  void trace(const scene::EncodedBvh& bvh, RaySource& source, const traversal::TraversalOptions& options,
             HitSink& sink) override;

 private:
  unsigned threads_;
};

}  // namespace td::run

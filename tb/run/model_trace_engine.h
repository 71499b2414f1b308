// model_trace_engine.h — `tdsim run --engine model`: the SystemC chip of the
// configuration, driven by the traversal shader (tb/traversal/
// traversal_shader.h) as its wave client. One chip per process (SystemC
// elaborates once), kept alive after the run so its statistics can be read.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "tb/run/trace_engine.h"
#include "tb/shader/traversal_shader.h"

namespace td::chip {
class Chip;
}

namespace td::run {

class ModelTraceEngine final : public TraceEngine {
 public:
  // The chip and its traversal shader as `config` describes them; the
  // scoreboard checks every `check_every`th instruction (0: none). `vcd`
  // may be null; `stats` must outlive the engine. `threads` tick the chip's
  // TDs (chip::Chip::set_threads).
  ModelTraceEngine(const cfg::Config& config, uint64_t check_every, sim::StatsRegistry& stats, sim::VcdWriter* vcd,
                   unsigned threads = 1);
  ~ModelTraceEngine() override;
  // The chip with Verilated datapaths is the `rtl` engine.
  std::string name() const override { return config_.td.datapath == "rtl" ? "rtl" : "model"; }
  // Throws sim::Interrupted, or std::runtime_error on a deadlock (with the
  // chip's report of what waits on what). Once per process.
  void trace(const scene::EncodedBvh& bvh, RaySource& source, const traversal::TraversalOptions& options,
             HitSink& sink) override;

  uint64_t cycles() const override { return cycles_; }
  ScoreboardCounts scoreboard() const override;
  std::optional<sim::HostTime> host_time() const override;

 private:
  const cfg::Config config_;
  const shader::ShaderParams shader_params_;
  sim::StatsRegistry& stats_;
  sim::VcdWriter* vcd_;
  unsigned threads_;
  std::unique_ptr<shader::TraversalShader> shader_;
  std::unique_ptr<chip::Chip> chip_;
  uint64_t cycles_ = 0;
};

}  // namespace td::run

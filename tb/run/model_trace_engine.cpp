#include "tb/run/model_trace_engine.h"

#include <stdexcept>

#include "model/chip/chip.h"
#include "tb/run/config_params.h"

namespace td::run {

ModelTraceEngine::ModelTraceEngine(const cfg::Config& config, uint64_t check_every, sim::StatsRegistry& stats,
                                   sim::VcdWriter* vcd, unsigned threads)
    : config_(config), shader_params_(shader_params(config, check_every)), stats_(stats), vcd_(vcd),
      threads_(threads) {}

ModelTraceEngine::~ModelTraceEngine() = default;

ScoreboardCounts ModelTraceEngine::scoreboard() const {
  if (!shader_) return {};
  const tb::Scoreboard& board = shader_->scoreboard();
  return ScoreboardCounts{board.lanes_checked(), board.mismatches(), board.reports()};
}

void ModelTraceEngine::trace(const scene::EncodedBvh& bvh, RaySource& source,
                             const traversal::TraversalOptions& options, HitSink& sink) {
  if (chip_) throw std::logic_error("model engine: one run per process (SystemC elaborates once)");
  shader::ShaderParams params = shader_params_;
  params.stack_entries = options.stack_entries;
  shader_ = std::make_unique<shader::TraversalShader>(params, config_.td_count(), bvh, source, options, sink,
                                                         sim::StatGroup(stats_, "chip.shader"));
  chip_ = std::make_unique<chip::Chip>("chip", config_, *shader_, stats_);
  chip_->set_memory(bvh.memory);
  chip_->set_threads(threads_);
  if (vcd_) chip_->attach_trace(*vcd_);
  chip_->wake_all();
  const chip::RunOutcome outcome = chip_->run_until_idle([this] { return shader_->done(); });
  chip_->finish_accounting();  // an interrupted run's partial report counts its cycles
  cycles_ = chip_->end_cycle();
  chip_->throw_unless_done(outcome);
}

std::optional<sim::HostTime> ModelTraceEngine::host_time() const {
  if (!chip_) return std::nullopt;
  return chip_->host_time();
}

}  // namespace td::run

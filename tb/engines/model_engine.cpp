#include "tb/engines/model_engine.h"

#include <map>
#include <stdexcept>
#include <systemc>

#include "model/chip/chip.h"
#include "model/ref/intersect.h"
#include "tb/engines/wave_feeder.h"

namespace td::tb {

namespace {

class ModelEngine final : public Engine {
 public:
  ModelEngine(const cfg::Config& config, unsigned threads)
      : config_(config), threads_(threads), feeder_(config.td_count(), empty_) {
    // check_files compares every lane with the reference itself; the feeder
    // still catches an instruction returned twice or never issued.
    feeder_.set_scoreboard_enabled(false);
  }

  // The chip with Verilated datapaths is the `rtl` engine.
  std::string name() const override { return config_.td.datapath == "rtl" ? "rtl" : "model"; }

  // The waves are dealt to the TDs in turn, from cold caches, and run until
  // every one has returned.
  std::vector<WaveResult> execute(const WaveBatch& batch) override {
    if (!chip_) {
      chip_ = std::make_unique<chip::Chip>("chip", config_, feeder_, stats_);
      chip_->set_threads(threads_);
    }
    std::vector<WaveResult> results(batch.waves.size());
    std::map<uint64_t, size_t> wave_of_id;
    feeder_.set_completion([&](uint32_t, const WaveInstr& instr, const WaveResult& result) {
      results[wave_of_id.at(instr.id)] = result;
    });
    chip_->set_memory(batch.memory);
    feeder_.set_memory(batch.memory);
    chip_->invalidate_caches();
    uint32_t td = 0;
    for (size_t w = 0; w < batch.waves.size(); ++w) {
      wave_of_id[feeder_.push(td, batch.waves[w])] = w;
      td = (td + 1) % config_.td_count();
    }
    chip_->wake_all();
    chip_->throw_unless_done(chip_->run_until_idle([this] { return feeder_.done(); }));
    feeder_.reset_window();
    // The chip keeps no pointer to the batch's memory past this call.
    chip_->set_memory(empty_);
    feeder_.set_memory(empty_);
    chip_->finish_accounting();
    if (feeder_.scoreboard().mismatches() != 0)
      throw std::runtime_error("timing model returned instructions that were not in flight: " +
                               feeder_.scoreboard().reports().front());
    return results;
  }

  const sim::StatsRegistry* stats() const override { return &stats_; }

 private:
  const cfg::Config config_;
  const unsigned threads_;
  const MemoryImage empty_;  // the chip's memory between executions
  WaveFeeder feeder_;
  sim::StatsRegistry stats_;
  std::unique_ptr<chip::Chip> chip_;
};

}  // namespace

std::unique_ptr<Engine> make_model_engine(const cfg::Config& config, unsigned threads) {
  return std::make_unique<ModelEngine>(config, threads);
}

}  // namespace td::tb

#include "tb/engines/model_engine.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <map>
#include <stdexcept>
#include <systemc>

#include "model/chip/chip.h"
#include "model/ref/intersect.h"
#include "model/sim/interrupt.h"
#include "tb/engines/wave_feeder.h"

namespace td::tb {

namespace {

using Unit = std::array<uint8_t, kNodeUnitBytes>;

// Cases that can share one memory image: every 64-byte unit a case reads
// has one content across the batch.
struct Batch {
  std::vector<size_t> cases;           // indices into the run's case list
  std::map<uint64_t, Unit> units;      // address -> content read there

  // The units `c` reads, with their content (mem bytes, zero past them).
  static std::vector<std::pair<uint64_t, Unit>> reads_of(const TdvCase& c) {
    std::vector<std::pair<uint64_t, Unit>> reads;
    const ref::LanePlan plan = ref::plan_lane(Descriptor::unpack(c.desc), c.lane);
    if (!plan.needs_fetch()) return reads;
    for (uint32_t offset = 0; offset < plan.bytes; offset += kNodeUnitBytes) {
      Unit unit{};
      for (uint32_t i = 0; i < kNodeUnitBytes && offset + i < c.mem.size(); ++i) unit[i] = c.mem[offset + i];
      reads.emplace_back(plan.address + offset, unit);
    }
    return reads;
  }

  bool fits(const std::vector<std::pair<uint64_t, Unit>>& reads) const {
    for (const auto& [address, content] : reads) {
      const auto it = units.find(address);
      if (it != units.end() && it->second != content) return false;
    }
    return true;
  }

  void add(size_t index, const std::vector<std::pair<uint64_t, Unit>>& reads) {
    cases.push_back(index);
    for (const auto& [address, content] : reads) units.emplace(address, content);
  }

  MemoryImage image() const {
    MemoryImage memory(MemoryImage::kMinPageBits);  // scattered single nodes: small pages
    for (const auto& [address, content] : units) memory.write(address, content.data(), content.size());
    return memory;
  }
};

class ModelEngine final : public Engine {
 public:
  ModelEngine(const cfg::Config& config, const ModelEngineOptions& options)
      : config_(config), options_(options), feeder_(config.td_count(), memory_) {
    if (options_.lanes_per_wave != 32 && options_.lanes_per_wave != 64)
      throw std::invalid_argument("lanes per wave must be 32 or 64");
    // check_files compares every lane with the reference itself; the feeder
    // still catches an instruction returned twice or never issued.
    feeder_.set_scoreboard_enabled(false);
  }

  // The chip with Verilated datapaths is the `rtl` engine.
  std::string name() const override { return config_.td.datapath == "rtl" ? "rtl" : "model"; }

  std::vector<LaneResult> run(const std::vector<const TdvCase*>& cases) override {
    if (!chip_) chip_ = std::make_unique<chip::Chip>("chip", config_, feeder_, stats_);
    std::vector<LaneResult> results(cases.size());
    feeder_.set_completion([&](uint32_t, const WaveInstr& instr, const WaveResult& result) {
      const std::vector<size_t>& lanes_to_cases = wave_cases_.at(instr.id);
      for (size_t lane = 0; lane < lanes_to_cases.size(); ++lane) results[lanes_to_cases[lane]] = result.lanes[lane];
    });
    // Batches are made and run one at a time: only one memory image lives.
    Batch batch;
    for (size_t i = 0; i < cases.size(); ++i) {
      const auto reads = Batch::reads_of(*cases[i]);
      if (!batch.fits(reads)) {
        run_batch(batch, cases);
        batch = Batch{};
      }
      batch.add(i, reads);
    }
    if (!batch.cases.empty()) run_batch(batch, cases);
    chip_->finish_accounting();
    if (feeder_.scoreboard().mismatches() != 0)
      throw std::runtime_error("timing model returned instructions that were not in flight: " +
                               feeder_.scoreboard().reports().front());
    return results;
  }

  const sim::StatsRegistry* stats() const override { return &stats_; }

 private:
  void run_batch(const Batch& batch, const std::vector<const TdvCase*>& cases) {
    memory_ = batch.image();
    chip_->set_memory(memory_);
    feeder_.set_memory(memory_);
    chip_->invalidate_caches();
    // Lanes of one instruction share a descriptor: group in file order.
    std::map<DescriptorWords, std::vector<size_t>> by_descriptor;
    for (size_t index : batch.cases) by_descriptor[cases[index]->desc].push_back(index);
    uint32_t td = 0;
    for (const auto& [words, members] : by_descriptor) {
      for (size_t first = 0; first < members.size(); first += options_.lanes_per_wave) {
        WaveInstr instr;
        instr.descriptor = Descriptor::unpack(words);
        std::vector<size_t> lane_cases;
        for (size_t k = first; k < members.size() && k < first + options_.lanes_per_wave; ++k) {
          instr.lanes.push_back(cases[members[k]]->lane);
          lane_cases.push_back(members[k]);
        }
        wave_cases_[feeder_.push(td, std::move(instr))] = std::move(lane_cases);
        td = (td + 1) % config_.td_count();
      }
    }
    chip_->wake_all();
    const chip::RunOutcome outcome = chip_->run_until_idle([this] { return feeder_.done(); }, kMaxQuietCycles);
    if (outcome == chip::RunOutcome::kInterrupted) throw sim::Interrupted();
    if (outcome == chip::RunOutcome::kDeadlock)
      throw std::runtime_error(fmt::format("timing model deadlock: nothing moved in {} cycles\n{}", kMaxQuietCycles,
                                           chip_->deadlock_report()));
    // Every wave of the batch has returned: nothing of it needs keeping.
    wave_cases_.clear();
    feeder_.reset_window();
  }

  // Far beyond any one instruction's latency (every configured latency at
  // its maximum adds up to well under this).
  static constexpr uint64_t kMaxQuietCycles = 50'000'000;

  const cfg::Config config_;
  const ModelEngineOptions options_;
  MemoryImage memory_;
  WaveFeeder feeder_;
  sim::StatsRegistry stats_;
  std::unique_ptr<chip::Chip> chip_;
  std::map<uint64_t, std::vector<size_t>> wave_cases_;
};

}  // namespace

std::unique_ptr<Engine> make_model_engine(const cfg::Config& config, const ModelEngineOptions& options) {
  return std::make_unique<ModelEngine>(config, options);
}

}  // namespace td::tb

#include "tb/engines/engine.h"

#include "model/chip/config.h"
#include "model/ref/intersect.h"
#include "tb/engines/model_engine.h"

namespace td::tb {

namespace {

class RefEngine final : public Engine {
 public:
  std::string name() const override { return "ref"; }
  std::vector<WaveResult> execute(const WaveBatch& batch) override {
    std::vector<WaveResult> results(batch.waves.size());
    for (size_t w = 0; w < batch.waves.size(); ++w) {
      const WaveInstr& wave = batch.waves[w];
      results[w].id = wave.id;
      for (const LaneInput& lane : wave.lanes) results[w].lanes.push_back(ref::intersect(wave.descriptor, lane, batch.memory));
    }
    return results;
  }
};

// The timing model of the --config chip, with the datapaths `datapath`
// names ("": the config's own).
CheckEngines::Factory model_factory(const std::string& datapath) {
  return [datapath](const EngineOptions& options) {
    const cfg::Config config = cfg::load_config(options.config_path, options.overrides);
    return make_model_engine(datapath.empty() ? config : cfg::with_datapath(config, datapath), options.threads);
  };
}

}  // namespace

const CheckEngines& check_engines() {
  static const CheckEngines registry = [] {
    CheckEngines engines;
    engines.add({"ref", "golden reference, no timing", false,
                 [](const EngineOptions&) -> std::unique_ptr<Engine> { return std::make_unique<RefEngine>(); }, ""});
    engines.add({"model", "the SystemC timing model of the --config chip", true,
                 model_factory(""), ""});
    engines.add({"rtl", "the model with td.datapath: rtl, the Verilated units of rtl/ as its datapaths", true,
                 model_factory("rtl"), "rtl"});
    return engines;
  }();
  return registry;
}

std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options) {
  const CheckEngines::Entry* entry = check_engines().find(name);
  return entry ? entry->make(options) : nullptr;
}

}  // namespace td::tb

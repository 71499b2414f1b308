#include "tb/engines/engine.h"

#include "model/chip/config.h"
#include "model/ref/intersect.h"
#include "tb/engines/model_engine.h"

namespace td::tb {

namespace {

class RefEngine final : public Engine {
 public:
  std::string name() const override { return "ref"; }
  std::vector<LaneResult> run(const std::vector<const TdvCase*>& cases) override {
    std::vector<LaneResult> results;
    results.reserve(cases.size());
    for (const TdvCase* c : cases)
      results.push_back(ref::intersect(Descriptor::unpack(c->desc), c->lane, c->memory()));
    return results;
  }
};

}  // namespace

std::vector<std::string> engine_names() { return {"ref", "model"}; }

std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options) {
  if (name == "ref") return std::make_unique<RefEngine>();
  if (name == "model") {
    ModelEngineOptions model_options;
    model_options.lanes_per_wave = options.lanes_per_wave;
    return make_model_engine(cfg::load_config(options.config_path), model_options);
  }
  return nullptr;
}

}  // namespace td::tb

#include "tb/engine.h"

#include "model/ref/intersect.h"

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

std::vector<std::string> engine_names() { return {"ref"}; }

std::unique_ptr<Engine> make_engine(const std::string& name) {
  if (name == "ref") return std::make_unique<RefEngine>();
  return nullptr;
}

}  // namespace td::tb

#include "tb/engines/engine.h"

#include "model/ref/intersect.h"

namespace td::tb {

namespace {

class RefEngine final : public Engine {
 public:
  std::string name() const override { return kReferenceEngineName; }
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

}  // namespace

std::unique_ptr<Engine> make_reference_engine() { return std::make_unique<RefEngine>(); }

}  // namespace td::tb

// engine.h — one interface in front of every engine that executes
// instructions without a workload of its own (`tdsim check`): the golden
// reference with no time (make_reference_engine, named `functional`), and
// the SystemC timing model (model_engine.h: `model`, and `rtl` with
// td.datapath: rtl). tb/run/engines.h registers them by name, with the
// engines that trace rays. An engine executes wave instructions over a
// memory image; what the waves hold (vector cases batched by
// tb/vectors/case_waves.h, or anything else) is the caller's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/isa/memory_image.h"
#include "model/isa/wave.h"
#include "model/sim/stats.h"

namespace td::tb {

// Wave instructions (32 or 64 lanes each) and the memory they read.
struct WaveBatch {
  MemoryImage memory{MemoryImage::kMinPageBits};
  std::vector<WaveInstr> waves;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Executes every wave of `batch` from cold caches; one result per wave,
  // in the order of batch.waves, each with a result per lane.
  virtual std::vector<WaveResult> execute(const WaveBatch& batch) = 0;
  // Statistics of the executions so far; nullptr for an engine without timing.
  virtual const sim::StatsRegistry* stats() const { return nullptr; }
};

struct EngineOptions {
  std::string config_path;  // chip configuration (engines with timing)
  std::vector<cfg::Override> overrides;  // --set, applied to it
  unsigned threads = 1;     // threads that tick the chip's TDs (engines with timing)
};

// The golden reference: each lane by ref::intersect, no time.
std::unique_ptr<Engine> make_reference_engine();
// Its name() (and the functional engine's of `tdsim run`).
inline constexpr const char* kReferenceEngineName = "functional";

}  // namespace td::tb

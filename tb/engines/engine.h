// engine.h — one interface in front of every engine that executes
// instructions without a workload of its own (`tdsim check`): `ref` (golden
// reference, no time), `model` (the SystemC timing model) and `rtl` (the
// same model with td.datapath: rtl, the Verilated units as its datapaths),
// registered by name in check_engines(). An engine executes wave
// instructions over a memory image; what the waves hold (vector cases
// batched by tb/vectors/case_waves.h, or anything else) is the caller's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/chip/config.h"
#include "model/isa/memory_image.h"
#include "model/isa/wave.h"
#include "model/sim/stats.h"
#include "tb/engines/registry.h"

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

// The engines `tdsim check --engine` can name. A factory throws
// cfg::ConfigError for a bad configuration.
using CheckEngines = Registry<Engine, EngineOptions>;
const CheckEngines& check_engines();

// check_engines().find(name)->make(options); nullptr for an unknown name.
std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options = {});

}  // namespace td::tb

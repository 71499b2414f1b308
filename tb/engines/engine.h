// engine.h — one interface in front of every engine that can execute lanes:
// `ref` (golden reference, no time) today; `model` (SystemC timing model) and
// `rtl` (Verilated datapaths) plug in behind the same call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/isa/lane.h"
#include "model/sim/stats.h"
#include "tb/vectors/tdv.h"

namespace td::tb {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Executes every case (each with its own descriptor and memory); results
  // come back in the order of `cases`. An engine may batch cases into waves.
  virtual std::vector<LaneResult> run(const std::vector<const TdvCase*>& cases) = 0;
  // Statistics of the runs so far; nullptr for an engine without timing.
  virtual const sim::StatsRegistry* stats() const { return nullptr; }
};

struct EngineOptions {
  std::string config_path;       // chip configuration (engines with timing)
  uint32_t lanes_per_wave = 64;  // 32 or 64 (engines that batch into waves)
};

// Names accepted by make_engine, for --help and error messages.
std::vector<std::string> engine_names();

// nullptr when `name` is not an engine this build knows. Throws
// cfg::ConfigError for a bad configuration.
std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options = {});

}  // namespace td::tb

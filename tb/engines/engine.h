// engine.h — one interface in front of every engine that executes vector
// cases (`tdsim check`): `ref` (golden reference, no time), `model` (the
// SystemC timing model) and `rtl` (the same model with td.datapath: rtl,
// the Verilated units as its datapaths), registered by name in
// check_engines().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/isa/lane.h"
#include "model/sim/stats.h"
#include "tb/engines/registry.h"
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

// The engines `tdsim check --engine` can name. A factory throws
// cfg::ConfigError for a bad configuration.
using CheckEngines = Registry<Engine, EngineOptions>;
const CheckEngines& check_engines();

// check_engines().find(name)->make(options); nullptr for an unknown name.
std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options = {});

}  // namespace td::tb

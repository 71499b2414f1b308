// engines.h — every engine by name, once: `functional` (the golden
// reference, no time; `ref` is an alias, the word `tdsim check` used),
// `model` (the SystemC chip of --config) and `rtl` (the model with
// td.datapath: rtl, the Verilated units of rtl/ as its datapaths). Each
// entry makes the engine for either workload: wave instructions from
// vector files (`tdsim check`, tb/engines/engine.h) or rays through a
// traversal shader (`tdsim run`, trace_engine.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tb/engines/engine.h"
#include "tb/engines/registry.h"
#include "tb/run/trace_engine.h"

namespace td::run {

struct EngineEntry {
  std::string name;
  std::vector<std::string> aliases;
  std::string description;  // one line, for --help
  bool timed = false;       // simulates a chip: --config, --stats, --trace and the like apply
  std::string datapath;     // a timed engine's td.datapath, whatever --config says ("": the config's)
  // The engine for vector files; throws cfg::ConfigError for a bad configuration.
  std::function<std::unique_ptr<tb::Engine>(const tb::EngineOptions&)> make_for_vectors;
  // The engine for rays.
  std::function<std::unique_ptr<TraceEngine>(const TraceEngineSetup&)> make_for_rays;
};

using Engines = tb::Registry<EngineEntry>;
const Engines& engines();

}  // namespace td::run

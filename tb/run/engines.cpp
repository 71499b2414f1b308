#include "tb/run/engines.h"

#include "model/config/config.h"
#include "tb/engines/model_engine.h"
#include "tb/run/model_trace_engine.h"

namespace td::run {

namespace {

// The timing model of the --config chip for vector files, with the
// datapaths `datapath` names ("": the config's own).
std::function<std::unique_ptr<tb::Engine>(const tb::EngineOptions&)> model_for_vectors(const std::string& datapath) {
  return [datapath](const tb::EngineOptions& options) {
    const cfg::Config config = cfg::load_config(options.config_path, options.overrides);
    return tb::make_model_engine(datapath.empty() ? config : cfg::with_datapath(config, datapath), options.threads);
  };
}

std::unique_ptr<TraceEngine> model_for_rays(const TraceEngineSetup& setup) {
  return std::make_unique<ModelTraceEngine>(*setup.config, setup.check_every, *setup.stats, setup.vcd, setup.threads);
}

}  // namespace

const Engines& engines() {
  static const Engines registry = [] {
    Engines list;
    list.add({tb::kReferenceEngineName,
              {"ref"},
              "golden reference, no time; -j threads for rays",
              false,
              "",
              [](const tb::EngineOptions&) { return tb::make_reference_engine(); },
              [](const TraceEngineSetup& setup) -> std::unique_ptr<TraceEngine> {
                return std::make_unique<FunctionalEngine>(setup.threads);
              }});
    list.add({"model", {}, "the SystemC timing model of the --config chip", true, "", model_for_vectors(""),
              model_for_rays});
    list.add({"rtl", {}, "the model with td.datapath: rtl, the Verilated units of rtl/ as its datapaths", true, "rtl",
              model_for_vectors("rtl"), model_for_rays});
    return list;
  }();
  return registry;
}

}  // namespace td::run

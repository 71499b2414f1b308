// The engines of `tdsim run`, by name.
#include "tb/run/model_trace_engine.h"
#include "tb/run/trace_engine.h"

namespace td::run {

const TraceEngines& trace_engines() {
  static const TraceEngines registry = [] {
    TraceEngines engines;
    engines.add({"functional", "golden reference, no time; -j threads", false,
                 [](const TraceEngineSetup& setup) -> std::unique_ptr<TraceEngine> {
                   return std::make_unique<FunctionalEngine>(setup.threads);
                 },
                 ""});
    engines.add({"model", "the SystemC chip of --config, driven by the traversal shader", true,
                 [](const TraceEngineSetup& setup) -> std::unique_ptr<TraceEngine> {
                   return std::make_unique<ModelTraceEngine>(*setup.config, setup.shader, *setup.stats, setup.vcd,
                                                             setup.threads);
                 },
                 ""});
    engines.add({"rtl", "the model with td.datapath: rtl, the Verilated units of rtl/ as its datapaths", true,
                 [](const TraceEngineSetup& setup) -> std::unique_ptr<TraceEngine> {
                   return std::make_unique<ModelTraceEngine>(*setup.config, setup.shader, *setup.stats, setup.vcd,
                                                             setup.threads);
                 },
                 "rtl"});
    return engines;
  }();
  return registry;
}

}  // namespace td::run

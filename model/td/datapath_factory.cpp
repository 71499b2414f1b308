#include "model/td/datapath_factory.h"

#include <fmt/format.h>

#include <stdexcept>

#include "model/td/box_stage.h"
#include "model/td/sort_stage.h"
#include "model/td/tri_stage.h"
#if TDSIM_HAVE_RTL
#include "model/rtl/rtl_datapaths.h"
#endif

namespace td::timing {

const std::vector<DatapathFactory>& datapath_factories() {
  static const std::vector<DatapathFactory> factories = [] {
    std::vector<DatapathFactory> list;
    list.push_back({"cpp", "the golden reference's maths; the output channel's delay is the pipeline",
                    [](sim::Channel<BoxTested>& out, uint32_t, const std::string&) -> std::unique_ptr<BoxDatapath> {
                      return std::make_unique<CppDatapath<NodeLane, BoxTested, box_datapath_cpp>>(out);
                    },
                    [](sim::Channel<LaneDone>& out, uint32_t, const std::string&) -> std::unique_ptr<SortDatapath> {
                      return std::make_unique<CppDatapath<SortLane, LaneDone, sort_datapath_cpp>>(out);
                    },
                    [](sim::Channel<LaneDone>& out, uint32_t, const std::string&) -> std::unique_ptr<TriangleDatapath> {
                      return std::make_unique<CppDatapath<NodeLane, LaneDone, triangle_datapath_cpp>>(out);
                    }});
#if TDSIM_HAVE_RTL
    list.push_back({"rtl", "the SystemVerilog units of rtl/, Verilated, clocked every cycle they hold lanes",
                    rtl::make_box_datapath, rtl::make_sort_datapath, rtl::make_triangle_datapath});
#endif
    return list;
  }();
  return factories;
}

const DatapathFactory& datapath_factory(const std::string& name) {
  std::vector<std::string> names;
  for (const DatapathFactory& factory : datapath_factories()) {
    if (factory.name == name) return factory;
    names.push_back(factory.name);
  }
  throw std::invalid_argument(
      fmt::format("td.datapath: no implementation '{}' in this build (it has {})", name, fmt::join(names, ", ")));
}

}  // namespace td::timing

#include "model/chip/datapaths.h"

#include <fmt/format.h>

#include <stdexcept>

#if TDSIM_HAVE_RTL
#include "model/rtl/rtl_datapaths.h"
#endif

namespace td::chip {

const std::vector<timing::DatapathFactory>& datapath_factories() {
  static const std::vector<timing::DatapathFactory> factories = [] {
    std::vector<timing::DatapathFactory> list;
    list.push_back(timing::cpp_datapaths());
#if TDSIM_HAVE_RTL
    list.push_back({"rtl", "the SystemVerilog units of rtl/, Verilated, clocked every cycle they hold lanes",
                    rtl::make_box_datapath, rtl::make_sort_datapath, rtl::make_triangle_datapath});
#endif
    return list;
  }();
  return factories;
}

const timing::DatapathFactory& datapath_factory(const std::string& name) {
  std::vector<std::string> names;
  for (const timing::DatapathFactory& factory : datapath_factories()) {
    if (factory.name == name) return factory;
    names.push_back(factory.name);
  }
  throw std::invalid_argument(
      fmt::format("td.datapath: no implementation '{}' in this build (it has {})", name, fmt::join(names, ", ")));
}

}  // namespace td::chip

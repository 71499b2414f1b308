// datapath_factory.h — how the TD's three datapaths (box, sort, triangle)
// are made: one DatapathFactory per implementation. The TD is handed one
// (TdParams::datapaths) and knows no other; model/chip/datapaths.h
// registers them by name, as the configuration's td.datapath chooses
// (Ramulator2's pattern): `cpp`, the golden reference's maths
// (cpp_datapaths() below), and, in a build with TDSIM_RTL, `rtl`, the
// Verilated units of rtl/ (model/rtl/). Each maker is given where its
// results go (`out`), the configured pipeline depth (`latency`) and the
// stage's hierarchical name (`scope`: a Verilated unit's scope in traces).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/td/datapath.h"
#include "model/td/td_types.h"

namespace td::timing {

using BoxDatapath = Datapath<NodeLane, BoxTested>;
using SortDatapath = Datapath<SortLane, LaneDone>;
using TriangleDatapath = Datapath<NodeLane, LaneDone>;

struct DatapathFactory {
  std::string name;
  std::string description;  // one line
  template <typename D, typename Out>
  using Make = std::function<std::unique_ptr<D>(LaneSink<Out>& out, uint32_t latency, const std::string& scope)>;
  Make<BoxDatapath, BoxTested> box;
  Make<SortDatapath, LaneDone> sort;
  Make<TriangleDatapath, LaneDone> triangle;
};

// `cpp`: the golden reference's maths, each result handed over at entry (CppDatapath).
const DatapathFactory& cpp_datapaths();

}  // namespace td::timing

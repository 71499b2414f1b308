// datapath_factory.h — how the TD's three datapaths (box, sort, triangle)
// are made: one DatapathFactory per implementation. The TD is handed one
// (TdParams::datapaths) and knows no other; model/chip/datapaths.h
// registers them by name, as the configuration's td.datapath chooses
// (Ramulator2's pattern): `cpp`, the golden reference's maths
// (cpp_datapaths() below), and, in a build with TDSIM_RTL, `rtl`, the
// Verilated units of rtl/ (model/rtl/). Each factory fills the output
// channel its stage owns; `latency` is the configured pipeline depth;
// `scope` the stage's hierarchical name (a Verilated unit's scope in
// traces).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/sim/channel.h"
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
  using Make = std::function<std::unique_ptr<D>(sim::Channel<Out>& out, uint32_t latency, const std::string& scope)>;
  Make<BoxDatapath, BoxTested> box;
  Make<SortDatapath, LaneDone> sort;
  Make<TriangleDatapath, LaneDone> triangle;
  // A lane's result is known as it enters (it depends only on the lane's
  // ray, node bytes and descriptor, as the C++ maths computes it): the TD
  // may write results ahead (td.h). False for clocked units (rtl).
  bool results_known_at_entry = false;
};

// `cpp`: the golden reference's maths; the output channel's delay is the pipeline.
const DatapathFactory& cpp_datapaths();

}  // namespace td::timing

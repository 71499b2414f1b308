// datapath_factory.h — the TD's three datapaths (box, sort, triangle), built
// by implementation name, as the configuration's td.datapath chooses
// (Ramulator2's pattern: implementations registered by name, picked in
// YAML): `cpp`, the golden reference's maths (box_stage.cpp, sort_stage.cpp,
// tri_stage.cpp), and, in a build with TDSIM_RTL, `rtl`, the Verilated units
// of rtl/ (model/rtl/). Each factory fills the output channel its stage
// owns; `latency` is the configured pipeline depth; `scope` the stage's
// hierarchical name (a Verilated unit's scope in traces).
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
};

// Every implementation this build has, `cpp` first.
const std::vector<DatapathFactory>& datapath_factories();
// Throws std::invalid_argument naming the choices for an unknown name (the
// configuration has refused it before; this guards other callers).
const DatapathFactory& datapath_factory(const std::string& name);

}  // namespace td::timing

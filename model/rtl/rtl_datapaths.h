// rtl_datapaths.h — the `rtl` implementation of the TD's datapaths
// (td.datapath: rtl): the Verilated units of rtl/ in place of the
// reference's maths, behind the same Datapath interface (model/td/datapath.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/sim/channel.h"
#include "model/td/datapath_factory.h"

namespace td::rtl {

// Each throws std::logic_error if the unit's measured latency is not
// `latency` (the configuration refuses that first: td.*_latency_cycles).
// `scope`: the stage's hierarchical name, the unit's scope in traces.
std::unique_ptr<timing::BoxDatapath> make_box_datapath(timing::LaneSink<timing::BoxTested>& out, uint32_t latency,
                                                       const std::string& scope);
std::unique_ptr<timing::SortDatapath> make_sort_datapath(timing::LaneSink<timing::LaneDone>& out, uint32_t latency,
                                                         const std::string& scope);
std::unique_ptr<timing::TriangleDatapath> make_triangle_datapath(timing::LaneSink<timing::LaneDone>& out,
                                                                 uint32_t latency, const std::string& scope);

}  // namespace td::rtl

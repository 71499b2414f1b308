// tri_stage.h — the triangle datapath's stage: the watertight ray/triangle
// test with the return-mode formatting; pipelined, `triangle_latency_cycles`
// deep. Its C++ datapath is ref::triangle_node_test and ref::triangle_result.
#pragma once

#include "model/td/node_stage.h"
#include "model/td/td_types.h"

namespace td::timing {

// The C++ triangle datapath: decode the node, test the ray against the
// triangle the node pointer names, format the result.
LaneDone triangle_datapath_cpp(const NodeLane& lane);

using TriStage = NodeStage<LaneDone>;

}  // namespace td::timing

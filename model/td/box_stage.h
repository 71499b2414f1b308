// box_stage.h — the box datapath's stage: widens FP16 boxes, then four slab
// tests in one clock; pipelined, `box_latency_cycles` deep. Its C++
// datapath is ref::box_test, shared with the golden reference (bit-exact by
// construction).
#pragma once

#include "model/td/node_stage.h"
#include "model/td/td_types.h"

namespace td::timing {

// The C++ box datapath: decode the node, test the ray against its four boxes.
BoxTested box_datapath_cpp(const NodeLane& lane);

using BoxStage = NodeStage<BoxTested>;

}  // namespace td::timing

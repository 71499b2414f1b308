#include "model/td/tri_stage.h"

#include "model/ref/triangle_test.h"

namespace td::timing {

LaneDone triangle_datapath_cpp(const NodeLane& lane) {
  const TriangleNode node = decode_triangle(lane.node);
  const auto t = static_cast<uint32_t>(lane.type);
  return LaneDone::written(lane.job, LaneOutcome::kTriangle,
                           ref::triangle_result(node, t, lane.descriptor->return_mode,
                                                ref::triangle_node_test(*lane.ray, node, t)));
}

}  // namespace td::timing

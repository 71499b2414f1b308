#include "model/td/tri_stage.h"

#include "model/ref/triangle_test.h"

namespace td::timing {

LaneDone triangle_datapath_cpp(const NodeLane& lane) {
  const TriangleNode node = decode_triangle(lane.node);
  const auto t = static_cast<uint32_t>(lane.plan->type);
  LaneDone done{lane.job.slot, lane.job.lane, LaneResult{}};
  done.result.written = true;
  done.result.outcome = LaneOutcome::kTriangle;
  done.result.dwords = ref::triangle_result(node, t, lane.descriptor->return_mode,
                                            ref::triangle_node_test(lane.plan->ray, node, t));
  return done;
}

}  // namespace td::timing

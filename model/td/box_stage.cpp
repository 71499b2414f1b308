#include "model/td/box_stage.h"

#include "model/ref/box_test.h"

namespace td::timing {

BoxTested box_datapath_cpp(const NodeLane& lane) {
  const BoxNode node = lane.type == NodeType::kBox16 ? decode_box16(lane.node) : decode_box32(lane.node);
  BoxTested out;
  out.job = lane.job;
  out.child = node.child;
  out.tests = ref::box_test(*lane.ray, node, lane.descriptor->box_grow_ulps);
  out.box_sort = lane.descriptor->box_sort;
  return out;
}

}  // namespace td::timing

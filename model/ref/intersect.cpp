#include "model/ref/intersect.h"

#include "model/isa/fp32.h"
#include "model/ref/box_test.h"
#include "model/ref/triangle_test.h"

namespace td::ref {

bool lane_is_inactive(const LaneInput& lane, const Ray& ray) {
  if (!lane.exec || is_nan(ray.extent)) return true;
  for (int a = 0; a < 3; ++a) {
    if (is_nan(ray.origin[a]) || is_inf(ray.origin[a])) return true;
    if (is_nan(ray.dir[a]) || is_nan(ray.inv_dir[a])) return true;
  }
  return false;
}

LanePlan plan_lane(const Descriptor& descriptor, const LaneInput& lane) {
  LanePlan plan;
  plan.ray = lane.ray();
  if (lane_is_inactive(lane, plan.ray)) {
    plan.outcome = LaneOutcome::kInactive;
    return plan;
  }
  if (!descriptor.valid()) {
    plan.outcome = LaneOutcome::kDescriptorFault;
    return plan;
  }
  const NodePtr pointer = lane.pointer();
  plan.type = pointer.type();
  if (is_reserved(plan.type)) {
    plan.outcome = LaneOutcome::kReservedType;
    return plan;
  }
  // unit + n - 1 > size, written without the subtraction; unit < 2^61 and
  // size < 2^42, so nothing overflows.
  const uint64_t unit = pointer.unit();
  if (unit + node_units(plan.type) > descriptor.size_units + 1) {
    plan.outcome = LaneOutcome::kOutOfBounds;
    return plan;
  }
  plan.outcome = is_box(plan.type) ? LaneOutcome::kBoxNode : LaneOutcome::kTriangle;
  plan.address = descriptor.base_address() + unit * kNodeUnitBytes;
  plan.bytes = node_bytes(plan.type);
  return plan;
}

LaneResult result_without_fetch(LaneOutcome outcome) {
  if (outcome == LaneOutcome::kInactive) return LaneResult::no_write();
  return LaneResult::all_ones(outcome);
}

LaneResult execute_node(const Descriptor& descriptor, const LanePlan& plan, const uint8_t* node_bytes) {
  LaneResult result;
  result.written = true;
  result.outcome = plan.outcome;
  if (is_box(plan.type)) {
    const BoxNode node =
        plan.type == NodeType::kBox16 ? decode_box16(node_bytes) : decode_box32(node_bytes);
    const BoxTestResult tests = box_test(plan.ray, node, descriptor.box_grow_ulps);
    result.dwords = box_result(node.child, tests, descriptor.box_sort);
    return result;
  }
  const TriangleNode node = decode_triangle(node_bytes);
  const auto t = static_cast<uint32_t>(plan.type);
  result.dwords = triangle_result(node, t, descriptor.return_mode, triangle_node_test(plan.ray, node, t));
  return result;
}

LaneResult intersect(const Descriptor& descriptor, const LaneInput& lane, const MemoryImage& memory) {
  const LanePlan plan = plan_lane(descriptor, lane);
  if (!plan.needs_fetch()) return result_without_fetch(plan);
  NodeBytes scratch;
  return execute_node(descriptor, plan, memory.view(plan.address, plan.bytes, scratch.data()));
}

}  // namespace td::ref

#include "model/td/box_stage.h"

#include <string>

#include "model/ref/box_test.h"

namespace td::timing {

BoxTested box_datapath_cpp(const NodeLane& lane) {
  const ref::LanePlan& plan = *lane.plan;
  const BoxNode node = plan.type == NodeType::kBox16 ? decode_box16(lane.node) : decode_box32(lane.node);
  BoxTested out;
  out.job = lane.job;
  out.child = node.child;
  out.tests = ref::box_test(plan.ray, node, lane.descriptor->box_grow_ulps);
  return out;
}

BoxStage::BoxStage(sc_core::sc_module_name name, uint32_t latency_cycles)
    : sc_module(name),
      out_(latency_cycles + 1, latency_cycles),
      datapath_(std::make_unique<CppDatapath<NodeLane, BoxTested, box_datapath_cpp>>(out_)),
      clocked_(datapath_->clocked()) {}

void BoxStage::accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes,
                      const Descriptor& descriptor, uint64_t cycle) {
  last_accept_cycle_ = cycle;
  datapath_->accept(NodeLane{job, &plan, node_bytes, &descriptor}, cycle);
}

void BoxStage::attach_trace(sim::VcdWriter& vcd) {
  const std::string prefix = std::string(name()) + ".";
  trace_.in_valid = vcd.add(prefix + "in_valid", 1);
  trace_.in_ready = vcd.add(prefix + "in_ready", 1);
}

void BoxStage::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
  vcd.set(trace_.in_valid, last_accept_cycle_ == cycle, cycle);
  vcd.set(trace_.in_ready, can_accept(), cycle);
}

}  // namespace td::timing

#include "model/td/tri_stage.h"

#include <string>

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

TriStage::TriStage(sc_core::sc_module_name name, uint32_t latency_cycles)
    : sc_module(name),
      out_(latency_cycles + 1, latency_cycles),
      datapath_(std::make_unique<CppDatapath<NodeLane, LaneDone, triangle_datapath_cpp>>(out_)),
      clocked_(datapath_->clocked()) {}

void TriStage::accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes,
                      const Descriptor& descriptor, uint64_t cycle) {
  last_accept_cycle_ = cycle;
  datapath_->accept(NodeLane{job, &plan, node_bytes, &descriptor}, cycle);
}

void TriStage::attach_trace(sim::VcdWriter& vcd) {
  const std::string prefix = std::string(name()) + ".";
  trace_.in_valid = vcd.add(prefix + "in_valid", 1);
  trace_.in_ready = vcd.add(prefix + "in_ready", 1);
}

void TriStage::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
  vcd.set(trace_.in_valid, last_accept_cycle_ == cycle, cycle);
  vcd.set(trace_.in_ready, can_accept(), cycle);
}

}  // namespace td::timing

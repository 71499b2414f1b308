#include "model/td/tri_stage.h"

#include <string>

#include "model/ref/triangle_test.h"

namespace td::timing {

TriStage::TriStage(sc_core::sc_module_name name, uint32_t latency_cycles)
    : sc_module(name), out_(latency_cycles + 1, latency_cycles) {}

void TriStage::accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes,
                      const Descriptor& descriptor, uint64_t cycle) {
  last_accept_cycle_ = cycle;
  const TriangleNode node = decode_triangle(node_bytes);
  const auto t = static_cast<uint32_t>(plan.type);
  LaneDone done{job.slot, job.lane, LaneResult{}};
  done.result.written = true;
  done.result.outcome = LaneOutcome::kTriangle;
  done.result.dwords =
      ref::triangle_result(node, t, descriptor.return_mode, ref::triangle_node_test(plan.ray, node, t));
  out_.push(std::move(done), cycle);
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

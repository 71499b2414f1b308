#include "model/td/box_stage.h"

#include <string>

#include "model/ref/box_test.h"

namespace td::timing {

BoxStage::BoxStage(sc_core::sc_module_name name, uint32_t latency_cycles)
    : sc_module(name), out_(latency_cycles + 1, latency_cycles) {}

void BoxStage::accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes,
                      const Descriptor& descriptor, uint64_t cycle) {
  last_accept_cycle_ = cycle;
  BoxTested item;
  item.job = job;
  const BoxNode node = plan.type == NodeType::kBox16 ? decode_box16(node_bytes) : decode_box32(node_bytes);
  item.child = node.child;
  item.tests = ref::box_test(plan.ray, node, descriptor.box_grow_ulps);
  out_.push(std::move(item), cycle);
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

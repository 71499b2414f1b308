#include "model/td/tri_stage.h"

#include "model/ref/triangle_test.h"

namespace td::timing {

TriStage::TriStage(sc_core::sc_module_name name, uint32_t latency_cycles)
    : sc_module(name), out_(latency_cycles + 1, latency_cycles) {}

void TriStage::accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes,
                      const Descriptor& descriptor, uint64_t cycle) {
  const TriangleNode node = decode_triangle(node_bytes);
  const auto t = static_cast<uint32_t>(plan.type);
  LaneDone done{job.slot, job.lane, LaneResult{}};
  done.result.written = true;
  done.result.outcome = LaneOutcome::kTriangle;
  done.result.dwords =
      ref::triangle_result(node, t, descriptor.return_mode, ref::triangle_node_test(plan.ray, node, t));
  out_.push(std::move(done), cycle);
}

}  // namespace td::timing

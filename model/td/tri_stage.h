// tri_stage.h — the watertight ray/triangle datapath with the return-mode
// formatting; pipelined, `triangle_latency_cycles` deep. Maths:
// ref::triangle_node_test and ref::triangle_result.
#pragma once

#include <systemc>

#include "model/isa/descriptor.h"
#include "model/sim/channel.h"
#include "model/td/td_types.h"

namespace td::timing {

class TriStage : public sc_core::sc_module {
 public:
  TriStage(sc_core::sc_module_name name, uint32_t latency_cycles);

  bool can_accept() const { return out_.can_push(); }
  void accept(const LaneJob& job, const ref::LanePlan& plan, const uint8_t* node_bytes, const Descriptor& descriptor,
              uint64_t cycle);
  sim::Channel<LaneDone>& out() { return out_; }
  const sim::Channel<LaneDone>& out() const { return out_; }
  void reset() { out_.clear(); }

 private:
  sim::Channel<LaneDone> out_;
};

}  // namespace td::timing

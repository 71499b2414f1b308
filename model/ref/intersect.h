// intersect.h — the golden reference of image_bvh[64]_intersect_ray: one lane,
// no timing. Split the way the hardware is: plan_lane() is the issue stage's
// decision (inactive? fault? which bytes to fetch?), execute_node() is the
// datapath on the fetched bytes. intersect() composes the two over a memory.
#pragma once

#include <cstdint>

#include "model/isa/descriptor.h"
#include "model/isa/lane.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"

namespace td::ref {

// Contract §3: EXEC off, a NaN in extent/origin/dir/inv_dir, or an infinite
// origin component.
bool lane_is_inactive(const LaneInput& lane, const Ray& ray);

struct LanePlan {
  LaneOutcome outcome = LaneOutcome::kInactive;  // kBoxNode/kTriangle: fetch needed
  Ray ray;
  NodeType type = NodeType::kTriangle0;
  uint64_t address = 0;    // node byte address when a fetch is needed
  uint32_t bytes = 0;      // 64 or 128 when a fetch is needed

  bool needs_fetch() const {
    return outcome == LaneOutcome::kBoxNode || outcome == LaneOutcome::kTriangle;
  }
};

LanePlan plan_lane(const Descriptor& descriptor, const LaneInput& lane);

// The datapath: runs the planned test on the node's bytes (plan.bytes of them).
LaneResult execute_node(const Descriptor& descriptor, const LanePlan& plan, const uint8_t* node_bytes);

// Result of a lane that needs no fetch (inactive, fault, reserved, out of bounds).
LaneResult result_without_fetch(LaneOutcome outcome);
inline LaneResult result_without_fetch(const LanePlan& plan) { return result_without_fetch(plan.outcome); }

LaneResult intersect(const Descriptor& descriptor, const LaneInput& lane, const MemoryImage& memory);

}  // namespace td::ref

// td_types.h — what travels between the TD's stages, and the two interfaces
// the TD meets outside itself: the wave client (wave_client.h: the SIMDs
// supply wave instructions and take results) and the backing store (the
// bytes of the BVH and whatever else the loads read).
#pragma once

#include <array>
#include <cstdint>

#include "model/isa/lane.h"
#include "model/isa/memory_image.h"
#include "model/isa/node.h"
#include "model/isa/wave.h"
#include "model/ref/box_test.h"
#include "model/ref/intersect.h"
#include "model/td/wave_client.h"

namespace td::timing {

// One active lane on its way down the pipeline: where to find it. Its ray
// and result stay in the wave buffer; what the node fetch and the issue
// port need of its route travels with it (FetchJob, FetchedLane).
struct LaneJob {
  uint32_t slot = 0;  // wave buffer slot of its instruction
  uint32_t lane = 0;  // lane index within the wave
};

// A load lane travels the fetch queue and the return buffer with this in
// place of a node type: node type 6 is reserved, and a lane pointing at one
// takes no fetch, so no node lane ever carries it.
constexpr NodeType kLoadLane = NodeType::kReserved6;

// Sequencer -> node fetch: a lane that fetches a node (or a load lane's
// bytes), with what the fetch and the issue port need of its route.
// Carried, so that neither reads the wave slot's routes again: the line
// they share was last touched when the sequencer passed the lane, tens of
// clocks and many TDs' ticks before. Packed in 16 bytes: the fetch queue's
// ring stays one line at its default depth.
struct FetchJob {
  uint64_t address = 0;  // the node's (or the load's) byte address
  uint32_t slot = 0;     // wave buffer slot of its instruction
  uint8_t lane = 0;      // lane index within the wave (< 64)
  NodeType type = NodeType::kTriangle0;  // the node's; kLoadLane for a load
  uint8_t size_bytes = 0;  // 64, or 128 for an FP32 box node; a load's 4 to 16

  static FetchJob of(const LaneJob& job, uint64_t address, uint32_t bytes, NodeType type) {
    return FetchJob{address, job.slot, static_cast<uint8_t>(job.lane), type, static_cast<uint8_t>(bytes)};
  }
  LaneJob job() const { return LaneJob{slot, lane}; }
  uint32_t bytes() const { return size_bytes; }
};
static_assert(sizeof(FetchJob) == 16, "a fetch job packs in 16 bytes");

// A lane whose node fetch was accepted by L0: its fetch job, and when its
// bytes are there. It waits in the return buffer (kept in ready order; equal
// ready cycles in fetch order).
struct FetchedLane : FetchJob {
  uint64_t ready_cycle = 0;  // node bytes available from this cycle (UINT64_MAX: fill not known yet)
  uint64_t tag = 0;          // names the request to L0 while its fill is pending
  uint64_t request_cycle = 0;
};

// A fetched lane whose data cycle is known, as the return buffer's ring
// keeps it for the issue port (a load lane: for write-back's load port):
// its fetch job and ready cycle (the tag and the request cycle served the
// fill and its latency, both behind it).
struct LandedLane : FetchJob {
  uint64_t ready_cycle = 0;

  static LandedLane of(const FetchedLane& f) { return LandedLane{static_cast<const FetchJob&>(f), f.ready_cycle}; }
};

// Box stage -> sort stage: the tests' outcome and the child pointers the
// sorting network orders (the boxes themselves are no longer needed), and
// the descriptor's sort bit, which rides with the lane through the box
// datapath.
struct BoxTested {
  LaneJob job;
  std::array<uint32_t, 4> child{};
  ref::BoxTestResult tests;
  bool box_sort = true;
};
// What the sorting network takes: the box datapath's result as it is.
using SortLane = BoxTested;

// Issue port -> box or triangle datapath: the lane, its node's type and
// bytes (64, or 128 for an FP32 box node), and its ray. The pointers are
// valid only while the datapath accepts the lane.
struct NodeLane {
  LaneJob job;
  NodeType type = NodeType::kTriangle0;
  const Ray* ray = nullptr;
  const uint8_t* node = nullptr;
  const Descriptor* descriptor = nullptr;
};


// Anything -> write-back: one lane's final result.
struct LaneDone {
  uint32_t slot = 0;
  uint32_t lane = 0;
  LaneResult result;

  // A datapath's result: the lane writes these four dwords.
  static LaneDone written(const LaneJob& job, LaneOutcome outcome, const std::array<uint32_t, 4>& dwords) {
    return LaneDone{job.slot, job.lane, LaneResult{true, dwords, outcome}};
  }
};

// The bytes the node fetches and loads read: swapped only while the chip is idle.
struct BackingStore {
  const MemoryImage* image = nullptr;
};

}  // namespace td::timing

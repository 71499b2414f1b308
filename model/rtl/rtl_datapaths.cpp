#include "model/rtl/rtl_datapaths.h"

#include "model/isa/node.h"
#include "model/rtl/clocked_datapath.h"
#include "model/rtl/ports.h"

namespace td::rtl {

namespace {

using timing::BoxTested;
using timing::LaneDone;
using timing::LaneJob;
using timing::NodeLane;
using timing::SortLane;

struct BoxPorts {
  using Model = Vtd_box_datapath;
  struct Side {
    LaneJob job;
    bool box_sort;  // the descriptor's sort bit, for the sorting network
  };
  static Side drive(Model& unit, const NodeLane& lane) {
    drive_box(unit, lane.node, node_bytes(lane.type), lane.type == NodeType::kBox16, *lane.ray,
              lane.descriptor->box_grow_ulps);
    return Side{lane.job, lane.descriptor->box_sort};
  }
  static BoxTested read(const Model& unit, const Side& side) {
    BoxTested out;
    out.job = side.job;
    out.child = box_children(unit);
    out.tests = box_tests(unit);
    out.box_sort = side.box_sort;
    return out;
  }
};

struct SortPorts {
  using Model = Vtd_sort4;
  using Side = LaneJob;
  static Side drive(Model& unit, const SortLane& lane) {
    drive_sort(unit, lane.child, lane.tests, lane.box_sort);
    return lane.job;
  }
  static LaneDone read(const Model& unit, const Side& job) {
    return LaneDone::written(job, LaneOutcome::kBoxNode, sorted_children(unit));
  }
};

struct TrianglePorts {
  using Model = Vtd_tri_datapath;
  using Side = LaneJob;
  static Side drive(Model& unit, const NodeLane& lane) {
    drive_triangle(unit, lane.node, static_cast<uint32_t>(lane.type), lane.descriptor->return_mode, *lane.ray);
    return lane.job;
  }
  static LaneDone read(const Model& unit, const Side& job) {
    return LaneDone::written(job, LaneOutcome::kTriangle, triangle_dwords(unit));
  }
};

}  // namespace

std::unique_ptr<timing::BoxDatapath> make_box_datapath(timing::LaneSink<BoxTested>& out, uint32_t latency,
                                                       const std::string& scope) {
  return std::make_unique<ClockedDatapath<NodeLane, BoxTested, BoxPorts>>(out, latency, scope);
}

std::unique_ptr<timing::SortDatapath> make_sort_datapath(timing::LaneSink<LaneDone>& out, uint32_t latency,
                                                         const std::string& scope) {
  return std::make_unique<ClockedDatapath<SortLane, LaneDone, SortPorts>>(out, latency, scope);
}

std::unique_ptr<timing::TriangleDatapath> make_triangle_datapath(timing::LaneSink<LaneDone>& out, uint32_t latency,
                                                                 const std::string& scope) {
  return std::make_unique<ClockedDatapath<NodeLane, LaneDone, TrianglePorts>>(out, latency, scope);
}

}  // namespace td::rtl

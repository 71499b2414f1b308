#include "model/td/datapath_factory.h"

#include "model/td/box_stage.h"
#include "model/td/sort_stage.h"
#include "model/td/tri_stage.h"

namespace td::timing {

const DatapathFactory& cpp_datapaths() {
  static const DatapathFactory factory{
      "cpp", "the golden reference's maths, each result handed over as its lane enters, stamped with its latency",
      [](LaneSink<BoxTested>& out, uint32_t latency, const std::string&) -> std::unique_ptr<BoxDatapath> {
        return std::make_unique<CppDatapath<NodeLane, BoxTested, box_datapath_cpp>>(out, latency);
      },
      [](LaneSink<LaneDone>& out, uint32_t latency, const std::string&) -> std::unique_ptr<SortDatapath> {
        return std::make_unique<CppDatapath<SortLane, LaneDone, sort_datapath_cpp>>(out, latency);
      },
      [](LaneSink<LaneDone>& out, uint32_t latency, const std::string&) -> std::unique_ptr<TriangleDatapath> {
        return std::make_unique<CppDatapath<NodeLane, LaneDone, triangle_datapath_cpp>>(out, latency);
      }};
  return factory;
}

}  // namespace td::timing

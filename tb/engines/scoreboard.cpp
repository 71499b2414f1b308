#include "tb/engines/scoreboard.h"

#include <fmt/format.h>

#include "model/ref/intersect.h"
#include "tb/vectors/check.h"

namespace td::tb {

uint32_t Scoreboard::check(const WaveInstr& instr, const WaveResult& result, const MemoryImage& memory) {
  uint32_t bad = 0;
  const size_t lanes = instr.lanes.size();
  if (result.lanes.size() != lanes) {
    ++mismatches_;
    if (reports_.size() < kMaxReports)
      reports_.push_back(fmt::format("wave {}: {} lanes returned for {} issued", instr.id, result.lanes.size(), lanes));
    return 1;
  }
  for (size_t i = 0; i < lanes; ++i) {
    const LaneResult expected = ref::intersect(instr.descriptor, instr.lanes[i], memory);
    ++lanes_checked_;
    if (!instr.lanes[i].exec) ++inactive_lanes_checked_;
    if (result.lanes[i].same_value(expected)) continue;
    ++bad;
    ++mismatches_;
    if (reports_.size() < kMaxReports)
      reports_.push_back(fmt::format("wave {} lane {}: reference {} model {}", instr.id, i, format_result(expected),
                                     format_result(result.lanes[i])));
  }
  return bad;
}

void Scoreboard::report_unknown(uint64_t wave_id) {
  ++mismatches_;
  if (reports_.size() < kMaxReports)
    reports_.push_back(fmt::format("wave {}: returned but not in flight (duplicated or never issued)", wave_id));
}

}  // namespace td::tb

#include "tb/engines/scoreboard.h"

#include <fmt/format.h>

#include <utility>

#include "model/ref/intersect.h"
#include "model/ref/load.h"

namespace td::tb {

uint32_t Scoreboard::check(const WaveInstr& instr, const WaveResult& result, const MemoryImage& memory,
                           uint64_t order) {
  uint32_t bad = 0;
  const size_t lanes = instr.lanes.size();
  if (result.lanes.size() != lanes) {
    ++mismatches_;
    report(order, fmt::format("wave {}: {} lanes returned for {} issued", instr.id, result.lanes.size(), lanes));
    return 1;
  }
  for (size_t i = 0; i < lanes; ++i)
    if (!check_lane(instr.kind, instr.descriptor, instr.lanes[i], result.lanes[i], memory, instr.id, i, order)) ++bad;
  return bad;
}

bool Scoreboard::check_lane(InstrKind kind, const Descriptor& descriptor, const LaneInput& input,
                            const LaneResult& result, const MemoryImage& memory, uint64_t wave_id, size_t lane_index,
                            uint64_t order) {
  ++lanes_checked_;
  if (!input.exec) ++inactive_lanes_checked_;
  LaneResult expected;
  if (kind == InstrKind::kLoad) {
    ++load_lanes_checked_;
    const std::string error = ref::load_lane_error(input);
    if (!error.empty()) {  // no TD returns such a lane: it refuses the instruction
      ++mismatches_;
      report(order, fmt::format("wave {} lane {}: the reference refuses it ({}), model {}", wave_id, lane_index, error,
                                format_result(result)));
      return false;
    }
    expected = ref::load(input, memory);
  } else {
    expected = ref::intersect(descriptor, input, memory);
  }
  if (result.same_value(expected)) return true;
  ++mismatches_;
  if (reports_.size() < kMaxReports)
    report(order, fmt::format("wave {} lane {}: reference {} model {}", wave_id, lane_index, format_result(expected),
                              format_result(result)));
  return false;
}

void Scoreboard::report_unknown(uint64_t wave_id, uint64_t order) {
  ++mismatches_;
  report(order, fmt::format("wave {}: returned but not in flight (duplicated or never issued)", wave_id));
}

void Scoreboard::report(uint64_t order, std::string text) {
  if (reports_.size() >= kMaxReports) return;
  report_orders_.push_back(order);
  reports_.push_back(std::move(text));
}

void Scoreboard::merge(const Scoreboard& other) {
  lanes_checked_ += other.lanes_checked_;
  inactive_lanes_checked_ += other.inactive_lanes_checked_;
  load_lanes_checked_ += other.load_lanes_checked_;
  mismatches_ += other.mismatches_;
  if (other.reports_.empty()) return;
  // Both lists are in order: merge them, keeping the first kMaxReports
  // (this one's first on equal orders).
  std::vector<uint64_t> orders;
  std::vector<std::string> texts;
  size_t a = 0, b = 0;
  while (texts.size() < kMaxReports && (a < reports_.size() || b < other.reports_.size())) {
    const bool take_other =
        a == reports_.size() || (b < other.reports_.size() && other.report_orders_[b] < report_orders_[a]);
    if (take_other) {
      orders.push_back(other.report_orders_[b]);
      texts.push_back(other.reports_[b++]);
    } else {
      orders.push_back(report_orders_[a]);
      texts.push_back(std::move(reports_[a++]));
    }
  }
  report_orders_ = std::move(orders);
  reports_ = std::move(texts);
}

}  // namespace td::tb

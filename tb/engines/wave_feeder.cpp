#include "tb/engines/wave_feeder.h"

#include "model/ref/load.h"
#include "tb/common/rng.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace td::tb {

WaveFeeder::WaveFeeder(size_t td_count, const MemoryImage& memory, bool issues_loads)
    : tds_(td_count), tds_state_(td_count), issues_loads_(issues_loads), memory_(&memory), checks_(td_count) {}

bool WaveFeeder::done() const {
  if (generator_) return false;
  for (const TdState& td : tds_state_)
    if (!td.queue.empty() || !td.in_flight.empty()) return false;
  return true;
}

void WaveFeeder::refuse_results(uint32_t percent, uint64_t seed) {
  refuse_percent_ = percent;
  for (size_t t = 0; t < tds_state_.size(); ++t) tds_state_[t].refuse_state = Rng(seed + t).next();
}

uint64_t WaveFeeder::results_refused() const {
  uint64_t n = 0;
  for (const TdState& td : tds_state_) n += td.results_refused;
  return n;
}

uint64_t WaveFeeder::waves_completed() const {
  uint64_t n = 0;
  for (const TdState& td : tds_state_) n += td.waves_completed;
  return n;
}

uint64_t WaveFeeder::first_accept_cycle() const {
  uint64_t c = UINT64_MAX;
  for (const TdState& td : tds_state_) c = std::min(c, td.first_accept);
  return c;
}

uint64_t WaveFeeder::last_complete_cycle() const {
  uint64_t c = 0;
  for (const TdState& td : tds_state_) c = std::max(c, td.last_complete);
  return c;
}

std::vector<WaveFeeder::Returned> WaveFeeder::completions() const {
  std::vector<Returned> all;
  for (const TdState& td : tds_state_) all.insert(all.end(), td.completions.begin(), td.completions.end());
  std::stable_sort(all.begin(), all.end(), [](const Returned& a, const Returned& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.td_index < b.td_index;
  });
  return all;
}

// A SIMD issues wave32 or wave64 instructions, and loads that stay inside
// their 64-byte units; anything else is a testbench bug, stopped here rather
// than inside the model.
void WaveFeeder::check_instruction(const WaveInstr& instr) const {
  if (instr.lanes.empty() || instr.lanes.size() > WaveInstr::kMaxLanes)
    throw std::invalid_argument(fmt::format("wave instruction with {} lanes (must be 1 to {})", instr.lanes.size(),
                                            WaveInstr::kMaxLanes));
  if (instr.kind != InstrKind::kLoad) return;
  if (!issues_loads_)
    throw std::invalid_argument("a load instruction for a wave feeder made without issues_loads");
  for (size_t l = 0; l < instr.lanes.size(); ++l) {
    if (!ref::load_lane_ok(instr.lanes[l]))
      throw std::invalid_argument(fmt::format("load instruction lane {}: {}", l, ref::load_lane_error(instr.lanes[l])));
  }
}

uint64_t WaveFeeder::push(uint32_t td_index, WaveInstr instr) {
  check_instruction(instr);
  if (td_index >= tds_) throw std::out_of_range(fmt::format("wave feeder: no TD {}", td_index));
  instr.id = next_id(td_index);
  const uint64_t id = instr.id;
  tds_state_[td_index].queue.push_back(std::move(instr));
  return id;
}

bool WaveFeeder::next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& /*retry_cycle*/) {
  TdState& td = tds_state_[td_index];
  if (td.queue.empty()) {
    if (!generator_) return false;
    WaveInstr made;
    if (!generator_(td_index, made)) return false;
    check_instruction(made);
    made.id = next_id(td_index);
    out = made;
    td.in_flight.emplace(made.id, std::move(made));
  } else {
    out = td.queue.front();
    td.in_flight.emplace(out.id, std::move(td.queue.front()));
    td.queue.pop_front();
  }
  td.first_accept = std::min(td.first_accept, cycle);
  return true;
}

bool WaveFeeder::wave_completed(uint32_t td_index, WaveResult& result) {
  TdState& td = tds_state_[td_index];
  if (refuse_percent_ > 0 && Rng(td.refuse_state++).chance(refuse_percent_)) {
    ++td.results_refused;
    return false;
  }
  // Reports are kept in this order (Scoreboard): each TD's in turn.
  const uint64_t order = td_index + tds_ * td.returned++;
  const auto it = td.in_flight.find(result.id);
  if (it == td.in_flight.end()) {
    // A result nobody issued: the model duplicated or invented an instruction.
    td.unknown.report_unknown(result.id, order);
    return true;
  }
  ++td.waves_completed;
  td.last_complete = std::max(td.last_complete, result.complete_cycle);
  uint32_t active = 0;
  for (const LaneResult& lane : result.lanes) active += lane.written ? 1 : 0;
  td.completions.push_back(Returned{td_index, result.complete_cycle, active});
  if (completion_) completion_(td_index, it->second, result);
  if (check_every_ != 0 && number_in_td(result.id) % check_every_ == 0) {
    // Checked by process_returned(), maybe on another thread: kept until then
    // (in storage reused from earlier checks: no allocation per instruction).
    PendingCheck& pending = checks_.next_slot(td_index);
    pending.order = order;
    std::swap(pending.instr, it->second);
    pending.result = result;
  }
  td.in_flight.erase(it);
  return true;
}

void WaveFeeder::process_returned(uint32_t td_index) {
  checks_.run(td_index, [this](Scoreboard& board, const PendingCheck& pending) { check(board, pending); });
}

const Scoreboard& WaveFeeder::scoreboard() {
  merged_.clear();
  for (const TdState& td : tds_state_) merged_.merge(td.unknown);
  // (Any the chip has not asked for yet run first.)
  checks_.merge_into(merged_, [this](Scoreboard& board, const PendingCheck& pending) { check(board, pending); });
  return merged_;
}

void WaveFeeder::reset_window() {
  for (TdState& td : tds_state_) {
    td.first_accept = UINT64_MAX;
    td.last_complete = 0;
    td.completions.clear();
  }
}

}  // namespace td::tb

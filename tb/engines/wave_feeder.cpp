#include "tb/engines/wave_feeder.h"

#include "model/ref/load.h"
#include "tb/common/rng.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace td::tb {

WaveFeeder::WaveFeeder(size_t td_count, const MemoryImage& memory, bool issues_loads)
    : queues_(td_count), issues_loads_(issues_loads), memory_(&memory), checks_(td_count) {}

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
    const std::string error = ref::load_lane_error(instr.lanes[l]);
    if (!error.empty()) throw std::invalid_argument(fmt::format("load instruction lane {}: {}", l, error));
  }
}

uint64_t WaveFeeder::push(uint32_t td_index, WaveInstr instr) {
  check_instruction(instr);
  instr.id = next_id_++;
  const uint64_t id = instr.id;
  queues_.at(td_index).push_back(std::move(instr));
  ++queued_;
  return id;
}

bool WaveFeeder::next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& /*retry_cycle*/) {
  std::deque<WaveInstr>& queue = queues_[td_index];
  if (queue.empty()) {
    if (!generator_) return false;
    WaveInstr made;
    if (!generator_(td_index, made)) return false;
    check_instruction(made);
    made.id = next_id_++;
    out = made;
    in_flight_.emplace(made.id, std::move(made));
  } else {
    out = queue.front();
    in_flight_.emplace(out.id, std::move(queue.front()));
    queue.pop_front();
    --queued_;
  }
  first_accept_ = std::min(first_accept_, cycle);
  return true;
}

bool WaveFeeder::wave_completed(uint32_t td_index, WaveResult& result) {
  if (refuse_percent_ > 0 && Rng(refuse_state_++).chance(refuse_percent_)) {
    ++results_refused_;
    return false;
  }
  const uint64_t order = returned_++;
  const auto it = in_flight_.find(result.id);
  if (it == in_flight_.end()) {
    // A result nobody issued: the model duplicated or invented an instruction.
    unknown_.report_unknown(result.id, order);
    return true;
  }
  ++waves_completed_;
  last_complete_ = std::max(last_complete_, result.complete_cycle);
  uint32_t active = 0;
  for (const LaneResult& lane : result.lanes) active += lane.written ? 1 : 0;
  completions_.push_back(Returned{td_index, result.complete_cycle, active});
  if (completion_) completion_(td_index, it->second, result);
  if (check_every_ != 0 && result.id % check_every_ == 0) {
    // Checked by process_returned(), maybe on another thread: kept until then
    // (in storage reused from earlier checks: no allocation per instruction).
    PendingCheck& pending = checks_.next_slot(td_index);
    pending.order = order;
    std::swap(pending.instr, it->second);
    pending.result = result;
  }
  in_flight_.erase(it);
  return true;
}

void WaveFeeder::process_returned(uint32_t td_index) {
  checks_.run(td_index, [this](Scoreboard& board, const PendingCheck& pending) { check(board, pending); });
}

const Scoreboard& WaveFeeder::scoreboard() {
  merged_.clear();
  merged_.merge(unknown_);
  // (Any the chip has not asked for yet run first.)
  checks_.merge_into(merged_, [this](Scoreboard& board, const PendingCheck& pending) { check(board, pending); });
  return merged_;
}

void WaveFeeder::reset_window() {
  first_accept_ = UINT64_MAX;
  last_complete_ = 0;
  completions_.clear();
}

}  // namespace td::tb

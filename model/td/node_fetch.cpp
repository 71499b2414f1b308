#include "model/td/node_fetch.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "model/sim/debug.h"

namespace td::timing {

NodeFetch::NodeFetch(const char* name, uint32_t return_buffer_entries, sim::Channel<FetchJob>& in,
                     mem::MemLevel& l0, TdStats& stats, std::function<void(uint64_t)> on_fill)
    : in_(in),
      l0_(l0),
      l0_cache_(dynamic_cast<mem::Cache*>(&l0)),
      stats_(stats),
      buffer_(return_buffer_entries),
      on_fill_(std::move(on_fill)),
      view_(name) {}

void NodeFetch::mem_retry(uint64_t tag, uint64_t cycle) {
  if (!refused_ || tag != refused_tag_) return;  // a stale notice
  retry_cycle_ = cycle;
  if (on_fill_) on_fill_(cycle);
}

void NodeFetch::mem_ready(uint64_t tag, uint64_t cycle) {
  FetchedLane lane;
  if (!buffer_.fill_known(tag, cycle, lane)) return;  // dropped by a reset
  stats_.lane_fetch_latency.sample(cycle - lane.request_cycle);
  if (on_fill_) on_fill_(cycle);
}

void NodeFetch::tick(uint64_t cycle) {
  requested_ = stalled_memory_ = stalled_full_ = false;
  if (!in_.can_pop(cycle)) return;
  if (buffer_.full()) {
    stalled_full_ = true;
    ++stats_.stall(Stall::kReturnBufferFull);
    return;
  }
  if (cycle < retry_cycle_) {
    stalled_memory_ = true;
    ++stats_.stall(Stall::kL0MshrsFull);
    return;
  }
  const FetchJob& fetch = in_.front();
  const LaneJob job = fetch.job();
  // A retry of a refused request keeps its tag: L0 may hold an MSHR for it.
  const uint64_t tag = refused_ ? refused_tag_ : next_tag_++;
  const uint32_t bytes = fetch.bytes();
  const bool is_load = fetch.type == kLoadLane;
  const mem::Traffic traffic = is_load ? mem::Traffic::kLoad : mem::Traffic::kNode;
  const mem::MemResponse response = l0_cache_ ? l0_cache_->Cache::access(fetch.address, bytes, cycle, this, tag, traffic)
                                              : l0_.access(fetch.address, bytes, cycle, this, tag, traffic);
  refused_ = !response.accepted;
  refused_tag_ = tag;
  if (!response.accepted) {
    retry_cycle_ = response.cycle;
    stalled_memory_ = true;
    ++stats_.stall(Stall::kL0MshrsFull);
    TD_DEBUG(kTd, cycle, name(), "L0 refused lane {} (MSHRs full): retry at {}", job.lane, retry_cycle_);
    return;
  }
  TD_DEBUG(kTd, cycle, name(), "wave slot {} lane {}: {} B at {:#x}, L0 {}, {}", job.slot, job.lane, bytes,
           fetch.address, response.hit ? "hit" : "miss",
           response.pending ? std::string("fill pending") : fmt::format("ready at {}", response.cycle));
  requested_ = true;
  last_hit_ = response.hit;
  if (__builtin_expect(is_load, 0)) ++loads_in_buffer_;
  last_address_ = fetch.address;
  if (!response.pending) stats_.lane_fetch_latency.sample(response.cycle - cycle);
  const FetchedLane lane{fetch, response.pending ? UINT64_MAX : response.cycle, tag, cycle};
  in_.pop();
  if (response.pending)
    buffer_.wait_for_fill(lane);
  else
    buffer_.land(lane);
}

uint64_t NodeFetch::next_request_cycle() const {
  if (in_.empty() || buffer_.full()) return UINT64_MAX;
  return std::max(in_.front_visible_cycle(), retry_cycle_);
}

std::string NodeFetch::describe(uint64_t cycle) const {
  size_t ready = 0, landing = 0;
  const size_t unknown = buffer_.waiting_for_fill();
  uint64_t last = 0;
  buffer_.for_each_landed([&](const LandedLane& lane) {
    if (lane.ready_cycle > cycle) {
      ++landing;
      last = std::max(last, lane.ready_cycle);
    } else {
      ++ready;
    }
  });
  std::string out = fmt::format("{}: return buffer {} of {}", name(), buffer_.size(), buffer_.entries());
  if (!buffer_.empty()) {
    out += fmt::format(" ({} ready, {} waiting for a fill whose cycle is not known", ready, unknown);
    if (landing > 0) out += fmt::format(", {} with data landing by cycle {}", landing, last);
    out += ")";
  }
  if (!in_.empty()) {
    out += fmt::format("; {} lanes in the fetch queue", in_.size());
    if (buffer_full())
      out += ", waiting for a return-buffer entry";
    else if (refused_ && retry_cycle_ == mem::kRetryWhenTold)
      out += ", L0 refused the next (MSHRs busy): waiting to be told when to retry";
    else if (refused_ && retry_cycle_ > cycle)
      out += fmt::format(", L0 refused the next (MSHRs busy): retry at cycle {}", retry_cycle_);
  }
  return out;
}

void NodeFetch::reset() {
  buffer_.clear();
  loads_in_buffer_ = 0;
  refused_ = false;
  retry_cycle_ = 0;
  requested_ = stalled_memory_ = stalled_full_ = false;
}

void NodeFetch::attach_trace(sim::VcdWriter& vcd) {
  const std::string prefix = std::string(name()) + ".";
  trace_.req_valid = vcd.add(prefix + "req_valid", 1);
  trace_.req_address = vcd.add(prefix + "req_address", 64);
  trace_.l0_hit = vcd.add(prefix + "l0_hit", 1);
  trace_.l0_miss = vcd.add(prefix + "l0_miss", 1);
  trace_.stall_memory = vcd.add(prefix + "stall_memory", 1);
  trace_.stall_full = vcd.add(prefix + "stall_return_buffer_full", 1);
  trace_.buffer_count = vcd.add(prefix + "return_buffer_count", 16);
  trace_.buffer_ready = vcd.add(prefix + "return_buffer_ready", 1);
}

void NodeFetch::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const {
  vcd.set(trace_.req_valid, requested_, cycle);
  vcd.set(trace_.req_address, last_address_, cycle);
  vcd.set(trace_.l0_hit, requested_ && last_hit_, cycle);
  vcd.set(trace_.l0_miss, requested_ && !last_hit_, cycle);
  vcd.set(trace_.stall_memory, stalled_memory_, cycle);
  vcd.set(trace_.stall_full, stalled_full_, cycle);
  vcd.set(trace_.buffer_count, buffer_.size(), cycle);
  vcd.set(trace_.buffer_ready, !buffer_.full(), cycle);
}

}  // namespace td::timing

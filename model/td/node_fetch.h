// node_fetch.h — requests each lane's node (64 or 128 bytes, as the
// sequencer's FetchJob says; a load lane's 4 to 16 bytes alike) from the
// TD's L0, one request a clock, and holds the lane in the return buffer
// until its bytes arrive. The buffer's depth bounds the lanes in flight;
// misses return out of order, and the issue port (a load lane: write-back's
// load port) takes the lane whose data is ready first.
#pragma once

#include <functional>
#include <string>

#include "model/mem/cache.h"
#include "model/mem/mem_level.h"
#include "model/sim/channel.h"
#include "model/sim/vcd_writer.h"
#include "model/td/td_stats.h"
#include "model/td/return_buffer.h"
#include "model/td/stage_view.h"
#include "model/td/td_types.h"

namespace td::timing {

class NodeFetch : public mem::MemClient {
 public:
  // `on_fill` hears the cycle a pending fill lands (the TD is due then).
  NodeFetch(const char* name, uint32_t return_buffer_entries, sim::Channel<FetchJob>& in, mem::MemLevel& l0,
            TdStats& stats, std::function<void(uint64_t)> on_fill);

  // L0 found the cycle of a fill this stage waits for.
  void mem_ready(uint64_t tag, uint64_t cycle) override;
  // L0, which refused this stage, can take a request from `cycle`.
  void mem_retry(uint64_t tag, uint64_t cycle) override;

  void tick(uint64_t cycle);

  // Return buffer, issue-port side.
  bool has_ready(uint64_t cycle) const { return buffer_.has_landed() && buffer_.front().ready_cycle <= cycle; }
  const LandedLane& ready_lane() const { return buffer_.front(); }
  LandedLane take() {
    if (buffer_.front().type == kLoadLane) --loads_in_buffer_;
    return buffer_.take_front();
  }
  bool buffer_empty() const { return buffer_.empty(); }
  size_t buffer_count() const { return buffer_.size(); }
  bool buffer_full() const { return buffer_.full(); }
  bool input_pending() const { return !in_.empty(); }
  // Every lane in the return buffer is a load lane (and there is one).
  bool only_loads_in_buffer() const { return loads_in_buffer_ != 0 && loads_in_buffer_ == buffer_.size(); }
  // UINT64_MAX while every lane waits for a fill whose cycle is not known.
  uint64_t earliest_ready() const { return buffer_.earliest_ready(); }

  // Earliest cycle this stage can move a lane from its input; UINT64_MAX if
  // it waits for something else (empty input, full return buffer).
  uint64_t next_request_cycle() const;
  void reset();
  // The return buffer and what the next request waits on at `cycle` (a
  // deadlock report): one line under the stage's name.
  std::string describe(uint64_t cycle) const;

  // Waveform: this stage's signals under its name. attach_trace() once,
  // sample_trace() after each clock's tick.
  void attach_trace(sim::VcdWriter& vcd);
  void sample_trace(sim::VcdWriter& vcd, uint64_t cycle) const;
  const char* name() const { return view_.name(); }
  // The last tick.
  bool requested() const { return requested_; }
  bool last_hit() const { return last_hit_; }
  uint64_t last_address() const { return last_address_; }
  bool stalled_memory() const { return stalled_memory_; }
  bool stalled_full() const { return stalled_full_; }

 private:
  // What a tick reads first, together; the fill callback and the trace's
  // fields last.
  sim::Channel<FetchJob>& in_;
  mem::MemLevel& l0_;
  // The same L0 when it is a Cache (a TD's always is; a stage test's may be
  // a fake): asked without the virtual call, so that its hit path inlines
  // into the TD's tick.
  mem::Cache* const l0_cache_;
  TdStats& stats_;
  uint64_t retry_cycle_ = 0;  // L0 refused: no request before this cycle
  uint64_t next_tag_ = 0;
  uint64_t refused_tag_ = 0;
  bool refused_ = false;  // the front lane's last request was refused
  bool requested_ = false, last_hit_ = false, stalled_memory_ = false, stalled_full_ = false;
  ReturnBuffer buffer_;
  size_t loads_in_buffer_ = 0;  // load lanes among the buffer's
  uint64_t last_address_ = 0;
  std::function<void(uint64_t)> on_fill_;
  struct TraceSignals {
    sim::VcdWriter::SignalId req_valid, req_address, l0_hit, l0_miss, stall_memory, stall_full, buffer_count,
        buffer_ready;
  } trace_{};
  StageView view_;
};

}  // namespace td::timing

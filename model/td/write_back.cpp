#include "model/td/write_back.h"

#include <algorithm>
#include <string>

#include <stdexcept>
#include <utility>

#include "model/sim/debug.h"

namespace td::timing {

WriteBack::WriteBack(const char* name, uint32_t td_index, uint32_t return_latency_cycles, WaveBuffer& waves,
                     sim::Channel<LaneDone>& from_no_fetch, WaveClient& client, TdStats& stats)
    : td_index_(td_index),
      return_latency_(return_latency_cycles),
      waves_(waves),
      from_no_fetch_(from_no_fetch),
      client_(client),
      stats_(stats),
      view_(name) {}

void WriteBack::Port::deliver(const LaneDone& done, uint64_t cycle) {
  if (__builtin_expect(cycle <= last_cycle_ && last_cycle_ != kNone, 0))
    throw std::logic_error("WriteBack::Port: two lanes for one clock, or a clock earlier than the last");
  last_cycle_ = cycle;
  write_back_.write(done, cycle);
}

// Lanes may be handed over ahead of lanes that land before them (a box
// lane's result behind a later triangle lane's): the instruction completes
// after the latest.
void WriteBack::write(const LaneDone& done, uint64_t cycle) {
  WaveSlot& slot = waves_.slot(done.slot);
  slot.results[done.lane] = done.result;
  ++slot.lanes_written;
  ++lanes_written_;
  if (traced_) trace_writes_.push_back(cycle);
  slot.last_write_cycle = std::max(slot.last_write_cycle, cycle);
  if (slot.written() && slot.sequenced()) {
    slot.done_cycle = slot.last_write_cycle + return_latency_;
    retire_from_ = std::min(retire_from_, slot.done_cycle);  // (it may be the oldest)
  }
}

void WriteBack::retire(uint64_t cycle) {
  if (cycle < retire_from_) return;
  while (!waves_.empty()) {
    WaveSlot& oldest = waves_.oldest();
    // Still being sequenced: looked at again next clock (the sequencer does
    // not call here). Sequenced with a lane still to land: land() says when.
    if (!oldest.sequenced()) {
      retire_from_ = cycle + 1;
      return;
    }
    if (!oldest.written()) {
      retire_from_ = UINT64_MAX;
      return;
    }
    // An instruction with no lane to write (all inactive) is done from the
    // clock the sequencer passed it, like one whose last lane was written then.
    if (oldest.lanes_to_write == 0) oldest.done_cycle = oldest.sequenced_cycle + return_latency_;
    if (oldest.done_cycle > cycle) {
      retire_from_ = oldest.done_cycle;
      return;
    }
    WaveResult& result = outgoing_;
    result.id = oldest.id;
    // The slot refills its own vector at its next accept.
    std::swap(result.lanes, oldest.results);
    result.accept_cycle = oldest.accept_cycle;
    result.complete_cycle = cycle;
    if (!client_.wave_completed(td_index_, result)) {
      // The wave cannot take its results this clock: hold them (in order,
      // so everything younger waits too) and offer them again next clock.
      std::swap(result.lanes, oldest.results);
      ++stats_.stall(Stall::kResultRefused);
      TD_DEBUG(kTd, cycle, name(), "wave {} refused its results: held", oldest.id);
      retire_from_ = cycle + 1;
      return;
    }
    stats_.wave_latency.sample(cycle - oldest.accept_cycle);
    if (oldest.kind == InstrKind::kLoad) ++stats_.loads;
    TD_DEBUG(kTd, cycle, name(), "wave {} returned: {} lanes written, latency {} cycles", result.id,
             oldest.lanes_written, cycle - oldest.accept_cycle);
    ++stats_.waves;
    waves_.retire_oldest();
    retired_ = true;
  }
  retire_from_ = UINT64_MAX;  // none in flight: until one is accepted
}

// The no-fetch path delivers at most one lane a clock.
void WriteBack::write_lanes(uint64_t cycle) {
  lanes_written_ = 0;
  if (from_no_fetch_.can_pop(cycle)) write(from_no_fetch_.pop(), cycle);
}

void WriteBack::reset() {
  retire_from_ = 0;
  sort_port_.reset();
  tri_port_.reset();
  load_port_.reset();
  trace_writes_.clear();
}

void WriteBack::retire_done(uint64_t cycle) {
  retired_ = false;
  retire(cycle);
}

uint64_t WriteBack::next_retire_cycle() const {
  if (waves_.empty()) return UINT64_MAX;
  const WaveSlot& oldest = waves_.slot(waves_.head());
  if (!oldest.sequenced() || !oldest.written()) return UINT64_MAX;
  return oldest.lanes_to_write == 0 ? oldest.sequenced_cycle + return_latency_ : oldest.done_cycle;
}


void WriteBack::attach_trace(sim::VcdWriter& vcd) {
  traced_ = true;
  const std::string prefix = std::string(name()) + ".";
  trace_.lanes_written = vcd.add(prefix + "lanes_written", 4);
  trace_.wave_retired = vcd.add(prefix + "wave_retired", 1);
  trace_.waves_in_flight = vcd.add(prefix + "waves_in_flight", 16);
}

void WriteBack::sample_trace(sim::VcdWriter& vcd, uint64_t cycle) {
  // The lanes that reach write-back in this cycle, wherever they came from.
  uint32_t written = 0;
  size_t kept = 0;
  for (const uint64_t c : trace_writes_) {
    if (c == cycle) ++written;
    if (c > cycle) trace_writes_[kept++] = c;
  }
  trace_writes_.resize(kept);
  vcd.set(trace_.lanes_written, written, cycle);
  vcd.set(trace_.wave_retired, retired_, cycle);
  vcd.set(trace_.waves_in_flight, waves_.count(), cycle);
}

}  // namespace td::timing

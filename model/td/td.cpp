#include "model/td/td.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>

#include "model/ref/load.h"
#include "model/sim/debug.h"


namespace td::timing {

// VCD signal handles of the TD's own parts (accept, fetch queue, issue
// port), created only when a trace is attached; each stage keeps its own.
struct Td::TraceIds {
  sim::VcdWriter::SignalId accept_valid, accept_ready;
  sim::VcdWriter::SignalId fq_count, fq_ready;
  sim::VcdWriter::SignalId port_valid, port_box, port_lane, port_type, port_wave;
};

namespace {
const DatapathFactory& datapaths_of(const TdParams& params) {
  if (!params.datapaths) throw std::logic_error("TdParams: no datapath implementation (datapaths)");
  return *params.datapaths;
}
}  // namespace

Td::Td(sc_core::sc_module_name name, uint32_t index, const TdParams& params, mem::MemLevel& l1,
       mem::EventQueue* events, const BackingStore& store, WaveClient& client, sim::StatsRegistry& stats)
    : sc_module(name),
      index_(index),
      store_(store),
      client_(client),
      fetch_queue_(params.fetch_queue_depth),
      no_fetch_(2),
      stats_(stats.block<TdStats>(sim::StatGroup(stats, this->name()), client.issues_loads())),
      l0_events_(events, index),
      l0_(params.l0, l1, sim::StatGroup(stats, std::string(this->name()) + ".l0"), &l0_events_,
          client.issues_loads()),
      waves_(params.instruction_queue_depth),
      sequencer_("lane_sequencer", waves_, fetch_queue_, no_fetch_, stats_),
      node_fetch_("node_fetch", params.return_buffer_entries, fetch_queue_, l0_, stats_,
                  [this](uint64_t cycle) { *due_cycle_ = std::min(*due_cycle_, cycle); }),
      write_back_("write_back", index, params.return_latency_cycles, waves_, no_fetch_, client, stats_),
      sort_stage_("sort_stage", params.sort_latency_cycles, write_back_.sort_port(), datapaths_of(params).sort),
      box_stage_("box_stage", params.box_latency_cycles, sort_stage_, datapaths_of(params).box),
      tri_stage_("tri_stage", params.triangle_latency_cycles, write_back_.tri_port(), datapaths_of(params).triangle) {
  clocked_datapaths_ = box_stage_.clocked() || sort_stage_.clocked() || tri_stage_.clocked();
  counts_loads_ = client.issues_loads();
}

Td::~Td() = default;

void Td::wake() {
  client_may_have_work_ = true;
  *due_cycle_ = 0;
  woken_ = true;
}

void Td::reset() {
  client_retry_cycle_ = WaveClient::kNever;
  waves_.clear();
  fetch_queue_.clear();
  no_fetch_.clear();
  write_back_.reset();
  sequencer_.reset();
  node_fetch_.reset();
  box_stage_.reset();
  sort_stage_.reset();
  tri_stage_.reset();
  client_may_have_work_ = true;
  *due_cycle_ = 0;
  idle_stalls_ = 0;
}

void Td::account_until(uint64_t cycle) {
  stats_.cycles.reset();
  stats_.cycles.add(cycle);
}

// A bit per Stall cause that holds while the TD is not ticked. (Port-busy
// stalls need a ready lane, refused results a result: those clocks are ticked.)
uint32_t Td::idle_stalls() const {
  const auto bit = [](Stall cause) { return 1u << static_cast<uint32_t>(cause); };
  uint32_t stalls = 0;
  if (sequencer_.blocked_on_fetch_queue()) stalls |= bit(Stall::kFetchQueueFull);
  if (node_fetch_.input_pending()) stalls |= bit(node_fetch_.buffer_full() ? Stall::kReturnBufferFull : Stall::kL0MshrsFull);
  if (!node_fetch_.buffer_empty()) stalls |= bit(Stall::kWaitingMemory);
  if (node_fetch_.only_loads_in_buffer()) stalls |= bit(Stall::kWaitingLoads);
  return stalls;
}

void Td::charge_skipped_clocks(uint64_t clocks) {
  for (uint32_t stalls = idle_stalls_; stalls != 0; stalls &= stalls - 1)
    stats_.stall_cycles[__builtin_ctz(stalls)].add(clocks);
}

void Td::tick_client_side(uint64_t cycle) {
  if (ticked_ && cycle > last_tick_cycle_ + 1) charge_skipped_clocks(cycle - last_tick_cycle_ - 1);
  ticked_ = true;
  last_tick_cycle_ = cycle;
  // Without a return latency, a lane written this clock may complete an
  // instruction that returns this clock: the writes come first, here.
  if (write_back_.return_latency() == 0) clock_and_write_lanes(cycle);
  write_back_.retire_done(cycle);
  accept_instruction(cycle);
  woken_ = false;
}

void Td::clock_and_write_lanes(uint64_t cycle) {
  // The datapaths' clocks first (a clocked RTL pipeline hands the lanes
  // that come out to the next stage), then the no-fetch lane written.
  if (clocked_datapaths_) {
    box_stage_.clock(cycle);
    tri_stage_.clock(cycle);
    sort_stage_.clock(cycle);
  }
  write_back_.write_lanes(cycle);
}

void Td::tick_pipeline(uint64_t cycle) {
  l0_events_.hold(cycle);
  // (Usually here: a lane written this clock returns a clock later at the
  // earliest, so retiring first changes nothing; see WriteBack.)
  if (write_back_.return_latency() > 0) clock_and_write_lanes(cycle);
  if (accepted_) plan_accepted(cycle);
  sort_stage_.tick(cycle);
  issue_port(cycle);
  node_fetch_.tick(cycle);
  sequencer_.tick(cycle);
  // Anything moved: the run is not stuck. (Flags this tick already kept.)
  if (progress_ && (accepted_ || port_valid_ || sequencer_.issued() || node_fetch_.requested() ||
                    sort_stage_.accepted() || write_back_.lanes_written() != 0 || write_back_.retired()))
    progress_->note(cycle);
  const uint64_t next = next_active_cycle(cycle);
  idle_stalls_ = next > cycle + 1 ? idle_stalls() : 0;
  *due_cycle_ = woken_ ? 0 : next;
}

void Td::issue_port(uint64_t cycle) {
  port_valid_ = false;
  if (!node_fetch_.has_ready(cycle)) {
    count_waiting_memory();
    return;
  }
  // A load lane at the head leaves by the load port; a node lane ready
  // behind it may still take the issue port this clock.
  if (__builtin_expect(node_fetch_.ready_lane().type == kLoadLane, 0)) {
    return_load(cycle);
    if (!node_fetch_.has_ready(cycle)) {
      count_waiting_memory();
      return;
    }
    if (node_fetch_.ready_lane().type == kLoadLane) return;  // it leaves next clock
  }
  // (The lane carries its node type: the slot's routes are not read again.)
  const bool is_box_lane = is_box(node_fetch_.ready_lane().type);
  const LandedLane lane = node_fetch_.take();
  const WaveSlot& slot = waves_.slot(lane.slot);
  port_wave_ = slot.id;
  NodeBytes scratch;
  const uint8_t* bytes = store_.image->view(lane.address, lane.bytes(), scratch.data());
  if (is_box_lane)
    box_stage_.accept(lane.job(), lane.type, slot.rays[lane.lane], bytes, slot.descriptor, cycle);
  else
    tri_stage_.accept(lane.job(), lane.type, slot.rays[lane.lane], bytes, slot.descriptor, cycle);
  if (is_box_lane) {
    ++stats_.box_nodes;
    stats_.box_tests.add(4);
  } else {
    ++stats_.tri_tests;
  }
  ++stats_.busy_cycles;
  if (node_fetch_.has_ready(cycle)) ++stats_.stall(Stall::kIssuePortBusy);
  TD_DEBUG(kTd, cycle, name(), "issue port: wave {} lane {} -> {} (node type {})", slot.id,
           lane.lane, is_box_lane ? "box_stage" : "tri_stage", static_cast<int>(lane.type));
  port_valid_ = true;
  port_box_ = is_box_lane;
  port_lane_ = lane.lane;
  port_type_ = static_cast<uint8_t>(lane.type);
}

void Td::return_load(uint64_t cycle) {
  const LandedLane lane = node_fetch_.take();
  ++stats_.load_lanes;
  stats_.load_bytes.add(lane.bytes());
  std::array<uint8_t, 4 * ref::kLoadMaxDwords> scratch;
  const uint8_t* bytes = store_.image->view(lane.address, lane.bytes(), scratch.data());
  write_back_.load_port().deliver(LaneDone{lane.slot, lane.lane, ref::load_result(bytes, lane.bytes() / 4)},
                                  cycle + kLoadPortCycles);
  if (progress_) progress_->note(cycle);
  TD_DEBUG(kTd, cycle, name(), "load port: wave {} lane {} -> {}: {} B at {:#x}", waves_.slot(lane.slot).id,
           lane.lane, write_back_.name(), lane.bytes(), lane.address);
}

void Td::check_load(const WaveInstr& instr) const {
  if (!counts_loads_)
    throw std::invalid_argument(fmt::format("{}: wave {} is a load, but the wave client said it issues none "
                                            "(WaveClient::issues_loads)", name(), instr.id));
  for (size_t l = 0; l < instr.lanes.size(); ++l) {
    if (!ref::load_lane_ok(instr.lanes[l]))
      throw std::invalid_argument(
          fmt::format("{}: wave {} lane {}: {}", name(), instr.id, l, ref::load_lane_error(instr.lanes[l])));
  }
}

void Td::accept_instruction(uint64_t cycle) {
  accepted_ = false;
  if (waves_.full() || (!client_may_have_work_ && cycle < client_retry_cycle_)) return;
  WaveInstr& instr = incoming_->instr;
  uint64_t retry_cycle = WaveClient::kNever;
  if (!client_.next_wave(index_, cycle, instr, retry_cycle)) {
    client_may_have_work_ = false;  // until wake() or the cycle the client named
    client_retry_cycle_ = std::max(retry_cycle, cycle + 1);
    return;
  }
  client_may_have_work_ = true;
  if (instr.kind == InstrKind::kLoad) check_load(instr);
  accepted_slot_ = waves_.accept(instr, cycle);
  write_back_.instruction_accepted();
  accepted_ = true;
}

void Td::plan_accepted(uint64_t cycle) {
  WaveSlot& slot = waves_.slot(accepted_slot_);
  const WaveInstr& instr = incoming_->instr;
  if (instr.kind == InstrKind::kLoad)
    waves_.plan_load(accepted_slot_, instr);
  else
    waves_.plan(accepted_slot_, instr);  // the fetching lanes' rays stay in the slot for the datapaths
  TD_DEBUG(kTd, cycle, name(), "accepted {}wave {} in slot {}: {} lanes, {} active",
           instr.kind == InstrKind::kLoad ? "load " : "", slot.id, accepted_slot_, slot.lane_count,
           slot.lanes_to_write);
}

uint64_t Td::next_active_cycle(uint64_t cycle) const {
  const uint64_t next = cycle + 1;
  if ((!waves_.full() && client_may_have_work_) || sequencer_.can_progress()) return next;
  uint64_t when = UINT64_MAX;
  const auto consider = [&](uint64_t c) { when = std::min(when, std::max(c, next)); };
  consider(node_fetch_.next_request_cycle());
  if (!node_fetch_.buffer_empty()) consider(node_fetch_.earliest_ready());
  // A clocked datapath's next result comes out then (the sort stage's: or
  // a box result reaches it).
  if (clocked_datapaths_) {
    consider(box_stage_.next_output_cycle());
    consider(sort_stage_.next_output_cycle());
    consider(tri_stage_.next_output_cycle());
  }
  if (!no_fetch_.empty()) consider(no_fetch_.front_visible_cycle());
  consider(write_back_.next_retire_cycle());
  if (!waves_.full()) consider(client_retry_cycle_);
  return when;
}

void Td::set_progress(sim::ProgressMark* mark) {
  progress_ = mark;
  l0_.set_progress(mark);
}

std::string Td::describe(uint64_t cycle) const {
  if (waves_.empty()) return "";
  const WaveSlot& oldest = waves_.slot(waves_.head());
  const uint64_t passed = oldest.next_lane >= 64 ? ~uint64_t{0} : (uint64_t{1} << oldest.next_lane) - 1;
  const auto sequenced = static_cast<uint32_t>(__builtin_popcountll(oldest.active_mask & passed));
  std::string out = fmt::format("{}: {} of {} instructions in flight; the oldest, wave {} (accepted at cycle {}), has "
                                "{} of {} active lanes sequenced and {} written",
                                name(), waves_.count(), waves_.capacity(), oldest.id, oldest.accept_cycle,
                                oldest.sequenced() ? oldest.lanes_to_write : sequenced, oldest.lanes_to_write,
                                oldest.lanes_written);
  const uint64_t retire = write_back_.next_retire_cycle();
  if (retire != UINT64_MAX) out += fmt::format(", returns at cycle {}", retire);
  if (*due_cycle_ == UINT64_MAX)
    out += "; ticks again only when told (a fill's cycle, an MSHR's release or new work)";
  else
    out += fmt::format("; next tick at cycle {}", *due_cycle_);
  out += "\n    " + std::string(sequencer_.name()) + ": ";
  if (!waves_.has_unsequenced())
    out += "every lane passed on";
  else if (sequencer_.blocked_on_fetch_queue())
    out += fmt::format("waiting for room in the fetch queue ({} of {})", fetch_queue_.size(), fetch_queue_.depth());
  else if (!sequencer_.can_progress())
    out += "waiting for room in the no-fetch path to write-back";
  else
    out += "can pass a lane on";
  out += "\n    " + node_fetch_.describe(cycle);
  out += fmt::format("\n    datapath: {} lanes in {}, {} in {}, {} in {}, {} no-fetch lanes on their way to {}",
                     box_stage_.in_flight(), box_stage_.name(), sort_stage_.in_flight(), sort_stage_.name(),
                     tri_stage_.in_flight(), tri_stage_.name(), no_fetch_.size(), write_back_.name());
  const std::string l0 = l0_.describe(cycle);
  if (!l0.empty()) out += "\n    " + l0;
  return out;
}

// Signals are declared in pipeline order, each stage's under its own name.
void Td::attach_trace(sim::VcdWriter& vcd) {
  vcd_ = &vcd;
  trace_ids_ = std::make_unique<TraceIds>();
  TraceIds& t = *trace_ids_;
  const std::string prefix = std::string(name()) + ".";
  t.accept_valid = vcd.add(prefix + "accept.valid", 1);
  t.accept_ready = vcd.add(prefix + "accept.ready", 1);
  sequencer_.attach_trace(vcd);
  t.fq_count = vcd.add(prefix + "fetch_queue.count", 16);
  t.fq_ready = vcd.add(prefix + "fetch_queue.ready", 1);
  node_fetch_.attach_trace(vcd);
  t.port_valid = vcd.add(prefix + "issue_port.valid", 1);
  t.port_box = vcd.add(prefix + "issue_port.is_box", 1);
  t.port_lane = vcd.add(prefix + "issue_port.lane_index", 6);
  t.port_type = vcd.add(prefix + "issue_port.node_type", 3);
  t.port_wave = vcd.add(prefix + "issue_port.wave_id", 32);
  box_stage_.attach_trace(vcd);
  sort_stage_.attach_trace(vcd);
  tri_stage_.attach_trace(vcd);
  write_back_.attach_trace(vcd);
}

void Td::sample_trace(uint64_t cycle) {
  sim::VcdWriter& v = *vcd_;
  const TraceIds& t = *trace_ids_;
  v.set(t.accept_valid, accepted_, cycle);
  v.set(t.accept_ready, !waves_.full(), cycle);
  sequencer_.sample_trace(v, cycle);
  v.set(t.fq_count, fetch_queue_.size(), cycle);
  v.set(t.fq_ready, fetch_queue_.can_push(), cycle);
  node_fetch_.sample_trace(v, cycle);
  v.set(t.port_valid, port_valid_, cycle);
  v.set(t.port_box, port_valid_ && port_box_, cycle);
  v.set(t.port_lane, port_lane_, cycle);
  v.set(t.port_type, port_type_, cycle);
  v.set(t.port_wave, port_wave_ & 0xffffffffu, cycle);
  box_stage_.sample_trace(v, cycle);
  sort_stage_.sample_trace(v, cycle);
  tri_stage_.sample_trace(v, cycle);
  write_back_.sample_trace(v, cycle);
}

}  // namespace td::timing

#include "model/chip/chip.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "model/chip/model_params.h"
#include "model/sim/debug.h"
#include "model/sim/interrupt.h"

namespace td::chip {

bool Chip::ClientTap::wave_completed(uint32_t td_index, WaveResult& result) {
  const uint64_t complete_cycle = result.complete_cycle;
  if (!client_.wave_completed(td_index, result)) return false;
  uint64_t& end = chip_.td_end_cycle_[td_index];
  end = std::max(end, complete_cycle + 1);
  // A returned result may let the client issue more (a traversal shader's
  // next step): the TDs it may concern that wait for work ask again.
  if (client_.work_source() == WorkSource::kPerTd) {
    timing::Td* t = chip_.tds_[td_index];
    if (t->waiting_for_work()) t->wake();
    return true;
  }
  for (timing::Td* t : chip_.tds_) {
    if (!t->waiting_for_work()) continue;
    t->wake();
    if (t->index() != td_index) chip_.woke_other_td_ = true;
  }
  return true;
}

Chip::Chip(sc_core::sc_module_name name, const cfg::Config& config, timing::WaveClient& client,
           sim::StatsRegistry& stats)
    : sc_module(name),
      config_(config),
      tap_(*this, client),
      period_(static_cast<double>(config.period_ps()), sc_core::SC_PS),
      period_ticks_(period_.value()) {
  const sim::StatGroup group(stats, this->name());
  dram_ = std::make_unique<mem::Dram>(dram_timing(config_), group.child("dram"));
  // With vector loads, every cache counts their line accesses apart.
  const bool loads = tap_.issues_loads();
  l2_ = std::make_unique<mem::SlicedCache>(config_.l2.slices, cache_geometry(config_.l2.slice), *dram_,
                                           group.child("l2"), &events_, loads);
  for (uint32_t sa = 0; sa < config_.chip.shader_arrays; ++sa)
    l1_.push_back(std::make_unique<mem::Cache>(cache_geometry(config_.l1), *l2_,
                                               group.child("sa" + std::to_string(sa)).child("l1"), &events_, loads));
  const timing::TdParams params = td_params(config_);
  for (uint32_t w = 0; w < config_.chip.wgps; ++w) {
    const std::string wgp_name = "wgp" + std::to_string(w);
    // WGPs are dealt to the shader arrays in turn.
    mem::Cache& l1 = *l1_[w % config_.chip.shader_arrays];
    wgps_.push_back(std::make_unique<Wgp>(wgp_name.c_str(), w * config_.chip.tds_per_wgp, config_.chip.tds_per_wgp,
                                          params, l1, &events_, store_, tap_, stats));
    for (size_t t = 0; t < wgps_.back()->td_count(); ++t) tds_.push_back(&wgps_.back()->td(t));
  }
  l2_->set_progress(&progress_);
  for (auto& l1 : l1_) l1->set_progress(&progress_);
  for (timing::Td* t : tds_) t->set_progress(&progress_);
  td_due_.assign(tds_.size(), 0);
  td_end_cycle_.assign(tds_.size(), 0);
  if (tap_.work_source() == timing::WaveClient::WorkSource::kPerTd)
    lookahead_ = std::min<uint64_t>(config_.l0.hit_latency_cycles, tap_.dispatch_latency());
  for (size_t i = 0; i < tds_.size(); ++i) tds_[i]->keep_due_cycle_in(&td_due_[i]);
  for (timing::Td* t : tds_) t->share_incoming(&shared_incoming_);  // ticked one after another (set_threads)
  register_chip_stats(stats);
  SC_METHOD(tick);  // first runs at time 0: the reset cycle
}

void Chip::tick() {
  // An exception escaping a SystemC process reaches the caller wrapped in
  // a multi-line kernel report (E549): keep it, stop clocking (no trigger
  // is set, so the simulation starves), and run_until_idle rethrows it as
  // it was thrown — a bad ray file line is then the one-line error it is.
  try {
    clock_edge();
  } catch (...) {
    error_ = std::current_exception();
  }
}

void Chip::clock_edge() {
  const uint64_t sc_cycle = current_cycle();
  if (sc_cycle == 0) {
    for (timing::Td* t : tds_) t->reset();
    next_trigger(period_);
    return;
  }
  // Woken by wake() (a notice at this time) after this activation's clocks
  // ran ahead of SystemC's time: no clock is ticked twice.
  if (ticked_ && sc_cycle <= last_tick_cycle_) {
    trigger_at(sc_cycle, next_tick_cycle(last_tick_cycle_, earliest_td_due()));
    return;
  }
  // Consecutive clocks with work run here, one after another, up to the end
  // of run_until_idle's step: nothing else in the simulation acts between
  // them (a wake() from inside a clock makes its TD due, which the next
  // clock reads), and a trip through the SystemC kernel per clock costs
  // more than a quiet TD's tick.
  uint64_t cycle = sc_cycle;
  host_watch_.restart();
  for (;;) {
    ticked_ = true;
    // A quantum ends with run_until_idle's step (or is one clock outside one).
    const uint64_t end =
        quantum_ > 1 && step_end_cycle_ > cycle ? std::min(cycle + quantum_, step_end_cycle_) : cycle + 1;
    last_tick_cycle_ = end - 1;
    const uint64_t earliest = quantum_ > 1 ? run_quantum(cycle, end) : tick_tds(cycle);
    host_watch_.lap(host_time_.td_clocks_s);  // (run_quantum and tick_tds lap the memory events)
    tap_.dispatch(end);  // the requests of those clocks
    host_watch_.lap(host_time_.dispatch_s);
    const uint64_t next = next_tick_cycle(end - 1, earliest);
    if (next != end || next >= step_end_cycle_) {
      trigger_at(sc_cycle, next);
      return;
    }
    cycle = next;
  }
}

uint64_t Chip::tick_tds(uint64_t cycle) {
  // Misses arriving at a level this clock first, in the order they were
  // made; then the TDs, which see the fills that landed.
  events_.run_until(cycle);
  host_watch_.lap(host_time_.memory_events_s);
  const bool traced = vcd_ && vcd_->in_window(cycle);
  if (traced) {
    // A traced TD ticks every clock, so that one-clock pulses read right;
    // an idle tick changes nothing (stalls are charged either way).
    for (timing::Td* t : tds_) {
      t->tick(cycle);
      if (t->returned_wave()) tap_.process_returned(t->index());
      t->sample_trace(cycle);
    }
    vcd_->sample_companions(cycle);  // the Verilated units' signals, once all ticked
    return earliest_td_due();
  }
  // The earliest due cycle is gathered as the TDs go: a TD's own tick
  // is the last change to its due cycle this clock, unless a result
  // woke another TD (then every TD is read again). The due cycles are
  // read from the chip's dense array: most TDs are not due.
  uint64_t earliest = UINT64_MAX;
  woke_other_td_ = false;
  const size_t count = tds_.size();
  const uint64_t* due = td_due_.data();
  for (size_t i = 0; i < count; ++i) {
    if (due[i] <= cycle) {
      timing::Td& t = *tds_[i];
      t.tick(cycle);
      if (t.returned_wave()) tap_.process_returned(t.index());
    }
    earliest = std::min(earliest, due[i]);
  }
  return woke_other_td_ ? earliest_td_due() : earliest;
}

void Chip::choose_quanta() {
  const uint64_t quantum = vcd_ || sim::debug_flags().any() ? 1 : quantum_cycles();
  if (quantum == quantum_) return;
  quantum_ = quantum;
  // (Between runs no fill waits: every quantum lands all it heard.)
  for (timing::Td* t : tds_) t->l0().defer_fills(quantum_ > 1 ? &events_ : nullptr);
}

uint64_t Chip::run_quantum(uint64_t from, uint64_t end) {
  // The shared side's events of the whole quantum: none a TD makes in it
  // arrives before `end` (an L0 miss reaches L1 a hit latency later,
  // release_events checks it), and the fills the L0s hear wait for their
  // TD's clock.
  events_.run_until(end - 1);
  host_watch_.lap(host_time_.memory_events_s);
  ticking_.clear();
  for (size_t i = 0; i < tds_.size(); ++i)
    if (std::min(td_due_[i], tds_[i]->l0().next_deferred_fill()) < end) ticking_.push_back(tds_[i]);
  // Task k is the k-th TD with work: the pool cuts them into one contiguous
  // run per thread. Below two TDs they run here.
  auto run = [this, from, end](size_t k) { run_td(*ticking_[k], from, end); };
  if (pool_ && ticking_.size() >= 2) {
    pool_->run(ticking_.size(), run);
  } else {
    for (size_t k = 0; k < ticking_.size(); ++k) run(k);
  }
  for (timing::Td* t : ticking_) t->release_events(end);
  return earliest_td_due();
}

void Chip::run_td(timing::Td& t, uint64_t from, uint64_t end) {
  mem::Cache& l0 = t.l0();
  for (uint64_t cycle = from;; ++cycle) {
    cycle = std::max(cycle, std::min(t.due_cycle(), l0.next_deferred_fill()));
    if (cycle >= end) return;
    l0.land_deferred_fills(cycle);  // before the clock's tick, as clock by clock
    if (t.due_cycle() > cycle) continue;
    t.tick_client_side(cycle);
    t.tick_pipeline(cycle);
    if (t.returned_wave()) tap_.process_returned(t.index());
  }
}

void Chip::set_threads(unsigned threads) {
  if (threads < 1) throw std::invalid_argument("chip: threads must be >= 1");
  pool_ = threads > 1 ? std::make_unique<sim::WorkerPool>(threads) : nullptr;
  // On threads, TDs run at once: each keeps the instruction it takes in its own buffer.
  for (timing::Td* t : tds_) t->share_incoming(pool_ ? nullptr : &shared_incoming_);
  ticking_.reserve(tds_.size());
}

uint64_t Chip::earliest_td_due() const {
  uint64_t due = UINT64_MAX;
  for (const uint64_t d : td_due_) due = std::min(due, d);
  return due;
}

uint64_t Chip::next_due_cycle() const { return std::min(events_.next_cycle(), earliest_td_due()); }

uint64_t Chip::next_tick_cycle(uint64_t cycle, uint64_t earliest_td_due) const {
  if (vcd_ && vcd_->wants_samples_until(cycle + 1)) return cycle + 1;
  const uint64_t due = std::min(events_.next_cycle(), earliest_td_due);
  return std::max(due, cycle + 1);
}

void Chip::trigger_at(uint64_t sc_cycle, uint64_t next) {
  if (next == UINT64_MAX) {
    TD_DEBUG(kChip, last_tick_cycle_, name(), "every TD idle: sleeping until new work");
    next_trigger(wake_event_);
  } else if (next == last_tick_cycle_ + 1) {
    next_trigger(period_ * static_cast<double>(next - sc_cycle));  // the next clock
  } else {
    TD_DEBUG(kChip, last_tick_cycle_, name(), "nothing moves before cycle {}: sleeping", next);
    next_trigger(period_ * static_cast<double>(next - sc_cycle), wake_event_);
  }
}

void Chip::register_chip_stats(sim::StatsRegistry& stats) {
  const sim::StatGroup group(stats, name());
  cycles_ = &group.counter("cycles", "cycles", "clocks from reset to the last instruction's return");
  // Formulas may be evaluated after the chip is gone (reports are written
  // at the end of a run): they capture only counters, which the registry owns.
  const double clock_hz = config_.chip.clock_mhz * 1e6;
  const auto sum = [this](const sim::Counter& (*pick)(const timing::TdStats&)) {
    std::vector<const sim::Counter*> counters;
    for (const timing::Td* t : tds_) counters.push_back(&pick(t->stats()));
    return [counters] {
      double total = 0;
      for (const sim::Counter* c : counters) total += static_cast<double>(c->value());
      return total;
    };
  };
  const auto box_tests = sum([](const timing::TdStats& s) -> const sim::Counter& { return s.box_tests; });
  const auto tri_tests = sum([](const timing::TdStats& s) -> const sim::Counter& { return s.tri_tests; });
  const auto busy = sum([](const timing::TdStats& s) -> const sim::Counter& { return s.busy_cycles; });
  const sim::Counter* cycles = cycles_;
  const auto seconds = [cycles, clock_hz] { return static_cast<double>(cycles->value()) / clock_hz; };
  group.formula("box_tests", "tests", "ray/box tests, all TDs", box_tests);
  group.formula("tri_tests", "tests", "ray/triangle tests, all TDs", tri_tests);
  group.formula("busy_cycles", "cycles", "TD-clocks in which a lane entered a datapath, all TDs", busy);
  // The other TD counters, summed over the chip under the same names.
  const struct {
    const char* name;
    const char* unit;
    const sim::Counter& (*pick)(const timing::TdStats&);
  } kSums[] = {
      {"active_lanes", "lanes", [](const timing::TdStats& s) -> const sim::Counter& { return s.active_lanes; }},
      {"inactive_lanes", "lanes", [](const timing::TdStats& s) -> const sim::Counter& { return s.inactive_lanes; }},
      {"waves", "instructions", [](const timing::TdStats& s) -> const sim::Counter& { return s.waves; }},
      {"descriptor_faults", "lanes",
       [](const timing::TdStats& s) -> const sim::Counter& { return s.descriptor_faults; }},
      {"out_of_bounds", "lanes", [](const timing::TdStats& s) -> const sim::Counter& { return s.out_of_bounds; }},
      {"reserved_types", "lanes", [](const timing::TdStats& s) -> const sim::Counter& { return s.reserved_types; }},
  };
  for (const auto& entry : kSums)
    group.formula(entry.name, entry.unit, std::string("sum over all TDs of td.") + entry.name, sum(entry.pick));
  for (size_t c = 0; c < timing::kStallCauses; ++c) {
    if (static_cast<timing::Stall>(c) == timing::Stall::kWaitingLoads && !tap_.issues_loads()) continue;
    std::vector<const sim::Counter*> counters;
    for (const timing::Td* t : tds_) counters.push_back(&t->stats().stall_cycles[c]);
    const std::string name = std::string("stall_cycles.") + timing::stall_causes()[c].subname;
    group.formula(name, "TD-cycles", "sum over all TDs of td." + name, [counters] {
      double total = 0;
      for (const sim::Counter* counter : counters) total += static_cast<double>(counter->value());
      return total;
    });
  }
  // The load counters, when the TDs count them (WaveClient::issues_loads).
  if (tap_.issues_loads()) {
    using Sum = std::remove_const_t<std::remove_reference_t<decltype(kSums[0])>>;
    const Sum kLoadSums[] = {
        {"loads", "instructions", [](const timing::TdStats& s) -> const sim::Counter& { return s.loads; }},
        {"load_lanes", "lanes", [](const timing::TdStats& s) -> const sim::Counter& { return s.load_lanes; }},
        {"load_bytes", "bytes", [](const timing::TdStats& s) -> const sim::Counter& { return s.load_bytes; }},
    };
    for (const auto& entry : kLoadSums)
      group.formula(entry.name, entry.unit, std::string("sum over all TDs of td.") + entry.name, sum(entry.pick));
  }
  group.formula("box_tests_per_s", "tests/s", "achieved ray/box test rate over the run",
                [=] { return box_tests() / seconds(); });
  group.formula("tri_tests_per_s", "tests/s", "achieved ray/triangle test rate over the run",
                [=] { return tri_tests() / seconds(); });
  const double tds = static_cast<double>(tds_.size());
  group.formula("box_peak_per_s", "tests/s", "peak ray/box rate: 4 tests per TD per clock",
                [=] { return 4.0 * tds * clock_hz; });
  group.formula("tri_peak_per_s", "tests/s", "peak ray/triangle rate: 1 test per TD per clock",
                [=] { return tds * clock_hz; });
  group.formula("datapath_utilisation", "fraction", "busy TD-cycles / (TDs x cycles)",
                [=] { return busy() / (tds * static_cast<double>(cycles->value())); });
}

uint64_t Chip::end_cycle() const {
  uint64_t end = 0;
  for (const uint64_t e : td_end_cycle_) end = std::max(end, e);
  return end;
}

uint64_t Chip::current_cycle() const { return sc_core::sc_time_stamp().value() / period_ticks_; }

bool Chip::idle() const {
  return std::all_of(tds_.begin(), tds_.end(), [](const timing::Td* t) { return t->idle(); });
}

void Chip::wake_all() {
  for (timing::Td* t : tds_) t->wake();
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void Chip::wake(uint32_t td_index) {
  tds_.at(td_index)->wake();
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void Chip::invalidate_caches() {
  events_.clear();
  for (timing::Td* t : tds_) t->l0().invalidate();
  for (auto& l1 : l1_) l1->invalidate();
  l2_->invalidate();
  dram_->invalidate();
}

RunOutcome Chip::run_until_idle(const std::function<bool()>& done, uint64_t max_quiet_cycles) {
  constexpr uint64_t kChunkCycles = 256;
  // One sc_start never spans more than this (keeps sc_time far from overflow).
  constexpr uint64_t kMaxStepCycles = uint64_t{1} << 30;
  const uint64_t start = current_cycle();
  choose_quanta();
  for (;;) {
    client_done_at_stop_ = done();
    if (client_done_at_stop_ && idle()) return RunOutcome::kIdle;
    if (sim::interrupted()) return RunOutcome::kInterrupted;
    const uint64_t now = current_cycle();
    const uint64_t last = std::max(start, progress_.last());
    if (now > last && now - last > max_quiet_cycles) return RunOutcome::kDeadlock;
    // The first cycle at which the watchdog would fire.
    const uint64_t deadline = max_quiet_cycles >= UINT64_MAX - last ? UINT64_MAX : last + max_quiet_cycles + 1;
    // Chunks of 256 clocks; a stretch in which nothing is due (a slow DRAM,
    // a long latency, or nothing at all) in one step of whole chunks, up to
    // what is due next or the watchdog's deadline: quiet clocks cost no wall
    // time. (Whole chunks: a run stops on the same clock as chunk by chunk.)
    uint64_t step = kChunkCycles;
    const uint64_t until = std::min(next_due_cycle(), deadline);
    if (until > now + kChunkCycles)
      step = std::min((until - now) / kChunkCycles * kChunkCycles, kMaxStepCycles);
    step_end_cycle_ = now + step;
    sc_core::sc_start(period_ * static_cast<double>(step));
    step_end_cycle_ = 0;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }
}

void Chip::throw_unless_done(RunOutcome outcome) const {
  if (outcome == RunOutcome::kInterrupted) throw sim::Interrupted();
  if (outcome == RunOutcome::kDeadlock)
    throw std::runtime_error(
        fmt::format("timing model deadlock: nothing moved in {} cycles\n{}", kDeadlockQuietCycles, deadlock_report()));
}

std::string Chip::deadlock_report() const {
  const uint64_t cycle = current_cycle();
  const uint64_t last = progress_.last();
  std::string out = fmt::format("timing model state at cycle {}: last progress at cycle {} ({} cycles ago)\n", cycle,
                                last, cycle > last ? cycle - last : 0);
  out += client_done_at_stop_ ? "  wave client: done\n"
                              : "  wave client: not done (instructions to hand out or in flight)\n";
  if (events_.empty())
    out += "  memory event queue: empty (no miss on its way to a level)\n";
  else
    out += fmt::format("  memory event queue: {} events, the next at cycle {}\n", events_.size(), events_.next_cycle());
  // Busy parts in full, up to a bound each; the rest counted.
  constexpr size_t kListed = 8;
  size_t busy_tds = 0;
  for (const timing::Td* t : tds_) {
    const std::string td = t->describe(cycle);
    if (td.empty()) continue;
    if (++busy_tds <= kListed) out += "  " + td + "\n";
  }
  if (busy_tds > kListed) out += fmt::format("  ... and {} more TDs with instructions in flight\n", busy_tds - kListed);
  out += fmt::format("  {} of {} TDs with instructions in flight\n", busy_tds, tds_.size());
  size_t busy_caches = 0, caches = 0;
  const auto cache = [&](const mem::Cache& c) {
    ++caches;
    const std::string line = c.describe(cycle);
    if (line.empty()) return;
    if (++busy_caches <= 2 * kListed) out += "  " + line + "\n";
  };
  for (const auto& l1 : l1_) cache(*l1);
  for (uint32_t s = 0; s < l2_->slices(); ++s) cache(l2_->slice(s));
  if (busy_caches > 2 * kListed) out += fmt::format("  ... and {} more busy caches\n", busy_caches - 2 * kListed);
  out += fmt::format("  {} of {} L1s and L2 slices with MSHRs busy or requesters waiting\n", busy_caches, caches);
  out += "  " + dram_->describe(cycle) + "\n";
  return out;
}

void Chip::finish_accounting() {
  cycles_->reset();
  const uint64_t end = end_cycle();
  cycles_->add(end);
  for (timing::Td* t : tds_) t->account_until(end);
}

void Chip::attach_trace(sim::VcdWriter& vcd) {
  vcd_ = &vcd;
  for (timing::Td* t : tds_) t->attach_trace(vcd);
}

}  // namespace td::chip

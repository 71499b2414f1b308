// chip.h — the whole GPU as the ray-intersection hardware sees it: one
// clock, WGPs of TDs spread over shader arrays (one L1 each), an L2 in
// slices and DRAM. Wave instructions come from a WaveClient (vector files,
// microbenchmarks, the traversal shader) and return to it.
//
// One clocked process runs the chip. Each clock it runs the memory events
// due (the shared side: L1, L2, DRAM), then ticks every TD that has work,
// in TD order; then the wave client's dispatcher serves the clock's
// requests. One process for the chip costs the SystemC kernel one
// activation a clock, not one per TD. Events of a clock run in the order
// they were made, written in each (event_queue.h): requests from several
// TDs to a shared cache reach it the same way however the TDs were run.
//
// Quanta (lookahead, as conservative parallel simulators do): a TD meets
// the rest of the chip only through its L0's misses, which reach L1 an L0
// hit latency after the clock that made them at the earliest, through the
// fills L1 answers, and through the wave client's dispatcher, whose answer
// acts dispatch_latency() after the request at the earliest
// (WaveClient::kPerTd: each TD has its own waves). So with such a client
// the chip runs a quantum of Q = min(both) clocks at a time: first the
// events of the whole quantum (none a TD makes in it arrives inside it),
// the fills L0s hear then waiting for their TD's clock (Cache::defer_fills);
// then each TD's clocks of the quantum, one TD after another or on the
// threads of set_threads(N > 1), its fills landing at the clocks they were
// heard at; then the TDs' misses join the queue and the dispatcher serves
// the quantum's requests. Each TD sees at each clock exactly what it would
// clock by clock, so stats, hits and traces are the same bits for any Q
// and any N. A kShared client (one pool of instructions every TD draws
// from), a trace and --debug run clock by clock, on one thread.
// When no TD can move before some later cycle, the process sleeps until
// then (or until the wave client has new work).
//
// The clock is a period, not an sc_clock signal: nothing in the model waits
// on a signal edge, and an sc_clock costs the kernel two events every cycle
// even while the whole chip sleeps. The process re-arms itself one period
// (or N periods) ahead instead; cycle 0 is the reset cycle.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "model/config/config.h"
#include "model/chip/wgp.h"
#include "model/isa/memory_image.h"
#include "model/mem/cache.h"
#include "model/mem/dram.h"
#include "model/sim/host_time.h"
#include "model/sim/progress.h"
#include "model/sim/stats.h"
#include "model/sim/vcd_writer.h"
#include "model/sim/worker_pool.h"
#include "model/td/td.h"

namespace td::chip {

// How run_until_idle ended.
enum class RunOutcome {
  kIdle,         // done() held and every TD was idle
  kDeadlock,     // max_quiet_cycles clocks passed with no progress of any kind
  kInterrupted,  // sim::interrupted() (SIGINT/SIGTERM) at a chunk boundary
};

class Chip : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Chip);
  Chip(sc_core::sc_module_name name, const cfg::Config& config, timing::WaveClient& client,
       sim::StatsRegistry& stats);

  // The bytes node fetches read. Change it only while the chip is idle.
  void set_memory(const MemoryImage& image) { store_.image = &image; }
  // Empties every cache (between runs that must not share warm state).
  void invalidate_caches();

  // Simulates until `done()` holds and every TD is idle (kIdle). Stops
  // with kDeadlock when `max_quiet_cycles` clocks pass with no progress of
  // any kind: no instruction accepted or returned, no lane moved between
  // TD stages, no miss passed down a level, no fill landing (a fill counts
  // at the cycle it lands, however far ahead that is known) — a slow run
  // that keeps moving always finishes. deadlock_report() then says what is
  // waiting on what. Stops with kInterrupted when sim::interrupted() is
  // seen; it is checked every 256 clocks (and the clocks in which nothing
  // is due are skipped at no cost, so a quiet stretch costs no wall time).
  // An exception thrown inside the clock (a wave client's) comes out of
  // here as it was thrown.
  RunOutcome run_until_idle(const std::function<bool()>& done, uint64_t max_quiet_cycles);
  // No progress of any kind for this long is a deadlock: every latency of
  // a valid configuration at its maximum adds up to far less.
  static constexpr uint64_t kDeadlockQuietCycles = 50'000'000;
  RunOutcome run_until_idle(const std::function<bool()>& done) {
    return run_until_idle(done, kDeadlockQuietCycles);
  }
  // A run that did not finish, as the drivers report it: kInterrupted throws
  // sim::Interrupted, kDeadlock a std::runtime_error carrying
  // deadlock_report(); kDone returns.
  void throw_unless_done(RunOutcome outcome) const;
  // What the chip holds in flight and what each part waits on, for after a
  // kDeadlock: a multi-line report (every busy TD with its stages and L0,
  // every busy L1 and L2 slice, DRAM, the event queue).
  std::string deadlock_report() const;
  // The latest cycle anything moved (or is known to move), see run_until_idle.
  uint64_t last_progress_cycle() const { return progress_.last(); }
  // Tells every TD that the client has new work.
  void wake_all();
  // Tells one TD (from inside or outside the simulation).
  void wake(uint32_t td_index);

  bool idle() const;
  uint64_t current_cycle() const;
  // Cycle after the last instruction completed (0 if none yet).
  uint64_t end_cycle() const;
  // Where the host's time went since construction: memory events, TD
  // clocks, dispatch (host_time.h). Not a statistic: it differs run to run.
  const sim::HostTime& host_time() const { return host_time_; }
  // Brings every TD's cycle count up to end_cycle() (call before reporting).
  void finish_accounting();

  const cfg::Config& config() const { return config_; }
  size_t td_count() const { return tds_.size(); }
  timing::Td& td(size_t i) { return *tds_[i]; }
  const timing::Td& td(size_t i) const { return *tds_[i]; }
  mem::Cache& l1(size_t shader_array) { return *l1_[shader_array]; }
  mem::SlicedCache& l2() { return *l2_; }

  // Records every TD's pipeline signals into `vcd`.
  void attach_trace(sim::VcdWriter& vcd);
  // Threads that run the TDs' quanta (1: the SystemC thread alone).
  // Clock-by-clock runs (a trace, --debug: their lines and samples are
  // written as the TDs tick) use one. Change it only while the chip is idle.
  void set_threads(unsigned threads);
  unsigned threads() const { return pool_ ? pool_->threads() : 1; }
  // Clocks the chip runs at a time with its wave client, untraced (1: clock
  // by clock; see above).
  uint64_t quantum_cycles() const { return lookahead_; }

 private:
  // Forwards completions to the client and notes when the chip last returned one.
  class ClientTap : public timing::WaveClient {
   public:
    ClientTap(Chip& chip, timing::WaveClient& client) : chip_(chip), client_(client) {}
    bool next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) override {
      return client_.next_wave(td_index, cycle, out, retry_cycle);
    }
    bool wave_completed(uint32_t td_index, WaveResult& result) override;
    bool issues_loads() const override { return client_.issues_loads(); }
    WorkSource work_source() const override { return client_.work_source(); }
    void process_returned(uint32_t td_index) override { client_.process_returned(td_index); }
    uint64_t dispatch_latency() const override { return client_.dispatch_latency(); }
    void dispatch(uint64_t cycle) override { client_.dispatch(cycle); }

   private:
    Chip& chip_;
    timing::WaveClient& client_;
  };

  void tick();  // the chip's clocked process: clock_edge(), exceptions kept for run_until_idle
  void clock_edge();
  // One clock: the memory events due, then the due TDs; returns every TD's
  // earliest due cycle after it.
  uint64_t tick_tds(uint64_t cycle);
  // The clocks [from, end) as a quantum (see above); returns every TD's
  // earliest due cycle after it.
  uint64_t run_quantum(uint64_t from, uint64_t end);
  // One TD's clocks of a quantum, its deferred fills landing at theirs.
  void run_td(timing::Td& td, uint64_t from, uint64_t end);
  // Quanta for this run, or clock by clock: the L0s defer fills or not.
  void choose_quanta();
  // The next clock to tick after `cycle`'s, given every TD's earliest due
  // cycle; UINT64_MAX: none until new work.
  uint64_t next_tick_cycle(uint64_t cycle, uint64_t earliest_td_due) const;
  // The process's next trigger, for clock `next`, from this activation at `sc_cycle`.
  void trigger_at(uint64_t sc_cycle, uint64_t next);
  uint64_t earliest_td_due() const;
  // The earliest cycle a TD or a memory event is due; UINT64_MAX if none.
  uint64_t next_due_cycle() const;
  void register_chip_stats(sim::StatsRegistry& stats);

  const cfg::Config config_;
  ClientTap tap_;
  timing::BackingStore store_;
  mem::EventQueue events_;  // misses between levels, delivered in cycle order
  sim::ProgressMark progress_;  // noted by the TDs and every cache
  bool client_done_at_stop_ = true;  // done() when run_until_idle last stopped
  std::unique_ptr<mem::Dram> dram_;
  std::unique_ptr<mem::SlicedCache> l2_;
  std::vector<std::unique_ptr<mem::Cache>> l1_;
  std::vector<std::unique_ptr<Wgp>> wgps_;
  std::vector<timing::Td*> tds_;
  timing::Td::Incoming shared_incoming_;  // every TD's instruction buffer while one thread ticks them (Td::share_incoming)
  std::vector<uint64_t> td_due_;  // tds_[i]'s due cycle (the TD keeps it here), read every clock
  std::vector<uint64_t> td_end_cycle_;  // per TD, end_cycle()'s share (TDs may run on several threads)
  uint64_t lookahead_ = 1;       // min(L0 hit latency, the client's dispatch latency)
  uint64_t quantum_ = 1;         // this run's (choose_quanta)
  sim::HostTime host_time_;
  sim::HostStopwatch host_watch_;  // laps: each part of the clock loop
  bool woke_other_td_ = false;  // this clock, a result woke a TD other than the one ticking
  sc_core::sc_time period_;
  uint64_t period_ticks_;
  sc_core::sc_event wake_event_;
  std::exception_ptr error_;  // thrown inside tick(); rethrown by run_until_idle
  bool ticked_ = false;
  uint64_t last_tick_cycle_ = 0;
  // The first clock after run_until_idle's current step (0: outside one):
  // an activation ticks consecutive clocks up to it.
  uint64_t step_end_cycle_ = 0;
  sim::VcdWriter* vcd_ = nullptr;
  sim::Counter* cycles_ = nullptr;
  std::unique_ptr<sim::WorkerPool> pool_;  // set_threads(N > 1)
  std::vector<timing::Td*> ticking_;        // this quantum's TDs with work
};

}  // namespace td::chip

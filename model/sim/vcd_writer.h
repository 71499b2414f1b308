// vcd_writer.h — Value Change Dump writer for the timing model's traces.
// Signals are declared with hierarchical dotted names
// (`chip.wgp0.td1.box_stage.valid`), which become nested $scope blocks, so
// GTKWave shows the model's hierarchy. Values are recorded per clock cycle
// and only inside the trace window [start_cycle, start_cycle + cycles);
// the file's time unit is 1 ps and a cycle lasts `period_ps`.
// The file is written to `<path>.tmp.<pid>` and renamed onto `path` by
// close(); destroyed without close() (an error or an interrupt unwinding the
// run) it removes the temporary file, so a failed run leaves no truncated
// trace and an existing file at `path` untouched. No SystemC.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/sim/output_file.h"

namespace td::sim {

// Another writer tracing parts of the same design into a VCD file of its
// own (the Verilated units, whose signals Verilator records): sampled with
// this file's cycles, and merged into it at close() (vcd_merge.h).
class VcdCompanion {
 public:
  virtual ~VcdCompanion() = default;
  // After every clock in the window, once all of the design ticked.
  virtual void sample(uint64_t cycle) = 0;
  // Completes its file; returns its path (merged, then its own to remove).
  virtual std::string finish() = 0;
};

class VcdWriter {
 public:
  using SignalId = uint32_t;
  static constexpr uint64_t kForever = UINT64_MAX;

  // Throws std::runtime_error naming the path when it cannot be created.
  VcdWriter(const std::string& path, uint64_t period_ps, uint64_t start_cycle = 0, uint64_t cycles = kForever);
  ~VcdWriter();  // without close(): removes the temporary file, keeps nothing
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  // Declare every signal before the first set(). width 1..64 bits.
  // Throws std::logic_error if called after the first set() or for a duplicate name.
  SignalId add(const std::string& hierarchical_name, unsigned width);

  // Records `value` for `signal` at `cycle` if it differs from the signal's
  // last value and `cycle` is inside the window. Calls must come in
  // non-decreasing cycle order across all signals (std::logic_error otherwise).
  // At the window's first recorded cycle every signal's current value is
  // dumped ($dumpvars), so the trace starts complete.
  void set(SignalId signal, uint64_t value, uint64_t cycle);

  bool in_window(uint64_t cycle) const { return cycle >= start_ && cycle - start_ < cycles_; }
  bool wants_samples_until(uint64_t cycle) const { return cycle < start_ || in_window(cycle); }

  // Flushes, writes the final timestamp and renames into place; then
  // merges the companions' files into it.
  void close();

  // The companion of this `kind`, made by `make` on first use (before the
  // first set()): e.g. every Verilated unit of a chip shares one.
  VcdCompanion& companion(const std::string& kind, const std::function<std::unique_ptr<VcdCompanion>()>& make);
  // Samples every companion at `cycle` (in the window only): the chip
  // calls it once per traced clock, after its own samples.
  void sample_companions(uint64_t cycle);
  const std::string& path() const { return path_; }
  uint64_t period_ps() const { return period_ps_; }

 private:
  struct Signal {
    std::string name;  // full dotted name
    unsigned width = 1;
    std::string code;  // VCD identifier code
    uint64_t value = 0;
  };
  void check_declarable(const std::string& name, unsigned width) const;
  void check_first_or_bad(SignalId signal, uint64_t cycle);  // throws, or closes the declarations
  void record(Signal& signal, uint64_t value, uint64_t cycle);  // a changed value
  void write_header();
  void write_dumpvars();
  void write_value(const Signal& signal);
  void write_time(uint64_t cycle);
  void advance_to(uint64_t cycle);
  void write_final_time();
  void flush_buffer();

  std::string path_;
  std::unique_ptr<OutputFile> file_;  // created once the arguments are checked
  uint64_t period_ps_;
  uint64_t start_, cycles_;
  std::vector<Signal> signals_;
  std::unordered_map<std::string, bool> names_;  // declared names: signal (false) or scope (true)
  std::string buffer_;                           // output, written to file_ in large chunks
  bool header_written_ = false;                  // also closes the declarations
  bool sampled_ = false;                         // set() was called at least once
  bool dumped_initial_ = false;                  // $dumpvars written at the window start
  uint64_t last_cycle_ = 0;                      // latest cycle passed to set()
  uint64_t time_cycle_ = 0;                      // cycle of the last `#time` line written
  bool closed_ = false;
  std::vector<std::pair<std::string, std::unique_ptr<VcdCompanion>>> companions_;  // (kind, companion)
};

}  // namespace td::sim

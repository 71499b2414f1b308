// trace_output.h — the file behind `--trace`: VCD as the model writes it,
// or FST (GTKWave's compressed format, often 10-50x smaller) converted from
// a temporary VCD by GTKWave's own `vcd2fst` when the run ends. The window
// is bounded by default: a whole peak run is hundreds of MB of VCD.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/sim/vcd_writer.h"

namespace td::tb {

// What `--trace-cycles` takes when not given: enough to see fill, steady
// state and back-pressure of a phase, small enough to open at once.
constexpr uint64_t kDefaultTraceCycles = 10000;

// "all" or a whole number >= 1 (std::invalid_argument naming the flag otherwise).
uint64_t parse_trace_cycles(const std::string& text);

// Checks the name (.vcd or .fst) and, for .fst, that vcd2fst can be run;
// std::invalid_argument naming --trace otherwise. Call before any work.
void check_trace_path(const std::string& path);

class TraceOutput {
 public:
  TraceOutput(const std::string& path, uint64_t period_ps, uint64_t start_cycle, uint64_t cycles);
  ~TraceOutput();  // without close(): nothing is kept, temporary files removed
  TraceOutput(const TraceOutput&) = delete;
  TraceOutput& operator=(const TraceOutput&) = delete;

  sim::VcdWriter& vcd() { return *vcd_; }
  // Completes the file (converting to FST where asked); throws naming it.
  void close();
  // "cycles 0..9999" or "cycles 100.. (to the end)", for the run's log.
  std::string window_text() const;

 private:
  std::string path_;
  bool fst_;
  std::string vcd_path_;  // path_ itself, or a temporary VCD beside the FST
  int vcd_slot_ = -1;     // the temporary VCD's interrupt registration
  uint64_t start_, cycles_;
  std::unique_ptr<sim::VcdWriter> vcd_;
};

}  // namespace td::tb

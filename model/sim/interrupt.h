// interrupt.h — what SIGINT and SIGTERM do to a run. The first signal only
// sets a flag: loops that simulate or stream input check interrupted() at a
// clock or record boundary and stop, the run unwinds (OutputFile removes its
// temporary file, a final file is never touched), and main exits 128+signal
// (130 for SIGINT, 143 for SIGTERM). A second signal means "now": the
// handler unlinks every registered temporary file and exits at once.
#pragma once

#include <stdexcept>
#include <string>

namespace td::sim {

// Installs the handlers (idempotent). Tools call it once at start-up.
void install_interrupt_handlers();

// The first signal received (SIGINT or SIGTERM), or 0.
int interrupt_signal();
inline bool interrupted() { return interrupt_signal() != 0; }
// 128 + signal, the shell's convention.
int interrupt_exit_code();
// Clears the flag (tests only).
void clear_interrupt();

// Thrown where a run gives up on an interrupt; main turns it into the exit code.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};
// Throws Interrupted if a signal has arrived.
inline void throw_if_interrupted() {
  if (interrupted()) throw Interrupted();
}

// Temporary files the second signal removes. Returns a slot for
// unregister_temp_file (-1 if the table is full: such a file is then removed
// only by normal unwinding).
int register_temp_file(const std::string& path);
void unregister_temp_file(int slot);

}  // namespace td::sim

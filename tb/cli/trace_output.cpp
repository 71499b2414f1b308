#include "tb/cli/trace_output.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "model/sim/interrupt.h"

namespace td::tb {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Runs vcd2fst; returns its exit status (-1 if it could not be started).
int run_vcd2fst(const std::string& vcd, const std::string& fst) {
  // Whatever this process has buffered must not be written twice: once by
  // it, once by the child (whose copy of the buffers would be flushed).
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    const int null_fd = open("/dev/null", O_WRONLY);  // vcd2fst chats on stdout
    if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO);
    execlp("vcd2fst", "vcd2fst", "-v", vcd.c_str(), "-f", fst.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

uint64_t parse_trace_cycles(const std::string& text) {
  if (text == "all") return sim::VcdWriter::kForever;
  uint64_t value = 0;
  bool digits = !text.empty() && text.size() <= 19;
  for (char c : text) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!digits || value == 0)
    throw std::invalid_argument(fmt::format("--trace-cycles: expected 'all' or a whole number >= 1, got '{}'", text));
  return value;
}

void check_trace_path(const std::string& path) {
  if (!ends_with(path, ".vcd") && !ends_with(path, ".fst"))
    throw std::invalid_argument(fmt::format("--trace {}: the file name must end in .vcd or .fst", path));
  if (ends_with(path, ".fst") && !on_path("vcd2fst"))
    throw std::invalid_argument(fmt::format(
        "--trace {}: FST output needs GTKWave's vcd2fst on PATH (apt-get install gtkwave), or name a .vcd", path));
}

TraceOutput::TraceOutput(const std::string& path, uint64_t period_ps, uint64_t start_cycle, uint64_t cycles)
    : path_(path), fst_(ends_with(path, ".fst")), start_(start_cycle), cycles_(cycles) {
  vcd_path_ = fst_ ? fmt::format("{}.tmp.{}.vcd", path_, static_cast<long>(getpid())) : path_;
  if (fst_) vcd_slot_ = sim::register_temp_file(vcd_path_);
  vcd_ = std::make_unique<sim::VcdWriter>(vcd_path_, period_ps, start_cycle, cycles);
}

TraceOutput::~TraceOutput() {
  vcd_.reset();  // discards its own temporary file unless closed
  if (fst_) {
    std::remove(vcd_path_.c_str());
    sim::unregister_temp_file(vcd_slot_);
  }
}

void TraceOutput::close() {
  vcd_->close();
  if (!fst_) return;
  const std::string fst_temp = fmt::format("{}.tmp.{}", path_, static_cast<long>(getpid()));
  const int slot = sim::register_temp_file(fst_temp);
  const int status = run_vcd2fst(vcd_path_, fst_temp);
  const bool converted = status == 0 && std::filesystem::exists(fst_temp);
  const bool renamed = converted && std::rename(fst_temp.c_str(), path_.c_str()) == 0;
  if (!renamed) std::remove(fst_temp.c_str());
  sim::unregister_temp_file(slot);
  std::remove(vcd_path_.c_str());
  if (!converted) throw std::runtime_error(fmt::format("{}: vcd2fst failed (exit {}), trace not saved", path_, status));
  if (!renamed) throw std::runtime_error(fmt::format("{}: cannot rename into place", path_));
}

std::string TraceOutput::window_text() const {
  if (cycles_ == sim::VcdWriter::kForever) return fmt::format("cycles {}.. (to the end of the run)", start_);
  const uint64_t last = cycles_ - 1 > UINT64_MAX - start_ ? UINT64_MAX : start_ + cycles_ - 1;
  return fmt::format("cycles {}..{}", start_, last);
}

}  // namespace td::tb

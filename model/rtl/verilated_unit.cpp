#include "model/rtl/verilated_unit.h"

#if TDSIM_RTL_COVERAGE
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "verilated_cov.h"
#endif

namespace td::rtl {

VerilatedContext& shared_context() {
  static VerilatedContext context;
  return context;
}

#if TDSIM_RTL_COVERAGE
namespace {
bool unwritten = false;  // units were made since the last write
int files = 0;

std::string coverage_dir() {
  const char* dir = std::getenv("TDSIM_RTL_COVERAGE_DIR");
  return dir && *dir ? dir : ".";
}
}  // namespace

void unit_created() {
  // Checked before any count is made: Verilator's own write stops the process.
  if (!unwritten && access(coverage_dir().c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error("TDSIM_RTL_COVERAGE_DIR=" + coverage_dir() +
                             ": not a folder this process can write the RTL's coverage counts to");
  unwritten = true;
}

void unit_destroyed() {
  if (!unwritten) return;
  unwritten = false;
  const std::string path =
      coverage_dir() + "/coverage-" + std::to_string(getpid()) + "-" + std::to_string(files++) + ".dat";
  VerilatedCovContext& coverage = *shared_context().coveragep();
  coverage.write(path.c_str());
  coverage.clear();
}
#else
void unit_created() {}
void unit_destroyed() {}
#endif

}  // namespace td::rtl

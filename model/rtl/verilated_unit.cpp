#include "model/rtl/verilated_unit.h"

#if TDSIM_RTL_COVERAGE
#include <unistd.h>

#include <cstdlib>
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
}  // namespace

void unit_created() { unwritten = true; }

void unit_destroyed() {
  if (!unwritten) return;
  unwritten = false;
  const char* dir = std::getenv("TDSIM_RTL_COVERAGE_DIR");
  const std::string path = std::string(dir && *dir ? dir : ".") + "/coverage-" + std::to_string(getpid()) + "-" +
                           std::to_string(files++) + ".dat";
  VerilatedCovContext& coverage = *shared_context().coveragep();
  coverage.write(path.c_str());
  coverage.clear();
}
#else
void unit_created() {}
void unit_destroyed() {}
#endif

}  // namespace td::rtl

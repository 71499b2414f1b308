#include "model/rtl/verilated_unit.h"

namespace td::rtl {

VerilatedContext& shared_context() {
  static VerilatedContext context;
  return context;
}

}  // namespace td::rtl

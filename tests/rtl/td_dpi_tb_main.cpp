// td_dpi_tb_main.cpp — clocks the SystemVerilog testbench td_dpi_tb.sv
// under Verilator until it says it is done; exit 0 when every lane matched
// the reference, 1 on a mismatch (or when no lane was compared), 2 when the
// vector file could not be read.
// Usage: td_dpi_tb +tdv=FILE.tdv
#include <cstdint>
#include <cstdio>
#include <memory>

// Generated code, not written to the project's warning flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#include "Vtd_dpi_tb.h"
#include "Vtd_dpi_tb__Dpi.h"
#include "verilated.h"
#pragma GCC diagnostic pop
// The C side's declarations: a type that is not Verilator's fails to compile here.
#include "rtl/dv/td_ref_dpi.h"

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  Vtd_dpi_tb tb{context.get(), "tb"};
  tb.clk_i = 0;
  tb.rst_ni = 0;
  tb.eval();
  for (int edge = 0; edge < 4; ++edge) {
    tb.clk_i = !tb.clk_i;
    tb.eval();
  }
  tb.rst_ni = 1;
  tb.eval();
  // A case a clock, plus the pipelines' depth: far below this bound.
  constexpr uint64_t kMaxCycles = uint64_t{1} << 32;
  uint64_t cycles = 0;
  while (!tb.done_o && !context->gotFinish() && cycles++ < kMaxCycles) {
    tb.clk_i = 1;
    tb.eval();
    tb.clk_i = 0;
    tb.eval();
  }
  tb.final();
  if (tb.error_o) return 2;
  if (!tb.done_o) {
    std::fprintf(stderr, "td_dpi_tb: not done after %llu cycles\n", static_cast<unsigned long long>(cycles));
    return 1;
  }
  if (tb.passed_o + tb.failed_o == 0) {
    std::fprintf(stderr, "td_dpi_tb: no lane went through a datapath: nothing was checked\n");
    return 1;
  }
  return tb.failed_o == 0 ? 0 : 1;
}

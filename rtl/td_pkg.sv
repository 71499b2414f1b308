// td_pkg.sv — types, constants and small functions shared by the TD's
// datapaths. Referenced as td_pkg::name (no wildcard import: Yosys 0.23
// refuses `import td_pkg::*;`). Functions assign their own name (Yosys 0.23
// refuses `return`).
package td_pkg;

  // Shared constants: not every unit uses every one (lint waiver, reason given).
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [7:0] Fp32ExpMax = 8'hff;
  // The quiet NaN every unit returns when it makes a NaN. The contract never
  // reads a NaN's payload (a NaN only ever makes a comparison false).
  localparam logic [31:0] Fp32QuietNan = 32'h7fc0_0000;
  localparam logic [31:0] Fp32PlusInf = 32'h7f80_0000;
  /* verilator lint_on UNUSEDPARAM */

  // Classes of a binary32 value, from its magnitude (bits 30:0).
  function automatic logic fp32_is_nan(logic [30:0] magnitude);
    fp32_is_nan = (magnitude[30:23] == Fp32ExpMax) && (magnitude[22:0] != '0);
  endfunction

  function automatic logic fp32_is_inf(logic [30:0] magnitude);
    fp32_is_inf = (magnitude[30:23] == Fp32ExpMax) && (magnitude[22:0] == '0);
  endfunction

  function automatic logic fp32_is_zero(logic [30:0] magnitude);
    fp32_is_zero = (magnitude == '0);
  endfunction

  // IEEE x < y for operands that are not NaN (-0 == +0).
  function automatic logic fp32_less(logic [31:0] x, logic [31:0] y);
    if (fp32_is_zero(x[30:0]) && fp32_is_zero(y[30:0])) begin
      fp32_less = 1'b0;
    end else if (x[31] != y[31]) begin
      fp32_less = x[31];
    end else if (!x[31]) begin
      fp32_less = x[30:0] < y[30:0];
    end else begin
      fp32_less = x[30:0] > y[30:0];
    end
  endfunction

endpackage

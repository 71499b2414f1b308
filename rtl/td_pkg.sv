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

  // Leading zeros of a 64-bit value (64 when it is zero): a binary search,
  // halving the window at each level, as a normalising shifter's leading-
  // zero counter is built (one mux level per result bit, not a 64-way
  // priority chain). Narrower values are counted left-aligned.
  function automatic logic [6:0] leading_zeros64(logic [63:0] value);
    logic [63:0] v;
    logic [6:0]  n;
    v = value;
    n = 7'd0;
    if (v == 64'd0) begin
      n = 7'd64;
    end else begin
      if (v[63:32] == 32'd0) begin n[5] = 1'b1; v = v << 32; end
      if (v[63:48] == 16'd0) begin n[4] = 1'b1; v = v << 16; end
      if (v[63:56] == 8'd0)  begin n[3] = 1'b1; v = v << 8;  end
      if (v[63:60] == 4'd0)  begin n[2] = 1'b1; v = v << 4;  end
      if (v[63:62] == 2'd0)  begin n[1] = 1'b1; v = v << 2;  end
      if (!v[63])            begin n[0] = 1'b1;              end
    end
    leading_zeros64 = n;
  endfunction

  // The same for a 16-bit value (16 when it is zero).
  function automatic logic [4:0] leading_zeros16(logic [15:0] value);
    logic [15:0] v;
    logic [4:0]  n;
    v = value;
    n = 5'd0;
    if (v == 16'd0) begin
      n = 5'd16;
    end else begin
      if (v[15:8] == 8'd0)  begin n[3] = 1'b1; v = v << 8; end
      if (v[15:12] == 4'd0) begin n[2] = 1'b1; v = v << 4; end
      if (v[15:14] == 2'd0) begin n[1] = 1'b1; v = v << 2; end
      if (!v[15])           begin n[0] = 1'b1;             end
    end
    leading_zeros16 = n;
  endfunction

endpackage

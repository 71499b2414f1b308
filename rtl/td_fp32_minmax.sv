// td_fp32_minmax.sv — the contract's NaN-ignoring minimum and maximum: one
// NaN operand gives the other operand, two give a NaN, and operands that
// compare equal (+0 and -0 too) give the FIRST one. Combinational.
module td_fp32_minmax (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] min_o,
  output logic [31:0] max_o
);

  logic a_nan, b_nan;

  assign a_nan = td_pkg::fp32_is_nan(a_i[30:0]);
  assign b_nan = td_pkg::fp32_is_nan(b_i[30:0]);

  always_comb begin
    if (a_nan) begin
      min_o = b_i;
      max_o = b_i;
    end else if (b_nan) begin
      min_o = a_i;
      max_o = a_i;
    end else begin
      min_o = td_pkg::fp32_less(b_i, a_i) ? b_i : a_i;
      max_o = td_pkg::fp32_less(a_i, b_i) ? b_i : a_i;
    end
  end

endmodule

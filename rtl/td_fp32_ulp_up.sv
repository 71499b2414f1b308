// td_fp32_ulp_up.sv — moves x up by n representable binary32 values (the
// box-grow rounding): x unchanged when n is 0, x is NaN or x is +Inf; -0
// and +0 are one point; at or past +Inf the result saturates to +Inf.
// Combinational.
module td_fp32_ulp_up #(
  parameter int unsigned StepWidth = 8  // the descriptor's box_grow_ulps field
) (
  input  logic [31:0]          x_i,
  input  logic [StepWidth-1:0] n_i,
  output logic [31:0]          y_o
);

  // The ordered line: +bits for positive values, -magnitude for negative.
  logic signed [33:0] ordered, moved;

  always_comb begin
    ordered = x_i[31] ? -$signed({3'b0, x_i[30:0]}) : $signed({3'b0, x_i[30:0]});
    moved   = ordered + $signed({1'b0, 33'(n_i)});
    if (n_i == '0 || td_pkg::fp32_is_nan(x_i[30:0]) || x_i == td_pkg::Fp32PlusInf) begin
      y_o = x_i;
    end else if (moved >= 34'sh7f80_0000) begin
      y_o = td_pkg::Fp32PlusInf;
    end else if (moved >= 0) begin
      y_o = {1'b0, moved[30:0]};
    end else begin
      y_o = {1'b1, 31'(-moved)};
    end
  end

endmodule

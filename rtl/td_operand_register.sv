// td_operand_register.sv — a datapath's input stage: the lane's valid bit
// (reset) and its operands, the latter registered on a gated clock
// (td_clock_gate): loaded in the cycles a lane goes in (valid_i), held
// otherwise, so the arithmetic behind it switches once a lane. No reset on
// the operands: the valid bit says when they mean something.
module td_operand_register #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  input  logic [Width-1:0] d_i,
  output logic             valid_o,
  output logic [Width-1:0] q_o
);

  logic clk_gated;

  td_clock_gate u_gate (
    .clk_i (clk_i),
    .en_i  (valid_i),
    .clk_o (clk_gated)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_o <= 1'b0;
    else         valid_o <= valid_i;
  end

  always_ff @(posedge clk_gated) begin
    q_o <= d_i;
  end

endmodule

// td_operand_register.sv — a datapath's operands, registered at its input
// on a gated clock (td_clock_gate): loaded in the cycles a lane goes in
// (en_i), held otherwise, so the arithmetic behind it switches once a lane.
// No reset: the pipeline's valid bits say when the data mean something.
module td_operand_register #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic             en_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  logic clk_gated;

  td_clock_gate u_gate (
    .clk_i (clk_i),
    .en_i  (en_i),
    .clk_o (clk_gated)
  );

  always_ff @(posedge clk_gated) begin
    q_o <= d_i;
  end

endmodule

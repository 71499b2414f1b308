// td_sort4.sv — the box node's result (contract §6): with box_sort, the hit
// children ordered by ascending (key, slot) — ties by slot index, -0 equal
// to +0 — then 0xffffffff; without it, each slot's child if hit, else
// 0xffffffff. Each hit child's place is the number of hit children before
// it in that order (a rank network). Pipelined, initiation interval 1,
// results `Latency` clocks after their lane went in (td.sort_latency_cycles;
// Latency >= 2): the operands are registered at the input (on a gated
// clock), the network computed from them, then Latency - 1 registers.
module td_sort4 #(
  parameter int unsigned Latency = 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  input  logic             in_sort_i,   // the descriptor's box_sort
  input  logic [3:0]       in_hit_i,
  input  logic [127:0]     in_key_i,    // max(tnear, 0), slot i at [32i +: 32]: not NaN for a hit box
  input  logic [127:0]     in_child_i,
  output logic             out_valid_o,
  output logic [127:0]     out_child_o
);

  // ---- the operands, registered in the cycle a lane goes in ----
  logic         in_valid_q;
  logic         in_sort_q;
  logic [3:0]   in_hit_q;
  logic [127:0] in_key_q, in_child_q;

  // Wide fields first from bit 0, each on a 32-bit boundary.
  td_operand_register #(.Width(1 + 4 + 128 + 128)) u_operands (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_i),
    .d_i     ({in_sort_i, in_hit_i, in_key_i, in_child_i}),
    .valid_o (in_valid_q),
    .q_o     ({in_sort_q, in_hit_q, in_key_q, in_child_q})
  );

  // ---- rank and place (combinational) ----
  logic [1:0]   rank [4];
  logic [127:0] placed;

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      rank[i] = '0;
      for (int j = 0; j < 4; j++) begin
        if (j != i && in_hit_q[j] &&
            (td_pkg::fp32_less(in_key_q[32*j +: 32], in_key_q[32*i +: 32]) ||
             (!td_pkg::fp32_less(in_key_q[32*i +: 32], in_key_q[32*j +: 32]) && j < i))) begin
          rank[i] = rank[i] + 2'd1;
        end
      end
    end
    for (int k = 0; k < 4; k++) begin
      placed[32*k +: 32] = 32'hffff_ffff;
      for (int i = 0; i < 4; i++) begin
        if (in_sort_q ? (in_hit_q[i] && rank[i] == 2'(k)) : (in_hit_q[i] && i == k)) begin
          placed[32*k +: 32] = in_child_q[32*i +: 32];
        end
      end
    end
  end

  // ---- the pipeline's registers: Latency - 1 stages after the operands' ----
  td_delay_line #(.Width(128), .Latency(Latency - 1)) u_registers (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_q),
    .data_i  (placed),
    .valid_o (out_valid_o),
    .data_o  (out_child_o)
  );

endmodule

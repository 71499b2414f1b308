// td_box_datapath.sv — one box node a clock (contract §6): four FP32 boxes,
// or four FP16 boxes widened exactly, each slab-tested against the lane's
// ray; an empty child slot (0xffffffff) is a miss. Pipelined with an
// initiation interval of 1; the results come out `Latency` clocks after
// their lane went in (the TD's td.box_latency_cycles; Latency >= 2): the
// operands are registered at the input (on a gated clock), the tests
// computed from them, then Latency - 1 pipeline registers. The lane's
// identity travels beside the pipeline in the model, in order.
module td_box_datapath #(
  parameter int unsigned Latency = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  input  logic             in_fp16_i,       // node type 4 (FP16 boxes), else type 5 (FP32)
  input  logic [895:0]     in_node_i,       // the node's bytes 0..111 (112..127 unused): byte k at [8k +: 8]
  input  logic [95:0]      in_origin_i,     // x, y, z: axis a at [32a +: 32]
  input  logic [95:0]      in_inv_dir_i,
  input  logic [31:0]      in_extent_i,
  input  logic [7:0]       in_grow_ulps_i,  // the descriptor's box_grow
  output logic             out_valid_o,
  output logic [3:0]       out_hit_o,
  output logic [127:0]     out_key_o,       // max(tnear, 0) of each hit box: box i at [32i +: 32]
  output logic [127:0]     out_child_o
);

  // ---- the operands, registered in the cycle a lane goes in ----
  logic         in_valid_q;
  logic         in_fp16_q;
  logic [895:0] in_node_q;
  logic [95:0]  in_origin_q, in_inv_dir_q;
  logic [31:0]  in_extent_q;
  logic [7:0]   in_grow_ulps_q;

  // Wide fields first from bit 0, each on a 32-bit boundary: the register
  // splits into its fields without shifting (in silicon it is all wires).
  td_operand_register #(.Width(1 + 8 + 32 + 96 + 96 + 896)) u_operands (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_i),
    .d_i     ({in_fp16_i, in_grow_ulps_i, in_extent_i, in_inv_dir_i, in_origin_i, in_node_i}),
    .valid_o (in_valid_q),
    .q_o     ({in_fp16_q, in_grow_ulps_q, in_extent_q, in_inv_dir_q, in_origin_q, in_node_q})
  );

  // ---- decode and test (combinational) ----
  logic [127:0] child;
  logic [3:0]   hit;
  logic [127:0] key;

  for (genvar i = 0; i < 4; i++) begin : gen_box
    logic [95:0] min16, max16;
    logic        slab_hit;
    logic [31:0] slab_key;
    logic [31:0] slot;
    assign slot = in_node_q[32*i +: 32];
    assign child[32*i +: 32] = slot;
    for (genvar a = 0; a < 3; a++) begin : gen_bound
      td_fp16_to_fp32 u_min16 (.half_i(in_node_q[8*(16 + 12*i) + 16*a +: 16]), .single_o(min16[32*a +: 32]));
      td_fp16_to_fp32 u_max16 (.half_i(in_node_q[8*(22 + 12*i) + 16*a +: 16]), .single_o(max16[32*a +: 32]));
    end
    td_box_slab u_slab (
      .min_i     (in_fp16_q ? min16 : in_node_q[8*(16 + 24*i) +: 96]),
      .max_i     (in_fp16_q ? max16 : in_node_q[8*(28 + 24*i) +: 96]),
      .origin_i  (in_origin_q),
      .inv_dir_i (in_inv_dir_q),
      .extent_i  (in_extent_q),
      .grow_i    (in_grow_ulps_q),
      .hit_o     (slab_hit),
      .key_o     (slab_key)
    );
    assign hit[i] = (slot != 32'hffff_ffff) && slab_hit;
    assign key[32*i +: 32] = (slot != 32'hffff_ffff) ? slab_key : 32'h0000_0000;
  end

  // ---- the pipeline's registers: Latency - 1 stages after the operands' ----
  td_delay_line #(.Width(4 + 128 + 128), .Latency(Latency - 1)) u_registers (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_q),
    .data_i  ({hit, key, child}),
    .valid_o (out_valid_o),
    .data_o  ({out_hit_o, out_key_o, out_child_o})
  );

endmodule

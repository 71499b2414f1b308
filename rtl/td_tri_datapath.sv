// td_tri_datapath.sv — one ray/triangle test a clock (contract §7): the
// watertight test of Woop, Benthin and Wald in single precision with no
// fallback, on the triangle the node type t selects from the node's five
// vertices, and the four result dwords of return mode 0 (T, det, id + t,
// hit) or 1 (T, det and two barycentric numerators chosen by the node's
// remap bits). Every operation is one rounded binary32 add or multiply in
// the contract's order and grouping. Pipelined, initiation interval 1,
// results `Latency` clocks after their lane went in (td.triangle_latency_cycles;
// Latency >= 2): the operands are registered at the input (on a gated
// clock), the test computed from them, then Latency - 1 pipeline registers.
module td_tri_datapath #(
  parameter int unsigned Latency = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  input  logic [511:0]     in_node_i,       // the node's 64 bytes: byte k at [8k +: 8]
  input  logic [1:0]       in_triangle_i,   // t, the node type 0..3
  input  logic             in_return_mode_i,
  input  logic [95:0]      in_origin_i,     // x, y, z: axis a at [32a +: 32]
  input  logic [95:0]      in_dir_i,
  input  logic [95:0]      in_inv_dir_i,
  input  logic [31:0]      in_extent_i,
  output logic             out_valid_o,
  output logic [127:0]     out_dwords_o     // dword d at [32d +: 32]
);

  // IEEE comparisons: false when either operand is NaN.
  function automatic logic lt(logic [31:0] x, logic [31:0] y);
    lt = !td_pkg::fp32_is_nan(x[30:0]) && !td_pkg::fp32_is_nan(y[30:0]) && td_pkg::fp32_less(x, y);
  endfunction
  function automatic logic le(logic [31:0] x, logic [31:0] y);
    le = !td_pkg::fp32_is_nan(x[30:0]) && !td_pkg::fp32_is_nan(y[30:0]) && !td_pkg::fp32_less(y, x);
  endfunction
  function automatic logic [31:0] negate(logic [31:0] x);
    negate = {~x[31], x[30:0]};
  endfunction

  localparam logic [31:0] Zero = 32'h0000_0000;

  // ---- the operands, registered in the cycle a lane goes in ----
  logic         in_valid_q;
  logic [511:0] in_node_q;
  logic [1:0]   in_triangle_q;
  logic         in_return_mode_q;
  logic [95:0]  in_origin_q, in_dir_q, in_inv_dir_q;
  logic [31:0]  in_extent_q;

  // Wide fields first from bit 0, each on a 32-bit boundary: the register
  // splits into its fields without shifting (in silicon it is all wires).
  td_operand_register #(.Width(2 + 1 + 32 + 96 + 96 + 96 + 512)) u_operands (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_i),
    .d_i     ({in_triangle_i, in_return_mode_i, in_extent_i, in_inv_dir_i, in_dir_i, in_origin_i, in_node_i}),
    .valid_o (in_valid_q),
    .q_o     ({in_triangle_q, in_return_mode_q, in_extent_q, in_inv_dir_q, in_dir_q, in_origin_q, in_node_q})
  );

  // ---- step 1-2: the dominant axis is z; kx/ky swap keeps the winding ----
  logic [1:0] kx, ky, kz;
  logic [30:0] dx, dy, dz;  // |d|: magnitudes order like the values (no NaN in an active lane)
  assign dx = in_dir_q[30:0];
  assign dy = in_dir_q[62:32];
  assign dz = in_dir_q[94:64];
  always_comb begin
    if (dx >= dy && dx >= dz) begin
      kz = 2'd0;
    end else if (dy >= dz) begin
      kz = 2'd1;
    end else begin
      kz = 2'd2;
    end
    kx = (kz == 2'd2) ? 2'd0 : kz + 2'd1;
    ky = (kz == 2'd0) ? 2'd2 : kz - 2'd1;
    if (lt(in_dir_q[32*kz +: 32], Zero)) begin
      {kx, ky} = {ky, kx};
    end
  end

  logic [31:0] sx, sy, sz;
  assign sz = in_inv_dir_q[32*kz +: 32];
  td_fp32_mul u_sx (.a_i(in_dir_q[32*kx +: 32]), .b_i(sz), .product_o(sx));
  td_fp32_mul u_sy (.a_i(in_dir_q[32*ky +: 32]), .b_i(sz), .product_o(sy));

  // ---- step 3: A, B, C relative to the origin, sheared into ray space ----
  // The five vertices: V_k's axis a at byte 12k + 4a. The id: bytes 60..63.
  logic [31:0] id;
  assign id = in_node_q[480 +: 32];

  // A, B, C as vertex indices 0..4: t=0 (0,1,2), t=1 (1,3,2), t=2 (2,3,4), t=3 (2,4,0).
  logic [2:0] abc [3];
  always_comb begin
    unique case (in_triangle_q)
      2'd0:    begin abc[0] = 3'd0; abc[1] = 3'd1; abc[2] = 3'd2; end
      2'd1:    begin abc[0] = 3'd1; abc[1] = 3'd3; abc[2] = 3'd2; end
      2'd2:    begin abc[0] = 3'd2; abc[1] = 3'd3; abc[2] = 3'd4; end
      default: begin abc[0] = 3'd2; abc[1] = 3'd4; abc[2] = 3'd0; end
    endcase
  end

  logic [95:0] px, py, pz;  // sheared x, y, z of A, B, C: vertex v at [32v +: 32]
  for (genvar v = 0; v < 3; v++) begin : gen_shear
    logic [95:0] rel;
    logic [31:0] sx_z, sy_z, rel_z;
    for (genvar a = 0; a < 3; a++) begin : gen_rel
      td_fp32_add u_rel (.a_i(in_node_q[96*abc[v] + 32*a +: 32]), .b_i(negate(in_origin_q[32*a +: 32])),
                         .sum_o(rel[32*a +: 32]));
    end
    assign rel_z = rel[32*kz +: 32];
    td_fp32_mul u_sx_z (.a_i(sx), .b_i(rel_z), .product_o(sx_z));
    td_fp32_mul u_sy_z (.a_i(sy), .b_i(rel_z), .product_o(sy_z));
    td_fp32_add u_px (.a_i(rel[32*kx +: 32]), .b_i(negate(sx_z)), .sum_o(px[32*v +: 32]));
    td_fp32_add u_py (.a_i(rel[32*ky +: 32]), .b_i(negate(sy_z)), .sum_o(py[32*v +: 32]));
    td_fp32_mul u_pz (.a_i(sz), .b_i(rel_z), .product_o(pz[32*v +: 32]));
  end

  // ---- step 4: the edge functions; b = [U, V, W] weigh A, B, C ----
  // U = Cx*By - Cy*Bx; V = Ax*Cy - Ay*Cx; W = Bx*Ay - By*Ax.
  logic [31:0] ax, ay, az, bx, by, bz, cx, cy, cz;
  assign {ax, bx, cx} = {px[31:0], px[63:32], px[95:64]};
  assign {ay, by, cy} = {py[31:0], py[63:32], py[95:64]};
  assign {az, bz, cz} = {pz[31:0], pz[63:32], pz[95:64]};
  logic [95:0] edge_fn, first, second;  // U, V, W at [0 +: 32], [32 +: 32], [64 +: 32]
  td_fp32_mul u_u1 (.a_i(cx), .b_i(by), .product_o(first[31:0]));
  td_fp32_mul u_u2 (.a_i(cy), .b_i(bx), .product_o(second[31:0]));
  td_fp32_mul u_v1 (.a_i(ax), .b_i(cy), .product_o(first[63:32]));
  td_fp32_mul u_v2 (.a_i(ay), .b_i(cx), .product_o(second[63:32]));
  td_fp32_mul u_w1 (.a_i(bx), .b_i(ay), .product_o(first[95:64]));
  td_fp32_mul u_w2 (.a_i(by), .b_i(ax), .product_o(second[95:64]));
  for (genvar e = 0; e < 3; e++) begin : gen_edge
    td_fp32_add u_edge (.a_i(first[32*e +: 32]), .b_i(negate(second[32*e +: 32])), .sum_o(edge_fn[32*e +: 32]));
  end
  logic [31:0] u, v, w;
  assign {w, v, u} = edge_fn;

  logic any_negative, any_positive, edges_ok;
  assign any_negative = lt(u, Zero) || lt(v, Zero) || lt(w, Zero);
  assign any_positive = lt(Zero, u) || lt(Zero, v) || lt(Zero, w);
  assign edges_ok = !(any_negative && any_positive);

  // ---- step 6-7: det = (U + V) + W; T = (U*Az + V*Bz) + W*Cz; E = extent * det ----
  logic [31:0] uv, det, u_az, v_bz, w_cz, t_uv, t_num, extent_scaled;
  td_fp32_add u_uv (.a_i(u), .b_i(v), .sum_o(uv));
  td_fp32_add u_det (.a_i(uv), .b_i(w), .sum_o(det));
  td_fp32_mul u_u_az (.a_i(u), .b_i(az), .product_o(u_az));
  td_fp32_mul u_v_bz (.a_i(v), .b_i(bz), .product_o(v_bz));
  td_fp32_mul u_w_cz (.a_i(w), .b_i(cz), .product_o(w_cz));
  td_fp32_add u_t_uv (.a_i(u_az), .b_i(v_bz), .sum_o(t_uv));
  td_fp32_add u_t_num (.a_i(t_uv), .b_i(w_cz), .sum_o(t_num));
  td_fp32_mul u_extent (.a_i(in_extent_q), .b_i(det), .product_o(extent_scaled));

  logic range_ok, hit;
  assign range_ok = (lt(Zero, det) && le(Zero, t_num) && le(t_num, extent_scaled)) ||
                    (lt(det, Zero) && le(t_num, Zero) && le(extent_scaled, t_num));
  assign hit = edges_ok && range_ok;

  // ---- the result dwords ----
  logic [4:0]  remap_shift;
  logic [1:0]  i_src, j_src;
  logic [31:0] id_plus_t;
  logic [127:0] dwords;
  assign remap_shift = {in_triangle_q, 3'b000};  // 8t
  assign i_src = 2'(id >> remap_shift);
  assign j_src = 2'(id >> (remap_shift + 5'd2));
  assign id_plus_t = id + 32'(in_triangle_q);

  function automatic logic [31:0] weight(logic [1:0] source, logic [95:0] b);
    weight = (source == 2'd3) ? Zero : b[32*source +: 32];  // source 3 reads +0.0
  endfunction

  always_comb begin
    if (!in_return_mode_q) begin
      dwords = hit ? {32'd1, id_plus_t, det, t_num} : {32'd0, id_plus_t, 32'h3f80_0000, td_pkg::Fp32PlusInf};
    end else if (hit) begin
      dwords = {weight(j_src, edge_fn), weight(i_src, edge_fn), det, t_num};
    end else begin
      dwords = {32'h0, 32'h0, 32'h3f80_0000, td_pkg::Fp32PlusInf};
    end
  end

  // ---- the pipeline's registers: Latency - 1 stages after the operands' ----
  td_delay_line #(.Width(128), .Latency(Latency - 1)) u_registers (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (in_valid_q),
    .data_i  (dwords),
    .valid_o (out_valid_o),
    .data_o  (out_dwords_o)
  );

endmodule

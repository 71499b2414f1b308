// td_tri_datapath.sv — one ray/triangle test a clock (contract §7): the
// watertight test of Woop, Benthin and Wald in single precision with no
// fallback, on the triangle the node type t selects from the node's five
// vertices, and the four result dwords of return mode 0 (T, det, id + t,
// hit) or 1 (T, det and two barycentric numerators chosen by the node's
// remap bits). Every operation is one rounded binary32 add or multiply in
// the contract's order and grouping. Pipelined, initiation interval 1,
// results `Latency` clocks after their lane went in (td.triangle_latency_cycles).
module td_tri_datapath #(
  parameter int unsigned Latency = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  input  logic [511:0]     in_node_i,       // the node's 64 bytes: byte k at [8k +: 8]
  input  logic [1:0]       in_triangle_i,   // t, the node type 0..3
  input  logic             in_return_mode_i,
  input  logic [2:0][31:0] in_origin_i,
  input  logic [2:0][31:0] in_dir_i,
  input  logic [2:0][31:0] in_inv_dir_i,
  input  logic [31:0]      in_extent_i,
  output logic             out_valid_o,
  output logic [3:0][31:0] out_dwords_o
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

  // ---- step 1-2: the dominant axis is z; kx/ky swap keeps the winding ----
  logic [1:0] kx, ky, kz;
  always_comb begin
    if (in_dir_i[0][30:0] >= in_dir_i[1][30:0] && in_dir_i[0][30:0] >= in_dir_i[2][30:0]) begin
      kz = 2'd0;
    end else if (in_dir_i[1][30:0] >= in_dir_i[2][30:0]) begin
      kz = 2'd1;
    end else begin
      kz = 2'd2;
    end
    kx = (kz == 2'd2) ? 2'd0 : kz + 2'd1;
    ky = (kz == 2'd0) ? 2'd2 : kz - 2'd1;
    if (lt(in_dir_i[kz], Zero)) begin
      {kx, ky} = {ky, kx};
    end
  end

  logic [31:0] sx, sy, sz;
  assign sz = in_inv_dir_i[kz];
  td_fp32_mul u_sx (.a_i(in_dir_i[kx]), .b_i(sz), .product_o(sx));
  td_fp32_mul u_sy (.a_i(in_dir_i[ky]), .b_i(sz), .product_o(sy));

  // ---- step 3: A, B, C relative to the origin, sheared into ray space ----
  // The five vertices (V_k at byte 12k) and the id (bytes 60..63).
  logic [4:0][2:0][31:0] vertex;
  for (genvar k = 0; k < 5; k++) begin : gen_vertex
    for (genvar a = 0; a < 3; a++) begin : gen_coord
      assign vertex[k][a] = in_node_i[96*k + 32*a +: 32];
    end
  end
  logic [31:0] id;
  assign id = in_node_i[480 +: 32];

  // A, B, C as vertex indices 0..4: t=0 (0,1,2), t=1 (1,3,2), t=2 (2,3,4), t=3 (2,4,0).
  logic [2:0][2:0] abc;
  always_comb begin
    unique case (in_triangle_i)
      2'd0:    abc = {3'd2, 3'd1, 3'd0};
      2'd1:    abc = {3'd2, 3'd3, 3'd1};
      2'd2:    abc = {3'd4, 3'd3, 3'd2};
      default: abc = {3'd0, 3'd4, 3'd2};
    endcase
  end

  logic [2:0][31:0] px, py, pz;  // sheared x, y, z of A, B, C
  for (genvar v = 0; v < 3; v++) begin : gen_shear
    logic [2:0][31:0] rel;
    logic [31:0] sx_z, sy_z;
    for (genvar a = 0; a < 3; a++) begin : gen_rel
      td_fp32_add u_rel (.a_i(vertex[abc[v]][a]), .b_i(negate(in_origin_i[a])), .sum_o(rel[a]));
    end
    td_fp32_mul u_sx_z (.a_i(sx), .b_i(rel[kz]), .product_o(sx_z));
    td_fp32_mul u_sy_z (.a_i(sy), .b_i(rel[kz]), .product_o(sy_z));
    td_fp32_add u_px (.a_i(rel[kx]), .b_i(negate(sx_z)), .sum_o(px[v]));
    td_fp32_add u_py (.a_i(rel[ky]), .b_i(negate(sy_z)), .sum_o(py[v]));
    td_fp32_mul u_pz (.a_i(sz), .b_i(rel[kz]), .product_o(pz[v]));
  end

  // ---- step 4: the edge functions; b = [U, V, W] weigh A, B, C ----
  // U = Cx*By - Cy*Bx; V = Ax*Cy - Ay*Cx; W = Bx*Ay - By*Ax.
  logic [2:0][31:0] edge_fn, first, second;
  localparam int unsigned A = 0, B = 1, C = 2;
  td_fp32_mul u_u1 (.a_i(px[C]), .b_i(py[B]), .product_o(first[0]));
  td_fp32_mul u_u2 (.a_i(py[C]), .b_i(px[B]), .product_o(second[0]));
  td_fp32_mul u_v1 (.a_i(px[A]), .b_i(py[C]), .product_o(first[1]));
  td_fp32_mul u_v2 (.a_i(py[A]), .b_i(px[C]), .product_o(second[1]));
  td_fp32_mul u_w1 (.a_i(px[B]), .b_i(py[A]), .product_o(first[2]));
  td_fp32_mul u_w2 (.a_i(py[B]), .b_i(px[A]), .product_o(second[2]));
  for (genvar e = 0; e < 3; e++) begin : gen_edge
    td_fp32_add u_edge (.a_i(first[e]), .b_i(negate(second[e])), .sum_o(edge_fn[e]));
  end

  logic any_negative, any_positive, edges_ok;
  assign any_negative = lt(edge_fn[0], Zero) || lt(edge_fn[1], Zero) || lt(edge_fn[2], Zero);
  assign any_positive = lt(Zero, edge_fn[0]) || lt(Zero, edge_fn[1]) || lt(Zero, edge_fn[2]);
  assign edges_ok = !(any_negative && any_positive);

  // ---- step 6-7: det = (U + V) + W; T = (U*Az + V*Bz) + W*Cz; E = extent * det ----
  logic [31:0] uv, det, u_az, v_bz, w_cz, t_uv, t_num, extent_scaled;
  td_fp32_add u_uv (.a_i(edge_fn[0]), .b_i(edge_fn[1]), .sum_o(uv));
  td_fp32_add u_det (.a_i(uv), .b_i(edge_fn[2]), .sum_o(det));
  td_fp32_mul u_u_az (.a_i(edge_fn[0]), .b_i(pz[A]), .product_o(u_az));
  td_fp32_mul u_v_bz (.a_i(edge_fn[1]), .b_i(pz[B]), .product_o(v_bz));
  td_fp32_mul u_w_cz (.a_i(edge_fn[2]), .b_i(pz[C]), .product_o(w_cz));
  td_fp32_add u_t_uv (.a_i(u_az), .b_i(v_bz), .sum_o(t_uv));
  td_fp32_add u_t_num (.a_i(t_uv), .b_i(w_cz), .sum_o(t_num));
  td_fp32_mul u_extent (.a_i(in_extent_i), .b_i(det), .product_o(extent_scaled));

  logic range_ok, hit;
  assign range_ok = (lt(Zero, det) && le(Zero, t_num) && le(t_num, extent_scaled)) ||
                    (lt(det, Zero) && le(t_num, Zero) && le(extent_scaled, t_num));
  assign hit = edges_ok && range_ok;

  // ---- the result dwords ----
  logic [4:0]  remap_shift;
  logic [1:0]  i_src, j_src;
  logic [31:0] id_plus_t;
  logic [3:0][31:0] dwords;
  assign remap_shift = {in_triangle_i, 3'b000};  // 8t
  assign i_src = 2'(id >> remap_shift);
  assign j_src = 2'(id >> (remap_shift + 5'd2));
  assign id_plus_t = id + 32'(in_triangle_i);

  function automatic logic [31:0] weight(logic [1:0] source, logic [2:0][31:0] b);
    weight = (source == 2'd3) ? Zero : b[source];  // source 3 reads +0.0
  endfunction

  always_comb begin
    if (!in_return_mode_i) begin
      dwords = hit ? {32'd1, id_plus_t, det, t_num} : {32'd0, id_plus_t, 32'h3f80_0000, td_pkg::Fp32PlusInf};
    end else if (hit) begin
      dwords = {weight(j_src, edge_fn), weight(i_src, edge_fn), det, t_num};
    end else begin
      dwords = {32'h0, 32'h0, 32'h3f80_0000, td_pkg::Fp32PlusInf};
    end
  end

  // ---- the pipeline's registers: Latency stages ----
  logic             valid_q  [Latency];
  logic [3:0][31:0] dwords_q [Latency];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned s = 0; s < Latency; s++) valid_q[s] <= 1'b0;
    end else begin
      valid_q[0] <= in_valid_i;
      for (int unsigned s = 1; s < Latency; s++) valid_q[s] <= valid_q[s-1];
    end
  end

  // Data registers need no reset: valid says when they mean something.
  always_ff @(posedge clk_i) begin
    dwords_q[0] <= dwords;
    for (int unsigned s = 1; s < Latency; s++) dwords_q[s] <= dwords_q[s-1];
  end

  assign out_valid_o  = valid_q[Latency-1];
  assign out_dwords_o = dwords_q[Latency-1];

endmodule

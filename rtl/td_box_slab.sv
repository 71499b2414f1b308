// td_box_slab.sv — the slab test of one box (contract §6, steps 2 to 6):
// per axis lo/hi = (bound - origin) * inv_dir, ordered by inv_dir's sign
// bit; tnear/tfar from the NaN-ignoring max/min; a NaN there, or in the
// box, is a miss; tfar grows by `grow` ulps; hit iff max(tnear, 0) <=
// min(tfar, extent), and the sort key is max(tnear, 0). Combinational.
module td_box_slab (
  input  logic [95:0] min_i,      // x, y, z: axis a at [32a +: 32]
  input  logic [95:0] max_i,
  input  logic [95:0] origin_i,
  input  logic [95:0] inv_dir_i,
  input  logic [31:0] extent_i,
  input  logic [7:0]  grow_i,
  output logic        hit_o,
  output logic [31:0] key_o
);

  logic [95:0] near, far;
  logic [2:0]  box_nan;

  for (genvar a = 0; a < 3; a++) begin : gen_axis
    logic [31:0] bound_lo, bound_hi, origin, inv_dir, lo_diff, hi_diff, lo, hi;
    assign bound_lo = min_i[32*a +: 32];
    assign bound_hi = max_i[32*a +: 32];
    assign origin   = origin_i[32*a +: 32];
    assign inv_dir  = inv_dir_i[32*a +: 32];
    // bound - origin as bound + (-origin): the same IEEE result, signed zeros too.
    td_fp32_add u_lo_diff (.a_i(bound_lo), .b_i({~origin[31], origin[30:0]}), .sum_o(lo_diff));
    td_fp32_add u_hi_diff (.a_i(bound_hi), .b_i({~origin[31], origin[30:0]}), .sum_o(hi_diff));
    td_fp32_mul u_lo (.a_i(lo_diff), .b_i(inv_dir), .product_o(lo));
    td_fp32_mul u_hi (.a_i(hi_diff), .b_i(inv_dir), .product_o(hi));
    // The sign bit, not a comparison: inv_dir = -0 swaps like any negative.
    assign near[32*a +: 32] = inv_dir[31] ? hi : lo;
    assign far[32*a +: 32]  = inv_dir[31] ? lo : hi;
    assign box_nan[a] = td_pkg::fp32_is_nan(bound_lo[30:0]) | td_pkg::fp32_is_nan(bound_hi[30:0]);
  end

  logic [31:0] near_xy, tnear, far_xy, tfar, tfar_grown, entry, exit_;
  /* verilator lint_off PINCONNECTEMPTY */  // each instance gives one of min and max
  td_fp32_minmax u_near_xy (.a_i(near[31:0]), .b_i(near[63:32]), .min_o(), .max_o(near_xy));
  td_fp32_minmax u_tnear (.a_i(near_xy), .b_i(near[95:64]), .min_o(), .max_o(tnear));
  td_fp32_minmax u_far_xy (.a_i(far[31:0]), .b_i(far[63:32]), .min_o(far_xy), .max_o());
  td_fp32_minmax u_tfar (.a_i(far_xy), .b_i(far[95:64]), .min_o(tfar), .max_o());
  td_fp32_ulp_up u_grow (.x_i(tfar), .n_i(grow_i), .y_o(tfar_grown));
  td_fp32_minmax u_entry (.a_i(tnear), .b_i(32'h0000_0000), .min_o(), .max_o(entry));
  td_fp32_minmax u_exit (.a_i(tfar_grown), .b_i(extent_i), .min_o(exit_), .max_o());
  /* verilator lint_on PINCONNECTEMPTY */

  logic miss_nan;
  assign miss_nan = (box_nan != '0) | td_pkg::fp32_is_nan(tnear[30:0]) | td_pkg::fp32_is_nan(tfar[30:0]);

  // entry <= exit; neither is NaN here unless the lane's extent is (an
  // inactive lane, which never reaches the datapath): then a miss.
  assign hit_o = !miss_nan && !td_pkg::fp32_is_nan(exit_[30:0]) && !td_pkg::fp32_less(exit_, entry);
  assign key_o = miss_nan ? 32'h0000_0000 : entry;

endmodule

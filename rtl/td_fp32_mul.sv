// td_fp32_mul.sv — binary32 a * b, rounded to nearest even, subnormal
// inputs and results kept (gradual underflow). NaN in, or Inf * 0: the
// quiet NaN. Combinational; the datapaths register around it.
//
// The 48-bit product of the significands is normalised so its leading one
// is bit 47; a result below the normal range is shifted further right (all
// shifted-out bits kept as sticky) before rounding on bits 23 down.
module td_fp32_mul (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] product_o
);

  logic        sign;
  logic [7:0]  a_exp, b_exp;
  logic [23:0] a_sig, b_sig;
  logic [47:0] raw, norm, shifted;
  logic [5:0]  lead_zeros;
  logic signed [10:0] exp_norm;  // exponent field of the normalised product, before underflow
  logic [10:0] right;            // extra right shift of a result below the normal range
  logic        sticky;
  logic [24:0] rounded;
  logic signed [10:0] exp_final;
  logic        round_up;

  assign sign  = a_i[31] ^ b_i[31];
  assign a_exp = (a_i[30:23] == '0) ? 8'd1 : a_i[30:23];
  assign b_exp = (b_i[30:23] == '0) ? 8'd1 : b_i[30:23];
  assign a_sig = {a_i[30:23] != '0, a_i[22:0]};
  assign b_sig = {b_i[30:23] != '0, b_i[22:0]};
  assign raw   = a_sig * b_sig;

  // Leading zeros of the 48-bit product (48 when it is zero).
  logic [6:0] raw_zeros;
  assign raw_zeros  = td_pkg::leading_zeros64({raw, 16'd0});
  assign lead_zeros = (raw_zeros > 7'd48) ? 6'd48 : raw_zeros[5:0];

  // value = raw * 2^(a_exp + b_exp - 300); with the leading one at bit 47 the
  // exponent field is a_exp + b_exp - lead_zeros - 126.
  assign norm     = raw << lead_zeros;
  assign exp_norm = $signed({3'b0, a_exp}) + $signed({3'b0, b_exp}) - $signed({5'b0, lead_zeros}) - 11'sd126;

  always_comb begin
    if (exp_norm >= 11'sd1) begin
      right     = '0;
      shifted   = norm;
      sticky    = 1'b0;
      exp_final = exp_norm;
    end else begin
      right     = 11'(11'sd1 - exp_norm);
      exp_final = 11'sd1;
      if (right >= 11'd48) begin
        shifted = '0;
        sticky  = norm != '0;
      end else begin
        shifted = norm >> right;
        sticky  = (norm & ~(48'hffff_ffff_ffff << right)) != '0;
      end
    end
  end

  // Round to nearest, ties to even: guard bit 23, sticky below it.
  assign round_up = shifted[23] & ((shifted[22:0] != '0) | sticky | shifted[24]);
  assign rounded  = {1'b0, shifted[47:24]} + 25'(round_up);

  logic signed [10:0] exp_round;
  logic [22:0] fraction;
  assign exp_round = rounded[24] ? exp_final + 11'sd1 : exp_final;
  assign fraction  = rounded[24] ? rounded[23:1] : rounded[22:0];

  logic a_zero, b_zero;
  assign a_zero = td_pkg::fp32_is_zero(a_i[30:0]);
  assign b_zero = td_pkg::fp32_is_zero(b_i[30:0]);

  always_comb begin
    if (td_pkg::fp32_is_nan(a_i[30:0]) || td_pkg::fp32_is_nan(b_i[30:0])) begin
      product_o = td_pkg::Fp32QuietNan;
    end else if ((td_pkg::fp32_is_inf(a_i[30:0]) && b_zero) || (td_pkg::fp32_is_inf(b_i[30:0]) && a_zero)) begin
      product_o = td_pkg::Fp32QuietNan;
    end else if (td_pkg::fp32_is_inf(a_i[30:0]) || td_pkg::fp32_is_inf(b_i[30:0])) begin
      product_o = {sign, 8'hff, 23'b0};
    end else if (a_zero || b_zero) begin
      product_o = {sign, 31'b0};
    end else if (exp_round >= 11'sd255) begin
      product_o = {sign, 8'hff, 23'b0};  // overflow
    end else begin
      // No hidden one after rounding: a subnormal (or zero), exponent field 0.
      product_o = {sign, (rounded[24] | rounded[23]) ? exp_round[7:0] : 8'd0, fraction};
    end
  end

endmodule

// td_fp32_add.sv — binary32 a + b (subtract: flip b's sign first), rounded
// to nearest even, subnormal inputs and results kept (gradual underflow).
// NaN in, or Inf - Inf: the quiet NaN. An exact zero sum is +0 unless both
// operands are -0. Combinational; the datapaths register around it.
//
// The larger magnitude is `big`; the other is aligned to it over three extra
// bits (guard, round, sticky), which is enough for round-to-nearest-even in
// both the carrying add and the cancelling subtract.
module td_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);

  // Operands as (sign, effective exponent, 24-bit significand).
  logic        a_sign, b_sign, big_sign, small_sign;
  logic [7:0]  a_exp, b_exp, big_exp, small_exp;
  logic [23:0] a_sig, b_sig, big_sig, small_sig;
  logic        swap;

  assign a_sign = a_i[31];
  assign b_sign = b_i[31];
  // A subnormal has no hidden one and the exponent of the smallest normal.
  assign a_exp  = (a_i[30:23] == '0) ? 8'd1 : a_i[30:23];
  assign b_exp  = (b_i[30:23] == '0) ? 8'd1 : b_i[30:23];
  assign a_sig  = {a_i[30:23] != '0, a_i[22:0]};
  assign b_sig  = {b_i[30:23] != '0, b_i[22:0]};
  assign swap   = b_i[30:0] > a_i[30:0];

  assign big_sign   = swap ? b_sign : a_sign;
  assign small_sign = swap ? a_sign : b_sign;
  assign big_exp    = swap ? b_exp : a_exp;
  assign small_exp  = swap ? a_exp : b_exp;
  assign big_sig    = swap ? b_sig : a_sig;
  assign small_sig  = swap ? a_sig : b_sig;

  logic        subtract;
  logic [7:0]  shift;
  logic [26:0] small_wide, small_aligned;
  logic [27:0] raw;        // big +- small over 24 + 3 bits, and the carry
  logic [26:0] norm;       // hidden bit at 26, then 23 fraction bits and G, R, S
  logic [8:0]  exp_norm;   // exponent of `norm` (9 bits: overflow shows)
  logic [4:0]  lead_zeros;
  logic [4:0]  left;
  logic [24:0] rounded;
  logic [8:0]  exp_round;
  logic        round_up;

  assign subtract   = big_sign != small_sign;
  assign shift      = big_exp - small_exp;
  assign small_wide = {small_sig, 3'b000};

  // Align: shift right, every bit shifted out ORed into the sticky bit.
  always_comb begin
    if (shift >= 8'd27) begin
      small_aligned = {26'b0, small_wide != '0};
    end else begin
      small_aligned = small_wide >> shift;
      small_aligned[0] = small_aligned[0] | ((small_wide & ~(27'h7ff_ffff << shift)) != '0);
    end
  end

  assign raw = subtract ? {1'b0, big_sig, 3'b000} - {1'b0, small_aligned}
                        : {1'b0, big_sig, 3'b000} + {1'b0, small_aligned};

  // Leading zeros of raw[26:0] (27 when it is all zero).
  logic [6:0] raw_zeros;
  assign raw_zeros  = td_pkg::leading_zeros64({raw[26:0], 37'd0});
  assign lead_zeros = (raw_zeros > 7'd27) ? 5'd27 : raw_zeros[4:0];

  // Normalise: a carry shifts right one (keeping the sticky bit); a
  // cancellation shifts left, but never below the smallest exponent
  // (the result is then subnormal).
  always_comb begin
    left = '0;
    if (raw[27]) begin
      norm     = {raw[27:2], raw[1] | raw[0]};
      exp_norm = {1'b0, big_exp} + 9'd1;
    end else begin
      left     = (9'(lead_zeros) < {1'b0, big_exp} - 9'd1) ? lead_zeros : 5'(big_exp - 8'd1);
      norm     = raw[26:0] << left;
      exp_norm = {1'b0, big_exp} - 9'(left);
    end
  end

  // Round to nearest, ties to even, on guard / round / sticky.
  assign round_up  = norm[2] & (norm[1] | norm[0] | norm[3]);
  assign rounded   = {1'b0, norm[26:3]} + 25'(round_up);
  assign exp_round = rounded[24] ? exp_norm + 9'd1 : exp_norm;

  logic [22:0] fraction;
  assign fraction = rounded[24] ? rounded[23:1] : rounded[22:0];

  always_comb begin
    if (td_pkg::fp32_is_nan(a_i[30:0]) || td_pkg::fp32_is_nan(b_i[30:0])) begin
      sum_o = td_pkg::Fp32QuietNan;
    end else if (td_pkg::fp32_is_inf(a_i[30:0]) && td_pkg::fp32_is_inf(b_i[30:0])) begin
      sum_o = (a_sign == b_sign) ? a_i : td_pkg::Fp32QuietNan;
    end else if (td_pkg::fp32_is_inf(a_i[30:0])) begin
      sum_o = a_i;
    end else if (td_pkg::fp32_is_inf(b_i[30:0])) begin
      sum_o = b_i;
    end else if (raw == '0) begin
      sum_o = {a_sign & b_sign, 31'b0};  // exact zero: -0 only from -0 + -0
    end else if (exp_round >= 9'd255) begin
      sum_o = {big_sign, 8'hff, 23'b0};  // overflow
    end else begin
      // No hidden one after rounding: a subnormal, exponent field 0.
      sum_o = {big_sign, (rounded[24] | rounded[23]) ? exp_round[7:0] : 8'd0, fraction};
    end
  end

endmodule

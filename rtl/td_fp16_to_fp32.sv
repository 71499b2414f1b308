// td_fp16_to_fp32.sv — exact binary16 -> binary32 widening (the A16 ray
// operands, FP16 box bounds). NaN payloads are kept, the quiet bit as in the
// source; subnormals become normals. Combinational.
module td_fp16_to_fp32 (
  input  logic [15:0] half_i,
  output logic [31:0] single_o
);

  logic        sign;
  logic [4:0]  exp_h;
  logic [9:0]  mant_h;
  logic [3:0]  lead;       // position of the leading one of a subnormal's mantissa
  logic [9:0]  mant_norm;  // the subnormal's mantissa shifted up to drop that one

  assign sign   = half_i[15];
  assign exp_h  = half_i[14:10];
  assign mant_h = half_i[9:0];

  // Bit 9 - (leading zeros of the mantissa); 0 for a zero mantissa.
  logic [4:0] mant_zeros;
  assign mant_zeros = td_pkg::leading_zeros16({mant_h, 6'd0});
  assign lead       = (mant_h == '0) ? 4'd0 : 4'(5'd9 - mant_zeros);
  assign mant_norm  = 10'(mant_h << (4'd10 - lead));

  always_comb begin
    if (exp_h == 5'h1f) begin
      single_o = {sign, 8'hff, mant_h, 13'b0};                      // Inf, NaN
    end else if (exp_h != 5'h00) begin
      single_o = {sign, 8'(exp_h) + 8'd112, mant_h, 13'b0};         // normal
    end else if (mant_h == '0) begin
      single_o = {sign, 31'b0};                                     // zero
    end else begin
      single_o = {sign, 8'(lead) + 8'd103, mant_norm, 13'b0};       // subnormal
    end
  end

endmodule

// td_delay_line.sv — a datapath's pipeline registers: `Latency` stages of a
// valid bit (reset) and `Width` data bits (no reset: valid says when they
// mean something). What goes in at one clock comes out `Latency` clocks later.
module td_delay_line #(
  parameter int unsigned Width   = 1,
  parameter int unsigned Latency = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  output logic [Width-1:0] data_o
);

  logic             valid_q [Latency];
  logic [Width-1:0] data_q  [Latency];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned s = 0; s < Latency; s++) valid_q[s] <= 1'b0;
    end else begin
      valid_q[0] <= valid_i;
      for (int unsigned s = 1; s < Latency; s++) valid_q[s] <= valid_q[s-1];
    end
  end

  always_ff @(posedge clk_i) begin
    data_q[0] <= data_i;
    for (int unsigned s = 1; s < Latency; s++) data_q[s] <= data_q[s-1];
  end

  assign valid_o = valid_q[Latency-1];
  assign data_o  = data_q[Latency-1];

endmodule

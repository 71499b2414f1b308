// td_clock_gate.sv — a latch-based clock gate (an ICG cell): clk_o pulses
// with clk_i only in cycles whose en_i was high before the rising edge. The
// latch is transparent while clk_i is low, so en_i may change at any time
// in the low phase without a glitch on clk_o. A register clocked by clk_o
// loads only when enabled, and the logic it feeds stays still otherwise:
// in silicon that saves the datapath's switching power; under Verilator it
// saves evaluating the datapath on idle clocks.
module td_clock_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);

  logic en_q;

  always_latch begin
    if (!clk_i) en_q = en_i;
  end

  assign clk_o = clk_i & en_q;

endmodule

// td_dpi_tb.sv — a SystemVerilog testbench as a verification team would
// write one around the TD's datapaths, with tdsim's golden reference called
// through DPI-C (rtl/dv/td_ref_dpi.sv) as its scoreboard's model.
//
// It reads the .tdv file named by +tdv=FILE one case a clock; the
// reference's issue stage (td_ref_plan) says which datapath takes the lane
// and with which node bytes and ray. A box lane goes into td_box_datapath,
// whose hits, keys and children go into td_sort4 a clock after they come
// out; a triangle lane goes into td_tri_datapath. Every lane's expected
// result is td_ref_intersect's on the case's memory, queued in order per
// datapath; every output is compared with the head of its queue (an
// output with nothing queued fails, and so does a lane whose result has
// not come out a whole pipeline's depth after the file's end). Lanes no
// datapath takes (inactive, faults, reserved types, out of bounds) are
// counted, not driven. At the end it prints "N passed, M failed" and
// raises done_o; the C++ main (td_dpi_tb_main.cpp) exits 1 on a failure.
// A testbench's scoreboard process keeps its own counters and queues and
// updates them in order within a clock: blocking assignments, on purpose.
/* verilator lint_off BLKSEQ */
module td_dpi_tb import td_ref_dpi::*; #(
  parameter int unsigned BoxLatency = 8,
  parameter int unsigned SortLatency = 2,
  parameter int unsigned TriangleLatency = 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        done_o,
  output int unsigned passed_o,
  output int unsigned failed_o,
  output logic        error_o   // the file could not be read
);

  string       path;
  chandle      file, memory;
  bit          at_end, done, error;
  int unsigned passed, failed;
  assign done_o = done;
  assign error_o = error;
  assign passed_o = passed;
  assign failed_o = failed;

  // ---- the datapaths ----
  logic         box_valid, box_fp16;
  logic [895:0] box_node;
  logic [95:0]  box_origin, box_inv_dir;
  logic [31:0]  box_extent;
  logic [7:0]   box_grow;
  logic         box_out_valid;
  logic [3:0]   box_out_hit;
  logic [127:0] box_out_key, box_out_child;

  td_box_datapath #(.Latency(BoxLatency)) u_box (
    .clk_i, .rst_ni,
    .in_valid_i     (box_valid),
    .in_fp16_i      (box_fp16),
    .in_node_i      (box_node),
    .in_origin_i    (box_origin),
    .in_inv_dir_i   (box_inv_dir),
    .in_extent_i    (box_extent),
    .in_grow_ulps_i (box_grow),
    .out_valid_o    (box_out_valid),
    .out_hit_o      (box_out_hit),
    .out_key_o      (box_out_key),
    .out_child_o    (box_out_child)
  );

  logic         sort_valid, sort_flag;
  logic [3:0]   sort_hit;
  logic [127:0] sort_key, sort_child;
  logic         sort_out_valid;
  logic [127:0] sort_out_child;

  td_sort4 #(.Latency(SortLatency)) u_sort (
    .clk_i, .rst_ni,
    .in_valid_i  (sort_valid),
    .in_sort_i   (sort_flag),
    .in_hit_i    (sort_hit),
    .in_key_i    (sort_key),
    .in_child_i  (sort_child),
    .out_valid_o (sort_out_valid),
    .out_child_o (sort_out_child)
  );

  logic         tri_valid, tri_mode;
  logic [511:0] tri_node;
  logic [1:0]   tri_select;
  logic [95:0]  tri_origin, tri_dir, tri_inv_dir;
  logic [31:0]  tri_extent;
  logic         tri_out_valid;
  logic [127:0] tri_out_dwords;

  td_tri_datapath #(.Latency(TriangleLatency)) u_tri (
    .clk_i, .rst_ni,
    .in_valid_i       (tri_valid),
    .in_node_i        (tri_node),
    .in_triangle_i    (tri_select),
    .in_return_mode_i (tri_mode),
    .in_origin_i      (tri_origin),
    .in_dir_i         (tri_dir),
    .in_inv_dir_i     (tri_inv_dir),
    .in_extent_i      (tri_extent),
    .out_valid_o      (tri_out_valid),
    .out_dwords_o     (tri_out_dwords)
  );

  // ---- the scoreboard: expected results in order, per datapath ----
  bit [127:0]  box_expected[$], tri_expected[$];
  int          box_line[$], tri_line[$];
  bit          box_sort[$];
  int unsigned skipped;
  bit          next_sort;  // the box_sort of the box result coming out
  int unsigned drain;      // clocks since the file's end
  // A result comes out this many clocks after its lane went in, at most.
  localparam int unsigned DrainLimit = BoxLatency + 1 + SortLatency + TriangleLatency + 8;

  function automatic string dwords(input bit [127:0] v);
    return $sformatf("%08h,%08h,%08h,%08h", v[31:0], v[63:32], v[95:64], v[127:96]);
  endfunction

  // An output of the box path (`box`) or of the triangle path against the
  // head of its queue: its lane's expected result, or a failure of its own
  // when no lane is in flight.
  function automatic void compare(input bit box, input bit [127:0] got);
    string      unit = box ? "td_box_datapath + td_sort4" : "td_tri_datapath";
    bit [127:0] expected;
    int         line;
    if ((box ? box_line.size() : tri_line.size()) == 0) begin
      failed++;
      $display("%s: %s: an output %s with no lane in flight", path, unit, dwords(got));
      return;
    end
    if (box) begin  // (not a ?: of two pops: Verilator 5.006 runs both)
      expected = box_expected.pop_front();
      line = box_line.pop_front();
    end else begin
      expected = tri_expected.pop_front();
      line = tri_line.pop_front();
    end
    if (got == expected) begin
      passed++;
    end else begin
      failed++;
      $display("%s:%0d: %s: rtl %s, reference %s", path, line, unit, dwords(got), dwords(expected));
    end
  endfunction

  initial begin
    if (!$value$plusargs("tdv=%s", path)) path = "";
    file = path == "" ? null : td_tdv_open(path);
    memory = td_ref_memory_new();
    error = file == null;
    if (error) $display("td_dpi_tb: cannot read the vector file '%s' (+tdv=FILE)", path);
  end

  // The next case a datapath takes, its operands on the datapath's inputs
  // and its expected result queued; false at the end of the file.
  function automatic bit drive_next_case();
    bit [127:0]      descriptor, expected;
    bit [383:0]      vgprs;
    bit [1023:0]     bytes;
    /* verilator lint_off UNUSEDSIGNAL */  // bytes 112..127: an FP32 box node's unused tail
    bit [1023:0]     node;
    /* verilator lint_on UNUSEDSIGNAL */
    bit [319:0]      ray;
    int              bvh64, a16, exec, length, line, type_, read;
    longint unsigned address;
    forever begin
      read = td_tdv_next(file, descriptor, vgprs, bvh64, a16, exec, address, bytes, length, line);
      if (read != 1) begin
        if (read < 0) error = 1'b1;
        return 1'b0;
      end
      td_ref_memory_clear(memory);
      if (length > 0) td_ref_memory_write(memory, address, bytes, length);
      type_ = td_ref_plan(memory, vgprs, bvh64, a16, exec, descriptor, node, ray);
      if (type_ < 0) begin
        skipped++;
        continue;
      end
      if (td_ref_intersect(memory, vgprs, bvh64, a16, exec, descriptor, expected) != 1) begin
        $display("%s:%0d: the reference wrote nothing for a lane its plan sends to a datapath", path, line);
        error = 1'b1;
        return 1'b0;
      end
      if (type_ >= 4) begin
        box_valid   <= 1'b1;
        box_fp16    <= type_ == 4;
        box_node    <= node[895:0];
        box_extent  <= ray[31:0];
        box_origin  <= ray[127:32];
        box_inv_dir <= ray[319:224];
        box_grow    <= descriptor[62:55];
        box_expected.push_back(expected);
        box_line.push_back(line);
        box_sort.push_back(descriptor[63]);
      end else begin
        tri_valid   <= 1'b1;
        tri_node    <= node[511:0];
        tri_select  <= 2'(type_);
        tri_mode    <= descriptor[120];
        tri_extent  <= ray[31:0];
        tri_origin  <= ray[127:32];
        tri_dir     <= ray[223:128];
        tri_inv_dir <= ray[319:224];
        tri_expected.push_back(expected);
        tri_line.push_back(line);
      end
      return 1'b1;
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      box_valid <= 1'b0;
      tri_valid <= 1'b0;
      sort_valid <= 1'b0;
      done = 1'b0;
      passed = 0;
      failed = 0;
      at_end = 1'b0;
      skipped = 0;
      drain = 0;
    end else if (!done) begin
      box_valid <= 1'b0;
      tri_valid <= 1'b0;
      sort_valid <= 1'b0;
      // A box result goes into the sorting network a clock after it comes out.
      if (box_out_valid) begin
        next_sort = box_sort.size() != 0 ? box_sort.pop_front() : 1'b0;
        sort_valid <= 1'b1;
        sort_flag  <= next_sort;
        sort_hit   <= box_out_hit;
        sort_key   <= box_out_key;
        sort_child <= box_out_child;
      end
      if (sort_out_valid) compare(1'b1, sort_out_child);
      if (tri_out_valid) compare(1'b0, tri_out_dwords);
      if (error) begin
        done = 1'b1;
      end else if (!at_end) begin
        if (!drive_next_case()) at_end = 1'b1;
      end else if (box_expected.size() != 0 || tri_expected.size() != 0) begin
        if (++drain > DrainLimit) begin
          foreach (box_line[i]) $display("%s:%0d: td_box_datapath + td_sort4: no result came out", path, box_line[i]);
          foreach (tri_line[i]) $display("%s:%0d: td_tri_datapath: no result came out", path, tri_line[i]);
          failed += box_line.size() + tri_line.size();
          box_expected.delete();
          box_line.delete();
          tri_expected.delete();
          tri_line.delete();
        end
      end else begin
        done = 1'b1;
        $display("td_dpi_tb: %s: %0d lanes through the datapaths, %0d that no datapath takes", path,
                 passed + failed, skipped);
        $display("%0d passed, %0d failed", passed, failed);
      end
    end
  end

  final begin
    if (file != null) td_tdv_close(file);
    td_ref_memory_free(memory);
  end

endmodule
/* verilator lint_on BLKSEQ */

// td_ref_dpi.sv — tdsim's golden reference (model/ref) for SystemVerilog
// testbenches, through DPI-C: the functions of rtl/dv/td_ref_dpi.h, whose
// comments are the reference. Link the C side: the CMake target
// tdsim_ref_dpi (rtl/dv/td_ref_dpi.cpp over model/isa, model/ref and the
// .tdv reader tb/vectors/tdv.cpp; no SystemC, no Verilator runtime).
//
//   import td_ref_dpi::*;
//   chandle mem = td_ref_memory_new();
//   td_ref_memory_write(mem, 64'h1000, node_bytes, 64);
//   if (td_ref_intersect(mem, vgprs, 0, 0, 1, descriptor, expected) == 1) ...
//
// Operands: `vgprs` is the lane's VGPRs, dword k at [32k +: 32] (node_ptr,
// one dword or two for bvh64, then the ray's 10, or 7 in the A16 form);
// `descriptor` the 128-bit sgpr_resource; results 4 dwords, dword d at
// [32d +: 32]. Node bytes: byte k at [8k +: 8].
package td_ref_dpi;

  // A memory image holding the nodes (unwritten bytes read 0).
  import "DPI-C" function chandle td_ref_memory_new();
  import "DPI-C" function void td_ref_memory_free(input chandle memory);
  import "DPI-C" function void td_ref_memory_clear(input chandle memory);
  import "DPI-C" function void td_ref_memory_write(input chandle memory, input longint unsigned address,
                                                   input bit [1023:0] bytes, input int length);

  // One lane of image_bvh[64]_intersect_ray: 1 and the result, 0 for an
  // inactive lane (nothing written), -1 for a bad argument.
  import "DPI-C" function int td_ref_intersect(input chandle memory, input bit [383:0] vgprs, input int bvh64,
                                               input int a16, input int exec, input bit [127:0] descriptor,
                                               output bit [127:0] result);

  // What the lane's datapath takes: the node type it tests (0..3 triangle,
  // 4 FP16 boxes, 5 FP32 boxes), the node's bytes and the widened ray
  // (extent, origin.xyz, dir.xyz, inv_dir.xyz: dword k at [32k +: 32]);
  // -1 when no datapath takes the lane, -2 for a bad argument.
  import "DPI-C" function int td_ref_plan(input chandle memory, input bit [383:0] vgprs, input int bvh64,
                                          input int a16, input int exec, input bit [127:0] descriptor,
                                          output bit [1023:0] node, output bit [319:0] ray);

  // A .tdv file's cases, one at a time: 1, 0 at the end, -1 on an error.
  import "DPI-C" function chandle td_tdv_open(input string path);
  import "DPI-C" function void td_tdv_close(input chandle file);
  import "DPI-C" function int td_tdv_next(input chandle file, output bit [127:0] descriptor,
                                          output bit [383:0] vgprs, output int bvh64, output int a16,
                                          output int exec, output longint unsigned mem_address,
                                          output bit [1023:0] memory_bytes, output int mem_length,
                                          output int line);

endpackage

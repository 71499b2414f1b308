/* td_ref_dpi.h — the golden reference (model/ref) behind a small C ABI, for
 * SystemVerilog testbenches through DPI-C (rtl/dv/td_ref_dpi.sv imports
 * every function here) and for any C caller.
 *
 * Operands as the instruction has them (contract §2): `vgprs` holds the
 * lane's VGPRs in order, node_ptr first (one dword, two for the 64-bit form:
 * low then high), then ray_extent, origin.xyz and dir.xyz, inv_dir.xyz
 * (10 dwords) or, in the A16 form, ray_extent, origin.xyz and the three
 * packed words (7 dwords): 8 to 12 dwords in all, read from an array of 12;
 * unused dwords are ignored. `descriptor` is the 128-bit
 * sgpr_resource, dword 0 first. A result is 4 dwords. Dword arrays are
 * little-endian bit vectors as SystemVerilog passes `bit [N-1:0]` (dword k
 * at bits [32k +: 32], svBitVecVal in svdpi.h: uint32_t).
 *
 * Memory: the node bytes live in a td_ref_memory image (sparse, 64-bit
 * byte addresses, unwritten bytes read 0) that the caller fills.
 * Vector files: td_tdv_* read a .tdv file's cases one at a time (the format
 * of docs/tdv-format.md), so a testbench can drive its RTL with them.
 * No function throws; an error is a return code and one line on stderr.
 * The types are those Verilator gives the imports of td_ref_dpi.sv
 * (tests/rtl/td_dpi_tb_main.cpp includes both declarations: they must agree). */
#ifndef TD_REF_DPI_H
#define TD_REF_DPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A memory image: new, cleared, written `length` bytes (at most 128) at
 * `address` from `bytes` (byte k at bits [8k +: 8]), freed. */
void* td_ref_memory_new(void);  /* NULL when out of memory */
void td_ref_memory_free(void* memory);
void td_ref_memory_clear(void* memory);
void td_ref_memory_write(void* memory, unsigned long long address, const uint32_t* bytes, int length);

/* image_bvh_intersect_ray (bvh64 = 0) or image_bvh64_intersect_ray (1) on
 * one lane: writes the four result dwords and returns 1, or returns 0 for
 * an inactive lane (EXEC off or a NaN/Inf operand, contract §3: nothing is
 * written), -1 for a bad argument. */
int td_ref_intersect(void* memory, const uint32_t* vgprs, int bvh64, int a16, int exec,
                     const uint32_t* descriptor, uint32_t* result);

/* The issue stage's decision and fetch for the same lane: what a box or
 * triangle datapath takes. Returns the node type the lane's datapath
 * tests (0..3 a triangle, 4 FP16 boxes, 5 FP32 boxes), with the node's
 * bytes in `node` (128 bytes: an FP32 box node's, else 64 and zeros) and
 * the widened ray in `ray` (10 dwords: extent, origin.xyz, dir.xyz,
 * inv_dir.xyz, binary32); or -1 when no datapath takes the lane
 * (inactive, descriptor fault, reserved type, out of bounds), -2 for a bad
 * argument. */
int td_ref_plan(void* memory, const uint32_t* vgprs, int bvh64, int a16, int exec,
                const uint32_t* descriptor, uint32_t* node, uint32_t* ray);

/* A .tdv file, validated whole when opened: its handle, or NULL (the errors
 * on stderr, each naming the file and line). */
void* td_tdv_open(const char* path);
void td_tdv_close(void* file);
/* The next case: 1 (its operands as td_ref_intersect takes them, the
 * case's memory bytes and their address, its line), 0 at the end, -1 on a
 * read error. `memory_bytes` is 128 bytes (mem_length of them used: 0, 64
 * or 128). */
int td_tdv_next(void* file, uint32_t* descriptor, uint32_t* vgprs, int* bvh64, int* a16, int* exec,
                unsigned long long* mem_address, uint32_t* memory_bytes, int* mem_length, int* line);

#ifdef __cplusplus
}
#endif

#endif /* TD_REF_DPI_H */

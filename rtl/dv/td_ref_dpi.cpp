// td_ref_dpi.cpp — the C ABI of td_ref_dpi.h over model/ref and tb/vectors.
#include "rtl/dv/td_ref_dpi.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

#include "model/isa/fp32.h"
#include "model/ref/intersect.h"
#include "tb/vectors/tdv.h"

namespace {

using td::Descriptor;
using td::LaneInput;
using td::MemoryImage;

constexpr int kMaxMemoryBytes = 128;

uint8_t byte_of(const uint32_t* words, int k) { return static_cast<uint8_t>(words[k / 4] >> (8 * (k % 4))); }

void set_byte(uint32_t* words, int k, uint8_t value) {
  words[k / 4] = (words[k / 4] & ~(0xffu << (8 * (k % 4)))) | (uint32_t{value} << (8 * (k % 4)));
}

// The lane's operands from its VGPRs (td_ref_dpi.h), as model/isa keeps them.
LaneInput lane_of(const uint32_t* vgprs, int bvh64, int a16, int exec) {
  LaneInput lane;
  lane.op = bvh64 ? td::Opcode::kBvh64 : td::Opcode::kBvh;
  lane.a16 = a16 != 0;
  lane.exec = exec != 0;
  lane.node_ptr = vgprs[0] | (bvh64 ? uint64_t{vgprs[1]} << 32 : 0);
  const uint32_t* ray = vgprs + (bvh64 ? 2 : 1);
  for (int d = 0; d < lane.ray_dword_count(); ++d) lane.ray_dwords[d] = ray[d];
  return lane;
}

Descriptor descriptor_of(const uint32_t* words) { return Descriptor::unpack({words[0], words[1], words[2], words[3]}); }

struct TdvFile {
  explicit TdvFile(const std::string& path) : reader(path) {}
  td::tb::TdvReader reader;
};

}  // namespace

extern "C" {

// Small pages: a testbench writes a node or two per case (model/isa/memory_image.h).
void* td_ref_memory_new(void) {
  try {
    return new MemoryImage(MemoryImage::kMinPageBits);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "td_ref_memory_new: %s\n", e.what());
    return nullptr;
  }
}

void td_ref_memory_free(void* memory) { delete static_cast<MemoryImage*>(memory); }

void td_ref_memory_clear(void* memory) {
  if (memory) static_cast<MemoryImage*>(memory)->clear();
}

void td_ref_memory_write(void* memory, unsigned long long address, const uint32_t* bytes, int length) {
  if (!memory || !bytes || length < 0 || length > kMaxMemoryBytes) {
    std::fprintf(stderr, "td_ref_memory_write: bad argument (a null pointer, or length %d outside 0..%d)\n", length,
                 kMaxMemoryBytes);
    return;
  }
  uint8_t data[kMaxMemoryBytes];
  for (int k = 0; k < length; ++k) data[k] = byte_of(bytes, k);
  try {
    static_cast<MemoryImage*>(memory)->write(address, data, static_cast<size_t>(length));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "td_ref_memory_write: %s\n", e.what());
  }
}

int td_ref_intersect(void* memory, const uint32_t* vgprs, int bvh64, int a16, int exec,
                     const uint32_t* descriptor, uint32_t* result) {
  if (!memory || !vgprs || !descriptor || !result) {
    std::fprintf(stderr, "td_ref_intersect: a null pointer argument\n");
    return -1;
  }
  const td::LaneResult r = td::ref::intersect(descriptor_of(descriptor), lane_of(vgprs, bvh64, a16, exec),
                                              *static_cast<MemoryImage*>(memory));
  if (!r.written) return 0;
  for (int d = 0; d < 4; ++d) result[d] = r.dwords[d];
  return 1;
}

int td_ref_plan(void* memory, const uint32_t* vgprs, int bvh64, int a16, int exec,
                const uint32_t* descriptor, uint32_t* node, uint32_t* ray) {
  if (!memory || !vgprs || !descriptor || !node || !ray) {
    std::fprintf(stderr, "td_ref_plan: a null pointer argument\n");
    return -2;
  }
  const td::ref::LanePlan plan = td::ref::plan_lane(descriptor_of(descriptor), lane_of(vgprs, bvh64, a16, exec));
  if (!plan.needs_fetch()) return -1;
  td::NodeBytes scratch{};
  const uint8_t* bytes = static_cast<MemoryImage*>(memory)->view(plan.address, plan.bytes, scratch.data());
  std::memset(node, 0, kMaxMemoryBytes);
  for (uint32_t k = 0; k < plan.bytes; ++k) set_byte(node, static_cast<int>(k), bytes[k]);
  ray[0] = td::bits_of(plan.ray.extent);
  for (int a = 0; a < 3; ++a) {
    ray[1 + a] = td::bits_of(plan.ray.origin[a]);
    ray[4 + a] = td::bits_of(plan.ray.dir[a]);
    ray[7 + a] = td::bits_of(plan.ray.inv_dir[a]);
  }
  return static_cast<int>(plan.type);
}

void* td_tdv_open(const char* path) {
  if (!path) return nullptr;
  try {
    const td::tb::TdvValidation validation = td::tb::validate_tdv_file(path);
    for (const td::tb::TdvError& error : validation.errors) std::fprintf(stderr, "error: %s\n", error.to_string().c_str());
    if (!validation.ok()) return nullptr;
    return new TdvFile(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return nullptr;
  }
}

void td_tdv_close(void* file) { delete static_cast<TdvFile*>(file); }

int td_tdv_next(void* file, uint32_t* descriptor, uint32_t* vgprs, int* bvh64, int* a16, int* exec,
                unsigned long long* mem_address, uint32_t* memory_bytes, int* mem_length, int* line) {
  if (!file || !descriptor || !vgprs || !bvh64 || !a16 || !exec || !mem_address || !memory_bytes || !mem_length ||
      !line) {
    std::fprintf(stderr, "td_tdv_next: a null pointer argument\n");
    return -1;
  }
  try {
    td::tb::TdvCase c;
    if (!static_cast<TdvFile*>(file)->reader.next(c)) return 0;
    for (int d = 0; d < 4; ++d) descriptor[d] = c.desc[d];
    const bool wide = c.lane.op == td::Opcode::kBvh64;
    *bvh64 = wide;
    *a16 = c.lane.a16;
    *exec = c.lane.exec;
    std::memset(vgprs, 0, 12 * sizeof(uint32_t));
    vgprs[0] = static_cast<uint32_t>(c.lane.node_ptr);
    if (wide) vgprs[1] = static_cast<uint32_t>(c.lane.node_ptr >> 32);
    for (int d = 0; d < c.lane.ray_dword_count(); ++d) vgprs[(wide ? 2 : 1) + d] = c.lane.ray_dwords[d];
    *mem_address = c.mem.empty() ? 0 : c.mem_address();
    std::memset(memory_bytes, 0, kMaxMemoryBytes);
    for (size_t k = 0; k < c.mem.size(); ++k) set_byte(memory_bytes, static_cast<int>(k), c.mem[k]);
    *mem_length = static_cast<int>(c.mem.size());
    *line = c.line;
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return -1;
  }
}

}  // extern "C"

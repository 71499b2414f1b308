// chip_harness.h — a chip, a wave feeder and a memory image for tests of the
// timing model, and the instructions they issue (intersects, loads). SystemC elaborates once per process: each test builds one
// harness (CTest runs every test in its own process).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/chip/chip.h"
#include "model/config/config.h"
#include "model/isa/fp32.h"
#include "model/isa/memory_image.h"
#include "tb/engines/wave_feeder.h"

namespace td::test {

inline cfg::Config small_config() {
  return cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/small.yaml");
}

#if TDSIM_HAVE_RTL
// The small chip with the Verilated datapaths (and their latencies).
inline cfg::Config small_rtl_config() {
  cfg::Config config = small_config();
  config.td.box_latency_cycles = TDSIM_RTL_BOX_LATENCY;
  config.td.triangle_latency_cycles = TDSIM_RTL_TRIANGLE_LATENCY;
  config.td.sort_latency_cycles = TDSIM_RTL_SORT_LATENCY;
  return cfg::with_datapath(config, "rtl");
}
#endif

// A ray from near the origin that hits boxes around the origin.
inline Ray test_ray(uint32_t i) {
  Ray ray;
  ray.extent = 1e30f;
  const float jitter = static_cast<float>(i % 7) * 0.01f;
  ray.origin = {-0.1f + jitter, 0.05f, -0.02f};
  ray.dir = {1.0f, 0.25f + jitter, -0.5f};
  for (int a = 0; a < 3; ++a) ray.inv_dir[a] = 1.0f / ray.dir[a];
  return ray;
}

struct Harness {
  // The chip's wave client is the feeder, or `client` (which may pass calls
  // on to the feeder). `issues_loads`: the feeder takes load instructions.
  explicit Harness(const cfg::Config& c, timing::WaveClient* client = nullptr, bool issues_loads = false)
      : config(c),
        feeder(c.td_count(), memory, issues_loads),
        chip(std::make_unique<chip::Chip>("chip", config, client ? *client : feeder, stats)) {
    chip->set_memory(memory);
  }

  // Box nodes (FP32 when box32, else FP16) and triangle nodes at units
  // 2*k, k = 0..count-1, with varied geometry.
  void write_nodes(uint32_t count) {
    NodeBytes bytes{};
    for (uint32_t k = 0; k < count; ++k) {
      const float s = 0.5f + 0.1f * static_cast<float>(k % 13);
      BoxNode box;
      for (int i = 0; i < 4; ++i) {
        box.child[i] = (k * 4 + static_cast<uint32_t>(i)) << 3 | 5u;
        for (int a = 0; a < 3; ++a) {
          box.box[i].min[a] = -s * static_cast<float>(i + 1) + 0.3f * static_cast<float>(a);
          box.box[i].max[a] = s * static_cast<float>(i + 1) - 0.2f * static_cast<float>(a);
        }
      }
      encode_box32(box, bytes.data());
      memory.write(box32_unit(k) * kNodeUnitBytes, bytes.data(), 128);
      encode_box16(box, bytes.data());
      memory.write(box16_unit(k) * kNodeUnitBytes, bytes.data(), 64);
      TriangleNode tri;
      for (int v = 0; v < 5; ++v)
        tri.vertex[v] = {2.0f + static_cast<float>(v % 2), s * (v < 3 ? -1.0f : 1.0f), s * (v % 3 - 1.0f)};
      tri.id = 0x0b0a0908u + k;
      encode_triangle(tri, bytes.data());
      memory.write(tri_unit(k) * kNodeUnitBytes, bytes.data(), 64);
    }
  }
  // `lines` 64-byte units of bytes from kLoadBase on, each byte a hash of
  // its address (what load_wave() reads).
  void write_load_data(uint32_t lines) {
    std::vector<uint8_t> bytes(64 * size_t{lines});
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
    memory.write(kLoadBase, bytes.data(), bytes.size());
  }
  static constexpr uint64_t kLoadBase = 0x4000000;  // past every node write_nodes() writes

  static uint64_t box32_unit(uint32_t k) { return 0x10000 + 2 * uint64_t{k}; }
  static uint64_t box16_unit(uint32_t k) { return 0x20000 + uint64_t{k}; }
  static uint64_t tri_unit(uint32_t k) { return 0x30000 + uint64_t{k}; }

  static Descriptor descriptor() {
    Descriptor d;
    d.box_sort = true;
    d.size_units = 0x40000;
    return d;
  }

  // Runs until everything queued has returned; fails the test when nothing
  // moves for `max_quiet_cycles` (with the chip's deadlock report).
  void run(uint64_t max_quiet_cycles = 10'000'000) {
    chip->wake_all();
    const chip::RunOutcome outcome = chip->run_until_idle([this] { return feeder.done(); }, max_quiet_cycles);
    ASSERT_EQ(outcome, chip::RunOutcome::kIdle) << "nothing moved for " << max_quiet_cycles << " cycles\n"
                                                << chip->deadlock_report();
  }

  double td_stat(const std::string& suffix) const {
    double total = 0;
    for (size_t i = 0; i < chip->td_count(); ++i)
      total += static_cast<double>(stats.value(std::string(chip->td(i).name()) + "." + suffix));
    return total;
  }

  cfg::Config config;
  MemoryImage memory;
  sim::StatsRegistry stats;
  tb::WaveFeeder feeder;
  std::unique_ptr<chip::Chip> chip;
};

// An instruction of `lanes` lanes cycling over FP32 box, FP16 box and
// triangle nodes written by Harness::write_nodes (lane l uses node
// k = (seed + l) % nodes).
inline WaveInstr mixed_wave(uint32_t lanes, uint32_t seed, uint32_t nodes) {
  WaveInstr instr;
  instr.descriptor = Harness::descriptor();
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t k = (seed + l) % nodes;
    uint64_t pointer;
    switch ((seed + l) % 3) {
      case 0: pointer = NodePtr::make(Harness::box32_unit(k), NodeType::kBox32).raw; break;
      case 1: pointer = NodePtr::make(Harness::box16_unit(k), NodeType::kBox16).raw; break;
      default: pointer = NodePtr::make(Harness::tri_unit(k), static_cast<NodeType>(l % 4)).raw; break;
    }
    instr.lanes.push_back(LaneInput::from_ray(test_ray(seed + l), pointer));
  }
  return instr;
}

// A load of `lanes` lanes over the first `lines` units write_load_data()
// wrote: lane l reads 1 to 4 dwords (cycling) from unit (seed + 3l) % lines,
// at an offset that keeps it inside the unit (some not dword-aligned);
// EXEC is off on every seventh lane.
inline WaveInstr load_wave(uint32_t lanes, uint32_t seed, uint32_t lines) {
  WaveInstr instr;
  instr.kind = InstrKind::kLoad;
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t dwords = 1 + (seed + l) % 4;
    const uint32_t room = 64 - 4 * dwords;  // the last offset that keeps it in the unit
    const uint32_t offset = (l % 5 == 4) ? room - (l % 4) : 4 * ((seed * 3 + l * 5) % (room / 4 + 1));
    const uint64_t address = Harness::kLoadBase + 64 * uint64_t{(seed + 3 * l) % lines} + offset;
    instr.lanes.push_back(LaneInput::load(address, dwords, (seed + l) % 7 != 3));
  }
  return instr;
}

// What a load lane must write, read straight from the memory's bytes.
inline LaneResult expected_load(const MemoryImage& memory, const LaneInput& lane) {
  if (!lane.exec) return LaneResult::no_write();
  LaneResult expected{true, {}, LaneOutcome::kLoad};
  std::vector<uint8_t> bytes(lane.load_bytes());
  memory.read(lane.load_address(), bytes.data(), bytes.size());
  for (uint32_t d = 0; d < lane.load_dwords; ++d)
    for (uint32_t b = 0; b < 4; ++b) expected.dwords[d] |= static_cast<uint32_t>(bytes[4 * d + b]) << (8 * b);
  return expected;
}

}  // namespace td::test

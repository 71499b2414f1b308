// ports.h — what goes on the datapath units' ports, and what comes off
// them, in the model's own types: one place that knows the RTL's port
// layout (rtl/td_box_datapath.sv, td_sort4.sv, td_tri_datapath.sv), for the
// timing model's datapaths and the RTL tests alike.
#pragma once

#include <array>
#include <cstdint>

#include "model/isa/lane.h"
#include "model/ref/box_test.h"
#include "model/rtl/verilated_models.h"

namespace td::rtl {

// A box node lane: the node's bytes (`node_bytes` of them: 64 for FP16
// boxes, 128 for FP32; the unit reads bytes 0..111), the ray, box_grow.
void drive_box(Vtd_box_datapath& unit, const uint8_t* node, uint32_t node_bytes, bool fp16, const Ray& ray,
               uint32_t box_grow_ulps);
// The four slab tests' hits and keys (key meaningful where hit), and the
// node's child pointers.
ref::BoxTestResult box_tests(const Vtd_box_datapath& unit);
std::array<uint32_t, 4> box_children(const Vtd_box_datapath& unit);

// A box result into the sorting network.
void drive_sort(Vtd_sort4& unit, const std::array<uint32_t, 4>& child, const ref::BoxTestResult& tests, bool box_sort);
std::array<uint32_t, 4> sorted_children(const Vtd_sort4& unit);

// A triangle node lane: the node's 64 bytes, triangle t (the node type,
// 0..3), the descriptor's return mode, the ray.
void drive_triangle(Vtd_tri_datapath& unit, const uint8_t* node, uint32_t t, uint32_t return_mode, const Ray& ray);
std::array<uint32_t, 4> triangle_dwords(const Vtd_tri_datapath& unit);

}  // namespace td::rtl

// triangle_test.h — the watertight ray/triangle datapath (contract §7,
// Woop/Benthin/Wald 2013, single precision, no fallback) as plain functions.
#pragma once

#include <array>
#include <cstdint>

#include "model/isa/lane.h"
#include "model/isa/node.h"

namespace td::ref {

struct TriangleTestResult {
  bool hit = false;
  float u = 0, v = 0, w = 0;  // barycentric numerators of A, B, C
  float t_num = 0;            // T
  float det = 0;
};

TriangleTestResult triangle_test(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c);

// Triangle t (0..3) of a node: selects (A, B, C), tests, and builds the four
// returned dwords for the descriptor's return mode, remap bits included.
std::array<uint32_t, 4> triangle_result(const TriangleNode& node, uint32_t t, uint32_t return_mode,
                                        const TriangleTestResult& test);

TriangleTestResult triangle_node_test(const Ray& ray, const TriangleNode& node, uint32_t t);

}  // namespace td::ref

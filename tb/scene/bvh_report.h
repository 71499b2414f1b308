// bvh_report.h — what a BVH build produced: nodes by type, bytes, bytes per
// triangle, SAH cost, FP16 fraction, triangles per triangle node, time.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace td::scene {

struct BvhReport {
  std::string builder = "sah";        // bvh_options.h: BvhBuilder
  uint64_t triangles = 0;             // in the mesh
  uint64_t degenerate_triangles = 0;  // left out: no ray can hit them
  uint64_t triangle_references = 0;   // box slots addressing a triangle (> usable ones with spatial splits)
  uint64_t box16_nodes = 0;           // 64 B each
  uint64_t box32_nodes = 0;           // 128 B each
  uint64_t triangle_nodes = 0;        // 64 B each
  uint64_t padding_units = 0;         // 64-byte holes left by aligning FP32 nodes to 128 B
  uint64_t link_bytes = 0;            // parent links (4 B per unit, before the BVH), when built with them
  uint64_t bytes = 0;                 // everything the descriptor spans, and the parent links
  uint32_t depth = 0;                 // box-node levels on the longest path
  double bytes_per_triangle = 0;      // bytes / usable triangles
  double fp16_fraction = 0;           // box16 / (box16 + box32)
  // Expected TD operations per ray that enters the root box, rays uniform
  // over directions and positions (the SAH's model): 1 for the root plus,
  // for each slot, area(slot box) / area(root box) — one box node or one
  // triangle test each, one TD clock either way (contract §8). Stored
  // (FP16-rounded) boxes, so the FP16 inflation is in it.
  double sah_cost = 0;
  double triangles_per_triangle_node = 0;
  std::array<uint64_t, 4> triangle_nodes_holding{};  // [k]: nodes holding k + 1 triangles
  double build_seconds = 0;   // wall time of Embree's build (not part of determinism)
  double encode_seconds = 0;  // wall time of packing and encoding
};

// An aligned table for people, one figure per line.
std::string format_report(const BvhReport& report);

// What a two-level build produced, besides each level's BvhReport.
struct SceneReport {
  uint64_t instances = 0;         // in the scene
  uint64_t placed_instances = 0;  // with an instance node (the others' BLAS has no usable triangle)
  uint64_t pulled_up_instances = 0;  // of those, with TAPU (4 or 16)
  uint64_t instance_nodes = 0;       // TLAS leaves: one per placed instance, and per TAPU entry
  uint64_t blases = 0;
  uint64_t unique_triangles = 0;     // over the BLASes
  uint64_t instanced_triangles = 0;  // over the placed instances
  uint64_t tlas_bytes = 0;           // box and instance nodes, its parent links and alignment
  uint64_t instance_node_bytes = 0;  // of tlas_bytes
  uint64_t blas_bytes = 0;           // every BLAS, with alignment: tlas_bytes + blas_bytes = bytes
  uint64_t bytes = 0;                // everything the descriptor spans
  BvhReport blas_totals;             // the BLASes' reports added up (depth: the deepest)
  double build_seconds = 0;          // all builds (not part of determinism)
  double encode_seconds = 0;
};
std::string format_report(const SceneReport& report, const BvhReport& tlas);

}  // namespace td::scene

// ray_traversal.h — one ray's walk through an encoded BVH, one
// image_bvh_intersect_ray at a time, as the traversal shader runs it:
// next_instruction() is the lane the shader issues, consume() takes the
// lane's four result dwords and decides the next step. Pure C++, no time:
// the functional trace drives one of these per ray with the golden
// reference; a wave-level shader model drives 32 or 64 in lockstep.
//
// Box results come back sorted nearest first (descriptor box_sort = 1): the
// nearest child is visited next and the others pushed, farthest first, on a
// short stack of `stack_entries` (the shader's LDS). A push onto a full
// stack drops the oldest entry. When the stack runs dry with work dropped,
// the walk restarts from the root and follows a restart trail (Laine, "Restart
// Trail for Stackless BVH Traversal", HPG 2010, widened to four children):
// per level, which of the node's sorted hit children is being visited and
// how many there were, so finished subtrees are skipped, never walked twice.
// A closest hit shrinks the ray's extent for every later step (which also
// prunes children past it, always a suffix of the sorted order); an any-hit
// walk ends at the first hit.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "model/isa/lane.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/scene_ray.h"

namespace td::traversal {

enum class HitMode : uint8_t { kClosest, kAny };

struct TraversalOptions {
  HitMode mode = HitMode::kClosest;
  uint32_t stack_entries = 16;  // 1..kMaxStackEntries
};

struct TraversalCounters {
  uint32_t box_steps = 0;       // instructions on box nodes
  uint32_t triangle_steps = 0;  // instructions on triangle nodes
  uint32_t restarts = 0;        // walks back from the root
  uint32_t dropped_entries = 0; // stack pushes that overwrote the oldest entry
  uint32_t max_stack = 0;       // most entries held at once
  uint32_t faults = 0;          // results that were not a node test (all ones): a broken BVH
  uint32_t steps() const { return box_steps + triangle_steps; }
};

// Aligned to a cache line: the lane a wave copies into its instruction
// (lane_, first) is then one line, not two.
class alignas(64) RayTraversal {
 public:
  RayTraversal() = default;
  RayTraversal(const RayTraversal&) = delete;
  RayTraversal& operator=(const RayTraversal&) = delete;

  static constexpr uint32_t kMaxStackEntries = 64;
  static constexpr uint32_t kMaxDepth = 64;  // restart-trail levels: deeper BVHs are refused

  // Starts a walk (the object is reusable: no allocation). A ray with a NaN
  // or infinite operand is done at once, a miss. Throws std::invalid_argument
  // for stack_entries outside 1..kMaxStackEntries or a BVH deeper than
  // kMaxDepth.
  void start(const scene::EncodedBvh& bvh, const scene::SceneRay& ray, const TraversalOptions& options);

  bool done() const { return done_; }

  // The lane to issue next (valid while !done()): the current node pointer
  // and the ray with its current extent.
  const LaneInput& next_instruction() const { return lane_; }
  const Descriptor& descriptor() const { return bvh_->descriptor; }

  // The result of next_instruction(), from any engine.
  void consume(const LaneResult& result);

  const scene::RayHit& hit() const { return hit_; }
  const TraversalCounters& counters() const { return counters_; }

  // Heap bytes a walk adds when its stack or trail outgrows what it holds
  // in itself (memory estimates).
  static constexpr size_t spill_bytes() { return sizeof(Spill); }

 private:
  struct TrailLevel {
    uint8_t index = 0;  // which sorted hit child is being visited
    uint8_t count = 0;  // how many children the node's last test hit
  };
  // The stack and trail a walk holds in itself: the defaults' sizes (16
  // entries, the seeds' LDS budget) and most BVHs' depth. A timed run keeps
  // tens of thousands of walks in flight, so their size is what its host
  // caches hold; a larger stack or a deeper BVH uses the spill storage.
  static constexpr uint32_t kInlineStackEntries = 16;
  static constexpr uint32_t kInlineDepth = 32;
  struct Spill {
    std::array<uint32_t, kMaxStackEntries> stack{};
    std::array<TrailLevel, kMaxDepth> trail{};
  };

  void consume_box(const LaneResult& result);
  void consume_triangle(const LaneResult& result);
  void finish_node();  // the current node's subtree is done: find the next
  void go_to(uint32_t node_ptr, uint32_t level);
  void push(uint32_t node_ptr);
  uint32_t pop();

  // What every step reads first (the lane, the BVH, the sizes and
  // positions, the counters), then the hit, the stack and the trail.
  LaneInput lane_;
  const scene::EncodedBvh* bvh_ = nullptr;
  TraversalOptions options_;
  uint32_t level_ = 0;         // depth of the current node (root 0)
  uint32_t trail_length_ = 0;  // levels [0, trail_length_) hold the path
  uint32_t stack_bottom_ = 0, stack_size_ = 0;
  bool done_ = true;
  TraversalCounters counters_;
  scene::RayHit hit_;
  // The stack's and trail's storage (start() points them at the inline
  // arrays or at spill_): a walk points into itself, so it is never copied
  // or moved.
  uint32_t* stack_ = nullptr;
  TrailLevel* trail_ = nullptr;
  std::array<uint32_t, kInlineStackEntries> inline_stack_{};
  std::array<TrailLevel, kInlineDepth> inline_trail_{};
  std::unique_ptr<Spill> spill_;  // allocated by the first walk that needs it, kept
};

}  // namespace td::traversal

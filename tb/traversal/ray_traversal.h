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

// Aligned to a cache line, four lines in all: the lane a wave copies into
// its instruction (lane_, first) is then one line, not two.
class alignas(64) RayTraversal {
 public:
  RayTraversal() = default;
  RayTraversal(const RayTraversal&) = delete;
  RayTraversal& operator=(const RayTraversal&) = delete;

  static constexpr uint32_t kMaxStackEntries = 64;
  // The bytes from the walk's start that a step usually touches (lines 0-2
  // below: position, trail, stack); the last line only on a hit or a restart.
  static constexpr size_t kStepBytes = 192;
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
  TraversalCounters counters() const {
    return TraversalCounters{box_steps_, triangle_steps_, restarts_, dropped_entries_, max_stack_, faults_};
  }

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
  // tens of thousands of walks in flight, touched in no order the host's
  // caches follow, so a step should touch few of a walk's lines; a larger
  // stack or a deeper BVH uses the spill storage.
  static constexpr uint32_t kInlineStackEntries = 16;
  static constexpr uint32_t kInlineDepth = 27;  // line 1's room
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
  uint32_t* stack() { return spilled_ ? spill_->stack.data() : inline_stack_.data(); }
  TrailLevel* trail() { return spilled_ ? spill_->trail.data() : inline_trail_.data(); }

  // Four cache lines, by how often a step touches them (a timed run keeps
  // tens of thousands of walks in flight and reaches each cold).
  // Line 0, every step and every issue: the lane and the walk's position
  // (levels and stack indices fit a byte: both are at most 64).
  LaneInput lane_;
  uint8_t level_ = 0;         // depth of the current node (root 0)
  uint8_t trail_length_ = 0;  // levels [0, trail_length_) hold the path
  uint8_t stack_bottom_ = 0, stack_size_ = 0;
  uint8_t stack_capacity_ = 16;  // the options' stack_entries
  bool done_ = true;
  bool has_hit_ = false;       // a closest hit so far: the lane's extent is its t
  bool return_mode0_ = true;   // the descriptor's return_mode is 0 (slot ids)
  // Line 1, every step: the steps counted and the trail's first levels.
  uint32_t box_steps_ = 0, triangle_steps_ = 0;
  std::array<TrailLevel, kInlineDepth> inline_trail_{};
  uint8_t max_stack_ = 0;  // most entries held at once
  bool spilled_ = false;   // the stack and trail live in spill_
  // Line 2, pushes and pops.
  std::array<uint32_t, kInlineStackEntries> inline_stack_{};
  // Line 3, now and then: a hit, a restart, a fault, a dropped entry.
  scene::RayHit hit_;
  const scene::EncodedBvh* bvh_ = nullptr;
  std::unique_ptr<Spill> spill_;  // allocated by the first walk that needs it, kept
  uint32_t restarts_ = 0, dropped_entries_ = 0, faults_ = 0;
  bool any_hit_ = false;  // the options' mode: the first hit ends the walk
};

}  // namespace td::traversal

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
//
// Two levels (a TLAS over instances, encoded_bvh.h), as the drivers walk
// them (gpurt TraceRay1_1.hlsl, RADV radv_build_ray_traversal): the
// instruction is issued on an instance node too, and its all-ones answer
// (reserved type: nothing fetched) starts the instance step. The walk then
// wants the instance node's first 64 bytes (wants_load(): four 16-byte
// vector loads, load_request()); consume_loaded() takes them, tests the
// instance's mask against the ray's (options.instance_mask), transforms the
// world ray's origin and direction by the world-to-object matrix in binary32
// (apply_point / apply_direction of scene.h; the direction is not
// renormalised, so t stays the world ray's), recomputes inv_dir = 1/dir,
// records the instance node's level (the trail's counterpart of gpurt's
// stackPtrTop) and continues at the BLAS root, adding the BLAS's base to
// every child pointer below. When the walk next goes to a node at or above
// that level (a pop, or a restart from the TLAS root) it restores the world
// ray and the TLAS; the extent (the closest hit's t) carries across. On
// the trail an instance node is a level with one hit child.
//
// Overflow by parent pointers (options.overflow kParentPointers, as both
// AMD drivers walk on RDNA2: gpurt TraceRay1_1.hlsl IsStackOverflowed /
// FetchParentNodePointer, RADV radv_build_ray_traversal stack_low_watermark
// / fetch_parent_node), on a BVH built with parent links (encoded_bvh.h):
// the stack is the same ring, but when it runs dry after any entry was
// dropped, the walk loads the parent link of the node it last tested (one
// 4-byte load, wants_load()), re-issues the parent, finds that node among
// the parent's sorted hit children and goes on with the next one (none:
// the parent's parent, and so on). A closest hit since only prunes a suffix
// of the sorted children, so the order of those left is the same. The
// TLAS/BLAS boundary as RADV's build_instance_exit: back to the TLAS when
// the entries pushed in the BLAS are all popped, or when the way back
// reaches the BLAS root, then from the instance node. The walk ends when
// the stack is empty and never dropped an entry, or at the root's parent
// link (all ones).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "model/isa/lane.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/scene_ray.h"

namespace td::traversal {

enum class HitMode : uint8_t { kClosest, kAny };
// What a walk does when its short stack ran dry with entries dropped (in
// cfg::overflow_words()'s order: shader.overflow).
enum class Overflow : uint8_t { kParentPointers, kRestart };

struct TraversalOptions {
  HitMode mode = HitMode::kClosest;
  Overflow overflow = Overflow::kRestart;  // kParentPointers needs a BVH with parent links
  uint32_t stack_entries = 16;  // 1..kMaxStackEntries
  uint8_t instance_mask = 0xff;  // the ray's: an instance is entered when its mask AND this is non-zero
};

struct TraversalCounters {
  uint32_t box_steps = 0;       // instructions on box nodes
  uint32_t triangle_steps = 0;  // instructions on triangle nodes
  uint32_t restarts = 0;        // walks back from the root
  uint32_t dropped_entries = 0; // stack pushes that overwrote the oldest entry
  uint32_t max_stack = 0;       // most entries held at once
  uint32_t faults = 0;          // results that were not a node test (all ones): a broken BVH
  uint32_t blas_box_steps = 0;  // of box_steps, on BLAS box nodes (below an instance node)
  uint32_t instance_steps = 0;  // instructions on instance nodes (each followed by the instance's loads)
  uint32_t instance_loads = 0;  // 16-byte vector loads of instance nodes (four each, five with TAPU)
  uint32_t transforms = 0;      // instances entered (mask passed, ray transformed)
  uint32_t parent_loads = 0;    // parent pointers: parent links loaded (the stack ran dry after a drop)
  uint32_t reissues = 0;        // parent pointers: box nodes issued again on the way back (of box_steps)
  uint32_t steps() const { return box_steps + triangle_steps + instance_steps; }
};

class RayTraversal {
 public:
  RayTraversal()
      : done_(true),
        has_hit_(false),
        return_mode0_(true),
        spilled_(false),
        any_hit_(false),
        in_blas_(false),
        loading_(false),
        parent_pointers_(false),
        popped_(false) {}
  RayTraversal(const RayTraversal&) = delete;
  RayTraversal& operator=(const RayTraversal&) = delete;

  static constexpr uint32_t kMaxStackEntries = 64;
  static constexpr uint32_t kMaxDepth = 64;  // restart-trail levels: deeper BVHs are refused
  // A BLAS's root, relative to the BLAS: an FP32 box node at its unit 0 (encoded_bvh.h).
  static constexpr uint32_t kBlasRootPointer = static_cast<uint32_t>(NodeType::kBox32);

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

  // Loads before the next instruction (wants_load()): `count` loads of
  // `dwords` dwords, the k-th at address + 16 k. The instance step (two
  // levels): the instance node's first kInstanceTraversalBytes (64), four
  // loads of four dwords, and a fifth for its start pointer when the image
  // has TAPU entries (kInstanceTapuTraversalBytes). The way back (parent
  // pointers): one dword, the parent link. consume_loaded() takes them
  // (dwords little-endian, as the loads return them; the parent link in
  // dwords[0]).
  struct LoadRequest {
    uint64_t address = 0;
    uint32_t count = 0, dwords = 0;
    uint64_t stride = 16;  // bytes from one load's address to the next's
    uint64_t address_of(uint32_t load) const { return address + stride * load; }
  };
  static constexpr uint32_t kMaxLoads = scene::kInstanceTapuTraversalBytes / 16;  // a request's most loads
  using LoadedDwords = std::array<uint32_t, 4 * kMaxLoads>;
  bool wants_load() const { return loading_; }
  // The last consume() or consume_loaded() took the next node from the
  // stack: the shader read it from LDS before it can issue.
  bool popped() const { return popped_; }
  LoadRequest load_request() const;
  void consume_loaded(const LoadedDwords& dwords);

  scene::RayHit hit() const;
  TraversalCounters counters() const {
    // (A walk that ends in a BLAS has not counted that BLAS's box steps yet.)
    const uint32_t blas_box_steps = blas_box_steps_ + (in_blas_ ? box_steps_ - blas_entry_box_steps_ : 0);
    return TraversalCounters{box_steps_,     triangle_steps_, restarts_, dropped_entries_, max_stack_,   faults_,
                             blas_box_steps, instance_steps_, instance_loads_, transforms_, parent_loads_, reissues_};
  }

  // Heap bytes a walk adds when its stack or trail outgrows what it holds
  // in itself (memory estimates).
  static constexpr size_t spill_bytes() { return sizeof(Spill); }

 private:
  // The stack and trail a walk holds in itself: the defaults' sizes (16
  // entries, the seeds' LDS budget) and most BVHs' depth. A timed run keeps
  // tens of thousands of walks in flight; a larger stack or a deeper BVH
  // uses the spill storage, so the common walk stays small.
  static constexpr uint32_t kInlineStackEntries = 16;
  static constexpr uint32_t kInlineDepth = 32;
  struct Spill {
    std::array<uint32_t, kMaxStackEntries> stack{};
    std::array<uint8_t, kMaxDepth / 2> trail{};
  };

  void consume_box(const LaneResult& result);
  void consume_box_parent_pointers(const LaneResult& result, uint32_t hits);
  void consume_triangle(const LaneResult& result);
  void consume_instance(const LoadedDwords& dwords);
  void consume_parent_link(uint32_t link);
  void finish_node();  // the current node's subtree is done: find the next
  void next_node_parent_pointers();  // finish_node() with parent pointers (the drivers' loop top)
  uint64_t current_base_address() const;  // the BVH the walk is in (the TLAS's or a BLAS's unit 0)
  // A child pointer (relative to the BLAS the walk is in, if any) at `level`.
  void go_to(uint32_t node_ptr, uint32_t level);
  void leave_blas();  // back to the TLAS and the world ray
  void push(uint32_t node_ptr);
  uint32_t pop();
  uint32_t* stack() { return spilled_ ? spill_->stack.data() : inline_stack_.data(); }
  uint8_t* trail() { return spilled_ ? spill_->trail.data() : inline_trail_.data(); }
  // A restart-trail level in four bits, two levels a byte: bits 0-1 which
  // sorted hit child is being visited (0..3), bits 2-3 how many children the
  // node's last test hit, less one (a level is written only with 1..4).
  static uint32_t trail_level(const uint8_t* trail, uint32_t level) {
    return (trail[level / 2] >> (level % 2 * 4)) & 15u;
  }
  static void set_trail_level(uint8_t* trail, uint32_t level, uint32_t index, uint32_t count) {
    const uint32_t shift = level % 2 * 4;
    const uint32_t bits = index | (count - 1) << 2;
    trail[level / 2] = static_cast<uint8_t>((trail[level / 2] & ~(15u << shift)) | bits << shift);
  }

  // By how often a step touches them. Every step and every issue: the lane
  // and the walk's position (levels and stack indices fit a byte: both are
  // at most 64).
  LaneInput lane_;
  uint8_t level_ = 0;         // depth of the current node (root 0)
  uint8_t trail_length_ = 0;  // levels [0, trail_length_) hold the path
  uint8_t stack_bottom_ = 0, stack_size_ = 0;
  uint8_t stack_capacity_ = 16;  // the options' stack_entries
  uint8_t max_stack_ = 0;        // most entries held at once
  bool done_ : 1;
  bool has_hit_ : 1;       // a hit so far: the lane's extent is its t
  bool return_mode0_ : 1;  // the descriptor's return_mode is 0 (slot ids)
  bool spilled_ : 1;       // the stack and trail live in spill_
  bool any_hit_ : 1;       // the options' mode: the first hit ends the walk
  bool in_blas_ : 1;       // two levels: below an instance node (child pointers add blas_base_ptr_)
  bool loading_ : 1;       // loads before the next step (the instance step or the way back)
  bool parent_pointers_ : 1;  // the options' overflow: the way back by parent links (climb_, below)
  bool popped_ : 1;           // the last step took its next node from the stack (an LDS read)
  // Every step: the steps counted, the trail's first 32 levels and the
  // stack's inline entries.
  uint32_t box_steps_ = 0, triangle_steps_ = 0;
  // The way back: the restart trail's first 32 levels, or with parent
  // pointers what the drivers keep in registers instead.
  struct Climb {
    uint32_t prev;             // the node the last step tested (pointer relative to the BVH the walk is in)
    uint32_t from;             // a parent re-issued: the child the way back came from (kInvalidChild: going down)
    uint32_t blas_pushes;      // in a BLAS: entries pushed since entering it, less those popped
    bool loading_parent;       // the loads wanted are the parent link's (else the instance node's)
  };
  union {
    std::array<uint8_t, kInlineDepth / 2> inline_trail_;
    Climb climb_;
  };
  std::array<uint32_t, kInlineStackEntries> inline_stack_{};
  // Now and then: the hit, a restart, a fault, a dropped entry.
  uint32_t primitive_ = scene::kNoPrimitive;
  float u_ = 0, v_ = 0;
  uint32_t restarts_ = 0;
  const scene::EncodedBvh* bvh_ = nullptr;
  std::unique_ptr<Spill> spill_;  // allocated by the first walk that needs it, kept
  uint32_t dropped_entries_ = 0, faults_ = 0;
  // Two levels only: the instance step and the way back.
  uint64_t blas_base_ptr_ = 0;   // the BLAS's base unit << 3, added to its child pointers
  Vec3 world_origin_{}, world_dir_{};
  uint32_t instance_node_ = 0;     // in_blas_ or loading_: the instance node's pointer (TLAS, 32-bit)
  uint32_t hit_instance_ = 0;      // the hit's scene instance index (0 for one level)
  uint32_t blas_box_steps_ = 0, instance_steps_ = 0, transforms_ = 0;
  uint32_t blas_entry_box_steps_ = 0;  // box_steps_ when the walk entered the BLAS it is in
  uint32_t blas_start_ = 0;        // in_blas_: the node the walk entered it at (relative; TAPU: below its root)
  uint8_t instance_level_ = 0;     // in_blas_: the instance node's level
  uint8_t instance_mask_ = 0xff;   // the options'
  bool front_face_ = false;        // the hit's
  // The way back by parent pointers, and the instance step's loads.
  uint32_t parent_loads_ = 0;
  uint32_t reissues_ = 0;
  uint32_t instance_loads_ = 0;
};

}  // namespace td::traversal

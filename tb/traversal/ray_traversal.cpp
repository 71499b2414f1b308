#include "tb/traversal/ray_traversal.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "model/isa/fp32.h"
#include "model/ref/intersect.h"

namespace td::traversal {


void RayTraversal::start(const scene::EncodedBvh& bvh, const scene::SceneRay& ray, const TraversalOptions& options) {
  if (options.stack_entries < 1 || options.stack_entries > kMaxStackEntries)
    throw std::invalid_argument("traversal: stack_entries must be 1..64");
  parent_pointers_ = options.overflow == Overflow::kParentPointers;
  if (parent_pointers_ && !bvh.parent_links)
    throw std::invalid_argument("traversal: parent pointers need a BVH built with parent links");
  if (!parent_pointers_ && bvh.report.depth > kMaxDepth)
    throw std::invalid_argument("traversal: BVH deeper than the restart trail");
  bvh_ = &bvh;
  // (The trail is the restart's: the way back by parent links keeps none.)
  spilled_ = options.stack_entries > kInlineStackEntries || (!parent_pointers_ && bvh.report.depth > kInlineDepth);
  if (spilled_ && !spill_) spill_ = std::make_unique<Spill>();
  stack_capacity_ = static_cast<uint8_t>(options.stack_entries);
  any_hit_ = options.mode == HitMode::kAny;
  return_mode0_ = bvh.descriptor.return_mode == 0;
  trail_length_ = 0;
  stack_bottom_ = stack_size_ = max_stack_ = 0;
  has_hit_ = front_face_ = in_blas_ = loading_ = popped_ = false;
  primitive_ = scene::kNoPrimitive;
  hit_instance_ = 0;
  u_ = v_ = 0;
  box_steps_ = triangle_steps_ = restarts_ = dropped_entries_ = faults_ = 0;
  blas_box_steps_ = instance_steps_ = transforms_ = 0;
  parent_loads_ = reissues_ = instance_loads_ = 0;
  if (parent_pointers_) climb_ = Climb{kInvalidChild, kInvalidChild, 0, false};
  instance_mask_ = options.instance_mask;
  world_origin_ = ray.origin;
  world_dir_ = ray.dir;
  lane_ = LaneInput::from_ray(scene::lane_ray(ray), bvh.root, bvh.op);
  level_ = 0;
  done_ = ref::lane_is_inactive(lane_, lane_.ray());
}

// consume_box() and consume_triangle() are consume()'s two halves, the
// functional engine's inner loop: kept inline, so a step makes no call.
[[gnu::always_inline]] inline void RayTraversal::consume_box(const LaneResult& result) {
  ++box_steps_;
  uint32_t hits = 0;
  while (hits < 4 && result.dwords[hits] != kInvalidChild) ++hits;
  if (parent_pointers_) {
    consume_box_parent_pointers(result, hits);
    return;
  }
  const uint32_t level = level_;
  uint8_t* const trail = this->trail();
  uint32_t first = 0;  // the sorted child to visit now
  if (level < trail_length_) {
    // Replaying the trail after a restart: the extent may have shrunk since,
    // pruning a suffix of the sorted children; the trail's child gone means
    // the rest of this node is done too.
    first = trail_level(trail, level) & 3u;
    if (first >= hits) {
      trail_length_ = static_cast<uint8_t>(level);
      finish_node();
      return;
    }
    set_trail_level(trail, level, first, hits);
  } else {
    if (hits == 0) {
      finish_node();
      return;
    }
    set_trail_level(trail, level, 0, hits);
    trail_length_ = static_cast<uint8_t>(level + 1);
  }
  for (uint32_t i = hits; i-- > first + 1;) push(result.dwords[i]);
  go_to(result.dwords[first], level + 1);
}

[[gnu::always_inline]] inline void RayTraversal::consume_triangle(const LaneResult& result) {
  ++triangle_steps_;
  const float t_num = float_of(result.dwords[0]);
  const float det = float_of(result.dwords[1]);
  const bool hit = return_mode0_ ? result.dwords[3] == 1
                                 : !(result.dwords[0] == kPlusInfBits && result.dwords[1] == kOneBits);
  const float extent = float_of(lane_.ray_dwords[0]);
  const float t = t_num / det;
  // Nearer than the closest hit so far: once there is one, the extent is
  // its t (set below), so the walk's hit is read only when it changes.
  const bool nearer = has_hit_ ? t < extent : t <= extent && t < std::numeric_limits<float>::infinity();
  if (hit && nearer) {
    // The hit's t becomes the extent: later steps look no further than it.
    has_hit_ = true;
    lane_.ray_dwords[0] = bits_of(t);
    front_face_ = det > 0;
    // The triangle's BVH: the BLAS of the instance the walk is in, or the one level.
    const scene::BvhLayout* layout = bvh_;
    uint64_t relative_ptr = lane_.node_ptr;
    if (in_blas_) {
      const uint32_t ordinal = bvh_->instance_ordinal(instance_node_);
      hit_instance_ = bvh_->instance_index[ordinal];
      layout = &bvh_->blases[bvh_->instance_blas[ordinal]];
      relative_ptr -= blas_base_ptr_;
    }
    if (return_mode0_) {
      const uint32_t slot = result.dwords[2];
      primitive_ = slot < layout->slot_primitive.size() ? layout->slot_primitive[slot] : scene::kNoPrimitive;
      u_ = v_ = std::numeric_limits<float>::quiet_NaN();
    } else {
      primitive_ = layout->primitive_of(relative_ptr);
      u_ = float_of(result.dwords[2]) / det;
      v_ = float_of(result.dwords[3]) / det;
    }
    if (any_hit_) {
      done_ = true;
      return;
    }
  }
  finish_node();
}

scene::RayHit RayTraversal::hit() const {
  scene::RayHit hit;
  if (!has_hit_) return hit;
  hit.hit = true;
  hit.t = float_of(lane_.ray_dwords[0]);
  hit.instance = hit_instance_;
  hit.primitive = primitive_;
  hit.u = u_;
  hit.v = v_;
  hit.front_face = front_face_;
  return hit;
}

void RayTraversal::consume_box_parent_pointers(const LaneResult& result, uint32_t hits) {
  if (climb_.from != kInvalidChild) {
    // A parent re-issued on the way back: its next sorted hit child after
    // the one the way came from (gone or the last: the parent is done).
    uint32_t next = kInvalidChild;
    for (uint32_t i = 0; i + 1 < hits; ++i)
      if (result.dwords[i] == climb_.from) next = result.dwords[i + 1];
    climb_.from = kInvalidChild;
    if (next == kInvalidChild) {
      next_node_parent_pointers();
      return;
    }
    go_to(next, 0);
    return;
  }
  if (hits == 0) {
    next_node_parent_pointers();
    return;
  }
  for (uint32_t i = hits; i-- > 1;) push(result.dwords[i]);
  go_to(result.dwords[0], 0);
}

void RayTraversal::next_node_parent_pointers() {
  // The stack at its start and never overflowed: nothing is left.
  if (stack_size_ == 0 && dropped_entries_ == 0) {
    done_ = true;
    return;
  }
  // Back to the TLAS: the BLAS's own entries all popped, or the way back
  // came up to its root; the way back then goes on from the instance node.
  if (in_blas_ && (climb_.blas_pushes == 0 || climb_.prev == blas_start_)) {
    leave_blas();
    climb_.prev = instance_node_;
  }
  if (stack_size_ > 0) {
    go_to(pop(), 0);
    return;
  }
  // Dry after a drop: the parent link of the node last tested.
  loading_ = true;
  climb_.loading_parent = true;
}

uint64_t RayTraversal::current_base_address() const {
  return bvh_->descriptor.base_address() + (in_blas_ ? (blas_base_ptr_ >> 3) * kNodeUnitBytes : 0);
}

void RayTraversal::consume_parent_link(uint32_t link) {
  loading_ = false;
  climb_.loading_parent = false;
  ++parent_loads_;
  if (link == scene::kNoParent) {  // above the root: the walk is over
    done_ = true;
    return;
  }
  if (!is_box(NodePtr{link}.type())) {  // a broken link table: end rather than climb for ever
    ++faults_;
    done_ = true;
    return;
  }
  climb_.from = climb_.prev;
  ++reissues_;
  go_to(link, 0);
}

RayTraversal::LoadRequest RayTraversal::load_request() const {
  if (parent_pointers_ && climb_.loading_parent)
    return LoadRequest{current_base_address() - 4 * (uint64_t{climb_.prev} >> 3) - 4, 1, 1};
  const uint32_t bytes = bvh_->tapu ? scene::kInstanceTapuTraversalBytes : scene::kInstanceTraversalBytes;
  return LoadRequest{bvh_->descriptor.base_address() + (uint64_t{instance_node_} >> 3) * kNodeUnitBytes, bytes / 16,
                     4};
}

void RayTraversal::consume_loaded(const LoadedDwords& dwords) {
  popped_ = false;
  if (parent_pointers_ && climb_.loading_parent) {
    consume_parent_link(dwords[0]);
    return;
  }
  instance_loads_ += load_request().count;
  consume_instance(dwords);
}

void RayTraversal::consume(const LaneResult& result) {
  popped_ = false;
  if (!result.written) {  // an inactive lane: nothing was tested, nothing will be
    done_ = true;
    return;
  }
  if (parent_pointers_)
    climb_.prev = static_cast<uint32_t>(lane_.node_ptr - (in_blas_ ? blas_base_ptr_ : 0));
  if (result.outcome != LaneOutcome::kBoxNode && result.outcome != LaneOutcome::kTriangle) {
    if (result.outcome == LaneOutcome::kReservedType && !in_blas_ && bvh_->two_level() &&
        NodePtr{lane_.node_ptr}.type() == scene::kInstanceNodeType) {
      // An instance node: the TD answers all ones; its data comes by loads.
      ++instance_steps_;
      instance_node_ = static_cast<uint32_t>(lane_.node_ptr);
      loading_ = true;
      return;
    }
    ++faults_;
    if (parent_pointers_) climb_.from = kInvalidChild;  // not a parent to go on from
    finish_node();
    return;
  }
  if (is_box(NodePtr{lane_.node_ptr}.type()))
    consume_box(result);
  else
    consume_triangle(result);
}

void RayTraversal::finish_node() {
  if (parent_pointers_) {
    next_node_parent_pointers();
    return;
  }
  // Trail levels below the current node belong to a finished subtree.
  if (trail_length_ > level_) trail_length_ = level_;
  uint8_t* const trail = this->trail();
  uint32_t level = trail_length_;
  // A level is finished when its index has reached its last hit child.
  auto finished = [trail](uint32_t l) {
    const uint32_t bits = trail_level(trail, l);
    return (bits & 3u) >= bits >> 2;
  };
  while (level > 0 && finished(level - 1)) --level;
  if (level == 0) {
    done_ = true;
    return;
  }
  const uint32_t bits = trail_level(trail, level - 1);
  set_trail_level(trail, level - 1, (bits & 3u) + 1, (bits >> 2) + 1);  // its next sorted child
  trail_length_ = static_cast<uint8_t>(level);
  if (stack_size_ > 0) {
    // The sibling is at `level`: in the TLAS again if that is at or above the instance node.
    if (in_blas_ && level <= instance_level_) leave_blas();
    go_to(pop(), level);  // the stack's top is this very sibling
    return;
  }
  // Its entry was dropped: walk down again from the root along the trail.
  ++restarts_;
  if (in_blas_) leave_blas();
  go_to(bvh_->root, 0);
}

void RayTraversal::go_to(uint32_t node_ptr, uint32_t level) {
  lane_.node_ptr = in_blas_ ? blas_base_ptr_ + node_ptr : node_ptr;
  level_ = static_cast<uint8_t>(level);
}

void RayTraversal::consume_instance(const LoadedDwords& dwords) {
  loading_ = false;
  if (((dwords[12] >> 24) & instance_mask_) == 0) {  // masked out: a leaf with nothing in it
    finish_node();
    return;
  }
  scene::Transform3x4 world_to_object;
  for (int i = 0; i < 12; ++i) world_to_object.m[i] = float_of(dwords[i]);
  const uint64_t blas_root = dwords[14] | uint64_t{dwords[15]} << 32;
  Ray ray;
  ray.extent = float_of(lane_.ray_dwords[0]);
  ray.origin = scene::apply_point(world_to_object, world_origin_);
  ray.dir = scene::apply_direction(world_to_object, world_dir_);
  for (int a = 0; a < 3; ++a) ray.inv_dir[a] = 1.0f / ray.dir[a];
  if ((blas_root & 7u) != (kBlasRootPointer & 7u))
    throw std::logic_error("traversal: a BLAS root that is not an FP32 box node");
  blas_base_ptr_ = blas_root & ~uint64_t{7};
  // The start node: the root, or with TAPU the node below it the instance
  // node names (bytes 68..71, gpurt's blasNodePointer).
  blas_start_ = bvh_->tapu ? dwords[17] : kBlasRootPointer;
  lane_ = LaneInput::from_ray(ray, blas_base_ptr_ + blas_start_, bvh_->op);
  ++transforms_;
  blas_entry_box_steps_ = box_steps_;  // the BLAS's box steps are counted on the way out
  if (parent_pointers_) {
    in_blas_ = true;
    climb_.blas_pushes = 0;
    climb_.from = kInvalidChild;
    go_to(blas_start_, 0);
    return;
  }
  // On the trail the instance node is a level with one hit child, the BLAS root.
  const uint32_t level = level_;
  set_trail_level(trail(), level, 0, 1);
  if (trail_length_ <= level) trail_length_ = static_cast<uint8_t>(level + 1);
  in_blas_ = true;
  instance_level_ = static_cast<uint8_t>(level);
  level_ = static_cast<uint8_t>(level + 1);
}

void RayTraversal::leave_blas() {
  in_blas_ = false;
  blas_box_steps_ += box_steps_ - blas_entry_box_steps_;
  Ray ray;
  ray.extent = float_of(lane_.ray_dwords[0]);
  ray.origin = world_origin_;
  ray.dir = world_dir_;
  for (int a = 0; a < 3; ++a) ray.inv_dir[a] = 1.0f / ray.dir[a];
  lane_ = LaneInput::from_ray(ray, lane_.node_ptr, bvh_->op);
}

void RayTraversal::push(uint32_t node_ptr) {
  const uint32_t capacity = stack_capacity_;
  uint32_t* const stack = this->stack();
  if (parent_pointers_ && in_blas_) ++climb_.blas_pushes;
  if (stack_size_ == capacity) {
    stack[stack_bottom_] = node_ptr;  // the oldest entry gives way
    stack_bottom_ = static_cast<uint8_t>((stack_bottom_ + 1) % capacity);
    ++dropped_entries_;
    return;
  }
  stack[(stack_bottom_ + stack_size_) % capacity] = node_ptr;
  ++stack_size_;
  if (stack_size_ > max_stack_) max_stack_ = stack_size_;
}

uint32_t RayTraversal::pop() {
  popped_ = true;
  --stack_size_;
  if (parent_pointers_ && in_blas_) --climb_.blas_pushes;
  return stack()[(stack_bottom_ + stack_size_) % stack_capacity_];
}

}  // namespace td::traversal

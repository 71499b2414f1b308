// walk_arena.h — every walk of a traversal shader in one block of memory.
//
// A timed run keeps tens of thousands of walks in flight (the Series X: 53 k,
// 10 MB) and touches each twice a step, in an order no TLB follows: with
// 4 KB pages nearly every touch is a TLB miss. One block lets the kernel
// back it with transparent huge pages (asked for with madvise where Linux
// offers it; elsewhere, or with THP off, the hint does nothing). Blocks below
// a huge page are not rounded up to one: small runs keep small footprints.
#pragma once

#include <cstddef>

#include "tb/traversal/ray_traversal.h"

namespace td::traversal {

class WalkArena {
 public:
  // `count` walks, constructed in place. Throws std::bad_alloc.
  explicit WalkArena(size_t count);
  ~WalkArena();
  WalkArena(const WalkArena&) = delete;
  WalkArena& operator=(const WalkArena&) = delete;

  RayTraversal* at(size_t index) { return walks_ + index; }
  size_t size() const { return count_; }
  // The huge-page size the block is aligned to and rounded up to.
  static constexpr size_t kHugePageBytes = size_t{2} << 20;

 private:
  RayTraversal* walks_ = nullptr;
  size_t count_ = 0;
};

}  // namespace td::traversal

#include "tb/traversal/walk_arena.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace td::traversal {

WalkArena::WalkArena(size_t count) : count_(count) {
  if (count == 0) return;
  if (count > SIZE_MAX / sizeof(RayTraversal)) throw std::bad_alloc();
  const size_t bytes = count * sizeof(RayTraversal);
  const bool huge = bytes >= kHugePageBytes;
  const size_t alignment = huge ? kHugePageBytes : alignof(RayTraversal);
  // aligned_alloc wants a multiple of the alignment.
  const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* block = std::aligned_alloc(alignment, rounded);
  if (!block) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) madvise(block, rounded, MADV_HUGEPAGE);  // a hint: refused is fine
#endif
  walks_ = static_cast<RayTraversal*>(block);
  for (size_t i = 0; i < count; ++i) new (walks_ + i) RayTraversal();  // noexcept
}

WalkArena::~WalkArena() {
  for (size_t i = 0; i < count_; ++i) walks_[i].~RayTraversal();
  std::free(walks_);
}

}  // namespace td::traversal

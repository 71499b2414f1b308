// line_aligned.h — an allocator whose storage starts on a 64-byte cache
// line. A cache's tag sets and a TD's rings are read a few entries at a
// time, from many TDs in turn, none of them in the host's caches: storage
// that starts mid-line makes a 128-byte set span three lines, not two, and
// where it starts would depend on every allocation made before it, so the
// model's speed would move with unrelated changes. No SystemC.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace td::sim {

inline constexpr std::size_t kCacheLineBytes = 64;

template <typename T>
struct LineAligned {
  using value_type = T;
  LineAligned() = default;
  template <typename U>
  LineAligned(const LineAligned<U>&) {}  // NOLINT: rebinding, as allocators do
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kCacheLineBytes}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{kCacheLineBytes}); }
  template <typename U>
  bool operator==(const LineAligned<U>&) const { return true; }
  template <typename U>
  bool operator!=(const LineAligned<U>&) const { return false; }
};

// A vector whose elements start on a cache line.
template <typename T>
using LineAlignedVector = std::vector<T, LineAligned<T>>;

}  // namespace td::sim

// requester_table.h — a small hash table from a requester (a MemClient and
// its tag) to a value, for a cache's MSHR bookkeeping: which requesters
// wait to be told of a release, and which MSHRs are promised to whom. A
// saturated L1 inserts and erases on nearly every request, so the table
// allocates nothing per insert: open addressing, linear probing, and
// backward-shift deletion (no tombstones to clean up). A null client marks
// an empty slot: requesters without a client never wait and are never
// promised anything. No SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/mem/mem_level.h"

namespace td::mem {

template <typename Value>
class RequesterTable {
 public:
  RequesterTable() : slots_(kInitialSlots) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    slots_.assign(kInitialSlots, Slot{});
    size_ = 0;
  }

  // The value of (client, tag); nullptr when absent.
  Value* find(const MemClient* client, uint64_t tag) {
    for (size_t i = home(client, tag);; i = next(i)) {
      Slot& slot = slots_[i];
      if (!slot.client) return nullptr;
      if (slot.client == client && slot.tag == tag) return &slot.value;
    }
  }
  const Value* find(const MemClient* client, uint64_t tag) const {
    return const_cast<RequesterTable*>(this)->find(client, tag);
  }

  // (client, tag) -> `value` unless present; its value, and whether it was added.
  std::pair<Value*, bool> emplace(const MemClient* client, uint64_t tag, const Value& value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    for (size_t i = home(client, tag);; i = next(i)) {
      Slot& slot = slots_[i];
      if (slot.client == client && slot.tag == tag) return {&slot.value, false};
      if (!slot.client) {
        slot = Slot{client, tag, value};
        ++size_;
        return {&slot.value, true};
      }
    }
  }

  // Removes (client, tag) if present.
  void erase(const MemClient* client, uint64_t tag) {
    size_t i = home(client, tag);
    for (;; i = next(i)) {
      if (!slots_[i].client) return;
      if (slots_[i].client == client && slots_[i].tag == tag) break;
    }
    // Backward shift: later entries of the probe run move into the gap
    // unless that would put them before their home slot.
    for (size_t j = next(i);; j = next(j)) {
      if (!slots_[j].client) break;
      const size_t k = home(slots_[j].client, slots_[j].tag);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = Slot{};
    --size_;
  }

 private:
  static constexpr size_t kInitialSlots = 64;  // a power of two
  struct Slot {
    const MemClient* client = nullptr;
    uint64_t tag = 0;
    Value value{};
  };

  size_t home(const MemClient* client, uint64_t tag) const {
    uint64_t h = reinterpret_cast<uintptr_t>(client) ^ (tag * 0x9e3779b97f4a7c15ull);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return static_cast<size_t>(h) & (slots_.size() - 1);
  }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old)
      if (slot.client) emplace(slot.client, slot.tag, slot.value);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace td::mem

#include "model/sim/worker_pool.h"

#include <algorithm>
#include <utility>

namespace td::sim {
namespace {

// Spin iterations before a worker sleeps: some tens of microseconds, about
// a clock's serial work for a large chip (wave client, memory events). With
// more threads than cores a spinning thread takes a core another needs:
// then workers sleep at once and waits yield.
constexpr unsigned kSpinsBeforeSleep = 20000;
constexpr unsigned kSpinsBeforeYield = 2000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

constexpr uint64_t unclaimed(uint64_t batch) { return batch << 1; }

// Share s of `count` tasks on `threads` threads: tasks [first(s), first(s + 1)).
constexpr size_t share_first(size_t count, size_t s, size_t threads) { return count * s / threads; }
constexpr uint64_t claimed(uint64_t batch) { return batch << 1 | 1; }

}  // namespace

WorkerPool::WorkerPool(unsigned threads)
    : shares_(new Share[threads < 1 ? 1 : threads]),
      oversubscribed_(threads > std::max(1u, std::thread::hardware_concurrency())) {
  for (unsigned s = 1; s < threads; ++s) workers_.emplace_back([this, s] { worker_loop(s); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    stopping_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::run_batch(size_t count, Trampoline call, void* context) {
  if (count == 0) return;
  call_ = call;
  context_ = context;
  count_ = count;
  error_ = nullptr;
  finished_.store(0, std::memory_order_relaxed);
  const uint64_t batch = generation_.load(std::memory_order_relaxed) + 1;
  // Released after the batch's fields: a thread that claims a share sees them.
  // A share with no task is published as claimed: a worker could otherwise
  // claim it and, running nothing and so counting nothing, still be reading
  // this batch's fields when the caller, not waiting for it, writes the next
  // batch's — and run the next batch's tasks as this share's.
  for (size_t s = 1; s < threads(); ++s) {
    const bool has_tasks = share_first(count, s + 1, threads()) > share_first(count, s, threads());
    shares_[s].state.store(has_tasks ? unclaimed(batch) : claimed(batch), std::memory_order_release);
  }
  generation_.store(batch, std::memory_order_release);
  if (sleepers_.load(std::memory_order_acquire) > 0) {
    // Under the mutex: a worker between its check and its wait cannot miss it.
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    wake_.notify_all();
  }
  run_share(0);
  for (size_t s = 1; s < threads(); ++s) claim_and_run(s, batch);  // any a worker has not claimed
  for (unsigned spins = 0; finished_.load(std::memory_order_acquire) < count; ++spins) {
    if (oversubscribed_ || spins > kSpinsBeforeYield)
      std::this_thread::yield();  // the thread we wait for may need this core
    else
      cpu_relax();
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

bool WorkerPool::claim_and_run(size_t s, uint64_t batch) {
  uint64_t expected = unclaimed(batch);
  if (!shares_[s].state.compare_exchange_strong(expected, claimed(batch), std::memory_order_acq_rel))
    return false;
  run_share(s);
  return true;
}

void WorkerPool::run_share(size_t s) {
  const size_t first = share_first(count_, s, threads()), end = share_first(count_, s + 1, threads());
  for (size_t i = first; i < end; ++i) {
    try {
      call_(context_, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_ || i < error_index_) {
        error_ = std::current_exception();
        error_index_ = i;
      }
    }
  }
  if (end > first) finished_.fetch_add(end - first, std::memory_order_acq_rel);
}

void WorkerPool::worker_loop(size_t s) {
  uint64_t seen = 0;
  for (;;) {
    unsigned spins = 0;
    uint64_t now = generation_.load(std::memory_order_acquire);
    while (now == seen) {
      if (!oversubscribed_ && ++spins < kSpinsBeforeSleep) {
        cpu_relax();
      } else {
        std::unique_lock<std::mutex> lock(sleep_mutex_);
        sleepers_.fetch_add(1, std::memory_order_acq_rel);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        sleepers_.fetch_sub(1, std::memory_order_acq_rel);
      }
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stopping_.load(std::memory_order_acquire)) return;
    claim_and_run(s, seen);
  }
}

}  // namespace td::sim

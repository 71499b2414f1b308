// worker_pool.h — runs a batch of independent tasks on a fixed set of
// threads, the caller one of them, and returns when all are done. Made for
// many small batches (the chip runs one per simulated clock, task k being
// TD k's pipeline, about a microsecond each):
//  - a batch is cut into one contiguous share per thread, so a thread works
//    on the same tasks clock after clock and their state stays in its core's
//    caches (handing tasks out one by one moved every TD between cores);
//  - a worker claims its share when it wakes; the caller, done with its
//    own, takes over any share not claimed yet (a worker still asleep, or
//    more threads than cores), so no batch waits for a sleeping thread. A
//    share with no task (fewer tasks than threads) is never offered: its
//    claimer would count nothing done, so the caller could start the next
//    batch while that thread still read this one's fields.
//    (Stealing tasks from a working thread's share was tried: it moved TDs
//    between cores again and cost more than it saved.) A share's tasks are
//    counted done once, at its end, not one atomic add per task;
//  - between batches workers spin a while before they sleep: waking a
//    sleeping thread costs more than a clock's work.
// A batch's result must not depend on which thread ran which task; the chip
// makes sure of that (see td.h). No SystemC.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace td::sim {

class WorkerPool {
 public:
  // `threads` in all, the caller included (>= 1: 1 runs every batch on the caller).
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls task(i) once for every i in [0, count), on any of the threads, and
  // returns when every call has. An exception thrown by a task is rethrown
  // here once all have returned: the one of the lowest index, so which one
  // comes out does not depend on the threads' timing.
  template <typename Task>
  void run(size_t count, Task& task) {
    run_batch(count, [](void* context, size_t i) { (*static_cast<Task*>(context))(i); }, &task);
  }

 private:
  using Trampoline = void (*)(void* context, size_t index);
  // A thread's share of the current batch: (batch << 1) | claimed. Claimed
  // by compare-and-swap, by its worker or by the caller, never both; a
  // worker late from an earlier batch finds another batch number and leaves
  // the share alone. One cache line each: threads do not share theirs.
  struct alignas(64) Share {
    std::atomic<uint64_t> state{0};
  };

  void run_batch(size_t count, Trampoline call, void* context);
  // Claims share `s` of batch `batch`; runs its tasks if the claim succeeded.
  bool claim_and_run(size_t s, uint64_t batch);
  void run_share(size_t s);
  void worker_loop(size_t s);

  std::vector<std::thread> workers_;  // worker i owns share i + 1 (share 0 is the caller's)
  std::unique_ptr<Share[]> shares_;
  // The current batch: written before its shares are published, read by a
  // thread only after it claimed a share of it.
  Trampoline call_ = nullptr;
  void* context_ = nullptr;
  size_t count_ = 0;
  std::atomic<size_t> finished_{0};      // tasks returned in this batch
  std::atomic<uint64_t> generation_{0};  // the batch number, for the workers' wait
  std::atomic<bool> stopping_{false};
  // Sleeping workers wait here for the next generation.
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<unsigned> sleepers_{0};
  const bool oversubscribed_;  // more threads than the host's cores
  // The lowest-index task's exception of the current batch.
  std::mutex error_mutex_;
  std::exception_ptr error_;
  size_t error_index_ = 0;
};

}  // namespace td::sim

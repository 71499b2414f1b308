// The chip's worker pool: every task of a batch runs exactly once, on
// whichever thread, batch after batch (the chip runs one per clock); a
// task's exception comes out of run(), the lowest index's when several
// throw; more threads than tasks, and large batches, run each task once.
#include "model/sim/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace td::sim {
namespace {

TEST(WorkerPool, EveryTaskRunsOnceInEveryBatch) {
  for (unsigned threads : {1u, 2u, 4u}) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    std::vector<std::atomic<int>> runs(97);
    for (int batch = 0; batch < 2000; ++batch) {
      const size_t count = 1 + static_cast<size_t>(batch) % runs.size();
      auto task = [&](size_t i) { runs[i].fetch_add(1, std::memory_order_relaxed); };
      pool.run(count, task);
    }
    // Task i ran in every batch of more than i tasks.
    for (size_t i = 0; i < runs.size(); ++i) {
      int expected = 0;
      for (int batch = 0; batch < 2000; ++batch) expected += 1 + static_cast<size_t>(batch) % runs.size() > i;
      EXPECT_EQ(runs[i].load(), expected) << "task " << i << ", " << threads << " threads";
    }
  }
}

TEST(WorkerPool, TheLowestIndexsExceptionComesOut) {
  WorkerPool pool(3);
  std::atomic<int> ran{0};
  auto task = [&](size_t i) {
    ran.fetch_add(1);
    if (i == 5 || i == 17 || i == 40) throw std::runtime_error("task " + std::to_string(i));
  };
  try {
    pool.run(64, task);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 5");
  }
  EXPECT_EQ(ran.load(), 64);  // the others still ran
  // The pool goes on working.
  std::atomic<int> after{0};
  auto count = [&](size_t) { after.fetch_add(1); };
  pool.run(10, count);
  EXPECT_EQ(after.load(), 10);
}

TEST(WorkerPool, LargeAndTinyBatchesRunEachTaskOnce) {
  WorkerPool pool(3);
  std::atomic<int> tiny{0};
  auto one = [&](size_t) { tiny.fetch_add(1); };
  pool.run(1, one);  // two threads get empty shares
  EXPECT_EQ(tiny.load(), 1);
  std::vector<std::atomic<uint8_t>> runs(200000);
  auto task = [&](size_t i) { runs[i].fetch_add(1, std::memory_order_relaxed); };
  pool.run(runs.size(), task);
  for (size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << i;
}

TEST(WorkerPool, TinyBatchesBackToBackRunEachTaskOnceAndInTheirBatch) {
  // Batches smaller than the pool leave shares without a task. A worker
  // that claimed one and then ran late once read the next batch's fields
  // and ran that batch's tasks a second time (seen as crashes of --threads
  // 4 on two cores). Each batch's tasks write their batch's number into
  // their slot: a task run twice, or run after run() returned, is caught.
  for (unsigned threads : {3u, 4u, 8u}) {
    WorkerPool pool(threads);
    std::vector<std::atomic<int>> runs(3);
    std::vector<std::atomic<int>> batch_of(3);
    for (int batch = 1; batch <= 30000; ++batch) {
      const size_t count = 1 + static_cast<size_t>(batch) % 3;
      auto task = [&runs, &batch_of, batch](size_t i) {
        runs[i].fetch_add(1, std::memory_order_relaxed);
        batch_of[i].store(batch, std::memory_order_relaxed);
      };
      pool.run(count, task);
      for (size_t i = 0; i < runs.size(); ++i) {
        ASSERT_EQ(runs[i].exchange(0), i < count ? 1 : 0) << "task " << i << " of batch " << batch << ", "
                                                           << threads << " threads";
        if (i < count) {
          ASSERT_EQ(batch_of[i].load(), batch) << "task " << i << ", " << threads << " threads";
        }
      }
    }
  }
}

}  // namespace
}  // namespace td::sim

// call_forked: each way a child can end comes back as a result (or, for this
// process's own SIGTERM, as sim::Interrupted), with the child's last line.
#include "tb/common/forked_call.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

#include "model/sim/interrupt.h"

namespace td::tb {
namespace {

using Ended = ForkedResult::Ended;

TEST(ForkedCall, ExitStatusAndLastLineComeBack) {
  const ForkedResult result = call_forked(
      []() {
        std::printf("first\nsecond line\n\n");
        std::fflush(stdout);  // (a pipe's stdout is buffered; stderr is not)
        std::fprintf(stderr, "  the last words  \n\n");
        return 3;
      },
      ForkLimits{});
  EXPECT_EQ(result.ended, Ended::kExited);
  EXPECT_EQ(result.code, 3);
  EXPECT_EQ(result.last_line, "  the last words");
  EXPECT_EQ(describe_end(result, ForkLimits{}), "exit status 3");
}

TEST(ForkedCall, AnAbortIsASignalNotTheEndOfThisProcess) {
  const ForkedResult result = call_forked(
      []() {
        std::fprintf(stderr, "assertion failed\n");
        std::abort();
        return 0;
      },
      ForkLimits{});
  EXPECT_EQ(result.ended, Ended::kSignalled);
  EXPECT_EQ(result.code, SIGABRT);
  EXPECT_EQ(result.last_line, "assertion failed");
  EXPECT_EQ(describe_end(result, ForkLimits{}).rfind("signal 6 (", 0), 0u) << describe_end(result, ForkLimits{});
}

TEST(ForkedCall, AChildPastItsTimeIsKilled) {
  ForkLimits limits;
  limits.seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  const ForkedResult result = call_forked(
      []() {
        for (;;) pause();
        return 0;
      },
      limits);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.ended, Ended::kOutOfTime);
  EXPECT_GE(waited, 0.3);
  EXPECT_LT(waited, 10.0);
  EXPECT_EQ(describe_end(result, limits), "no answer within 0.3 s");
}

TEST(ForkedCall, AChildThatClosesItsOutputStillMeetsTheDeadline) {
  ForkLimits limits;
  limits.seconds = 0.3;
  const ForkedResult result = call_forked(
      []() {
        close(STDOUT_FILENO);
        close(STDERR_FILENO);
        for (;;) pause();
        return 0;
      },
      limits);
  EXPECT_EQ(result.ended, Ended::kOutOfTime);
}

TEST(ForkedCall, TheAddressSpaceLimitMakesAllocationsFail) {
  ForkLimits limits;
  limits.extra_address_space = uint64_t{256} << 20;
  const ForkedResult result = call_forked(
      []() {
        std::vector<char> big(uint64_t{1} << 30);  // 1 GiB past a 256 MiB allowance
        return big.empty() ? 0 : 5;
      },
      limits);
  EXPECT_EQ(result.ended, Ended::kExited);
  EXPECT_EQ(result.code, 1);  // the throw's exit status
  EXPECT_EQ(result.last_line, "std::bad_alloc");
  EXPECT_EQ(call_forked([]() { return std::vector<char>(uint64_t{64} << 20).empty() ? 0 : 5; }, limits).code, 5);
}

TEST(ForkedCall, SigtermToThisProcessKillsTheChildAndThrowsInterrupted) {
  sim::install_interrupt_handlers();
  ForkLimits limits;
  limits.seconds = 30;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(call_forked(
                   []() {
                     kill(getppid(), SIGTERM);
                     for (;;) pause();
                     return 0;
                   },
                   limits),
               sim::Interrupted);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(sim::interrupt_signal(), SIGTERM);
  sim::clear_interrupt();
}

}  // namespace
}  // namespace td::tb

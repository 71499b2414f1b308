#include "tb/common/forked_call.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "model/sim/interrupt.h"

namespace td::tb {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kTailBytes = 4096;   // of the child's output, for its last line
constexpr size_t kLineBytes = 200;
constexpr int kPollMs = 100;          // how often a wait looks at the interrupt flag

// The child's address space may grow by `extra` bytes past what fork gave it.
void limit_address_space(uint64_t extra) {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  if (!(statm >> pages)) return;
  const uint64_t limit = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) + extra;
  const struct rlimit rl {limit, limit};
  setrlimit(RLIMIT_AS, &rl);
}

[[noreturn]] void run_child(const std::function<int()>& work, const ForkLimits& limits, int out_fd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  if (out_fd > STDERR_FILENO) close(out_fd);
  if (limits.extra_address_space != 0) limit_address_space(limits.extra_address_space);
  int status = 1;
  try {
    status = work();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
  } catch (...) {
  }
  std::cout.flush();
  std::fflush(nullptr);
  _exit(status);  // no atexit handlers or destructors of the parent's objects
}

void kill_and_reap(pid_t child) {
  kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

void keep_tail(std::string& tail, const char* bytes, size_t count) {
  tail.append(bytes, count);
  if (tail.size() > kTailBytes) tail.erase(0, tail.size() - kTailBytes);
}

std::string last_nonempty_line(const std::string& text) {
  size_t end = text.size();
  while (end > 0) {
    const size_t start = text.find_last_of("\r\n", end - 1);
    const size_t begin = start == std::string::npos ? 0 : start + 1;
    std::string line = text.substr(begin, end - begin);
    line.erase(std::remove_if(line.begin(), line.end(), [](char c) { return c >= 0 && c < ' '; }), line.end());
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) return line.size() > kLineBytes ? line.substr(0, kLineBytes) + "..." : line;
    if (start == std::string::npos) break;
    end = start;
  }
  return {};
}

double seconds_left(Clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

}  // namespace

ForkedResult call_forked(const std::function<int()>& work, const ForkLimits& limits) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe for a child process");
  std::cout.flush();
  std::fflush(nullptr);  // or the child would write this process's buffered output again
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error("cannot start a child process");
  }
  if (child == 0) {
    close(fds[0]);
    run_child(work, limits, fds[1], parent);
  }
  close(fds[1]);

  ForkedResult result;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(limits.seconds));
  int output = fds[0];
  auto give_up_if_told_or_late = [&]() {
    if (sim::interrupted()) {
      kill_and_reap(child);
      if (output >= 0) close(output);
      throw sim::Interrupted();
    }
    if (seconds_left(deadline) > 0) return false;
    kill_and_reap(child);
    result.ended = ForkedResult::Ended::kOutOfTime;
    return true;
  };

  // Read the child's output until it closes it (it exits, as a rule).
  std::string tail;
  for (;;) {
    if (give_up_if_told_or_late()) break;
    pollfd readable{output, POLLIN, 0};
    const int wait_ms = static_cast<int>(std::min(seconds_left(deadline) * 1000 + 1, double{kPollMs}));
    if (poll(&readable, 1, wait_ms) <= 0) continue;  // timeout or a signal: look at the flags again
    char buffer[4096];
    const ssize_t got = read(output, buffer, sizeof buffer);
    if (got > 0) {
      keep_tail(tail, buffer, static_cast<size_t>(got));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      break;
    }
  }
  close(output);
  output = -1;
  result.last_line = last_nonempty_line(tail);
  if (result.ended == ForkedResult::Ended::kOutOfTime) return result;

  // Reap it (a child that closed its output and lives on still meets the deadline).
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) {
      result.ended = WIFSIGNALED(status) ? ForkedResult::Ended::kSignalled : ForkedResult::Ended::kExited;
      result.code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
      return result;
    }
    if (done < 0 && errno != EINTR) throw std::runtime_error("lost a child process");
    if (give_up_if_told_or_late()) return result;
    usleep(1000);
  }
}

std::string describe_end(const ForkedResult& result, const ForkLimits& limits) {
  switch (result.ended) {
    case ForkedResult::Ended::kExited:
      return "exit status " + std::to_string(result.code);
    case ForkedResult::Ended::kSignalled:
      return "signal " + std::to_string(result.code) + " (" + strsignal(result.code) + ")";
    case ForkedResult::Ended::kOutOfTime:
      break;
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", limits.seconds);
  return std::string("no answer within ") + seconds + " s";
}

}  // namespace td::tb

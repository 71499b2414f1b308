// forked_call.h — runs a piece of work in a child process of its own, so that
// a library that aborts, hangs or eats memory on bad input (Assimp on a
// broken mesh: it asserts, and loops on some truncated headers) costs the
// caller one error message rather than the process.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace td::tb {

struct ForkLimits {
  double seconds = 60;                  // wall time before the child is killed
  uint64_t extra_address_space = 0;     // bytes the child may map beyond what it inherits; 0: no limit
};

struct ForkedResult {
  enum class Ended { kExited, kSignalled, kOutOfTime };
  Ended ended = Ended::kExited;
  int code = 0;            // the exit status, or the signal that ended it
  std::string last_line;   // the last non-empty line the child wrote to stdout or stderr (at most 200 bytes)
};

// Forks; the child runs `work` with stdout and stderr into a pipe, SIGINT and
// SIGTERM at their defaults, dies with this process, and exits with what
// `work` returns (1 if it throws). A child still running after
// `limits.seconds` is killed. Throws sim::Interrupted, after killing the
// child, when this process is told to stop (sim::interrupted()) meanwhile;
// std::runtime_error when no child starts.
ForkedResult call_forked(const std::function<int()>& work, const ForkLimits& limits);

// "signal 6 (SIGABRT)", "exit status 3", "no answer within 60 s": how it ended, in words.
std::string describe_end(const ForkedResult& result, const ForkLimits& limits);

}  // namespace td::tb

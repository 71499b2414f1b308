// self_process.h — runs this executable again as a child process with
// other arguments (SystemC elaborates once per process, so a command that
// needs several chips runs each in a process of its own): its exit status,
// its wall time and peak memory, its output kept in a file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace td::tb {

struct SelfRun {
  int exit_code = -1;  // 128 + N when killed by signal N
  double wall_s = 0;
  long rss_kib = 0;    // peak resident memory
  std::string output;  // stdout and stderr together
};

// Runs `/proc/self/exe arguments...`, stdout and stderr into `log` (then read
// back into `output`). Throws std::runtime_error if no process starts;
// throws sim::Interrupted if this process was told to stop meanwhile.
SelfRun run_self(const std::vector<std::string>& arguments, const std::string& log);

// A temporary folder (`prefix`-XXXXXX under the system's temporary
// directory) for the children's files, removed with everything in it when
// this goes.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& prefix);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace td::tb

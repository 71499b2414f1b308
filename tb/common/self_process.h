// self_process.h — runs this executable again as a child process with
// other arguments (SystemC elaborates once per process, so a command that
// needs several chips runs each in a process of its own): its exit status,
// its wall time and peak memory, its output kept in a file.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
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

// Several children at once (`tdsim sweep -j N`): start_self starts one and
// returns its pid; wait_any_child waits for any child of this process to end.
pid_t start_self(const std::vector<std::string>& arguments, const std::string& log);
struct ChildExit {
  pid_t pid = -1;
  int exit_code = -1;  // 128 + N when killed by signal N
};
// std::nullopt when a signal arrived first (see sim::interrupted()) or no child is left.
std::optional<ChildExit> wait_any_child();

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

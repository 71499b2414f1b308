#include "tb/common/self_process.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/sim/interrupt.h"

namespace td::tb {

pid_t start_self(const std::vector<std::string>& arguments, const std::string& log) {
  std::vector<std::string> owned = arguments;
  std::vector<char*> argv;
  static char self[] = "/proc/self/exe";
  argv.push_back(self);
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("cannot start a process");
  if (child == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  return child;
}

namespace {

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

std::string read_log(const std::string& log) {
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::optional<ChildExit> wait_any_child() {
  int status = 0;
  const pid_t pid = waitpid(-1, &status, 0);
  if (pid < 0) return std::nullopt;  // EINTR (a signal) or ECHILD (none left)
  return ChildExit{pid, exit_code_of(status)};
}

SelfRun run_self(const std::vector<std::string>& arguments, const std::string& log) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = start_self(arguments, log);
  int status = 0;
  struct rusage usage {};
  while (wait4(child, &status, 0, &usage) < 0) {
  }
  SelfRun run;
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.rss_kib = usage.ru_maxrss;
  run.exit_code = exit_code_of(status);
  run.output = read_log(log);
  sim::throw_if_interrupted();
  return run;
}

ScratchFolder::ScratchFolder(const std::string& prefix) {
  std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(name.data())) throw std::runtime_error("cannot make a temporary folder under " + name);
  path_ = name;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace td::tb

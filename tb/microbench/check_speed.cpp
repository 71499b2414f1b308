#include "tb/microbench/check_speed.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "model/sim/interrupt.h"
#include "model/sim/output_file.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace td::tb {
namespace {

namespace fs = std::filesystem;

// A temporary folder, removed with everything in it when this goes.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string name = (fs::temp_directory_path() / "tdsim-bench-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("tdsim bench: cannot make a temporary folder");
    path_ = name;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct ChildRun {
  double wall_s = 0;
  long rss_kib = 0;
};

// Runs this executable with `arguments`, its output into `log`.
ChildRun run_self(const std::vector<std::string>& arguments, const fs::path& log) {
  std::vector<char*> argv;
  static char self[] = "/proc/self/exe";
  argv.push_back(self);
  std::vector<std::string> owned = arguments;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("tdsim bench: cannot start a process");
  if (child == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(child, &status, 0, &usage) < 0) {
  }
  ChildRun run;
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.rss_kib = usage.ru_maxrss;
  sim::throw_if_interrupted();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    throw std::runtime_error(fmt::format("tdsim bench: 'tdsim {}' failed (status {}):\n{}", fmt::join(arguments, " "),
                                         status, text.str()));
  }
  return run;
}

}  // namespace

CheckSpeed measure_check_speed(const cfg::Config& config, uint64_t cases, unsigned threads) {
  const ScratchFolder scratch;
  const fs::path vectors = scratch.path() / "random.tdv", chip = scratch.path() / "chip.yaml";
  {
    std::ofstream out(vectors);
    out << format_tdv_header({fmt::format("tdsim bench: {} random cases, seed 1", cases)});
    RandomVectorStream stream(1, cases);
    for (TdvCase c; stream.next(c);) out << format_case(c) << '\n';
    std::ofstream(chip) << cfg::to_yaml(config);
  }
  CheckSpeed speed;
  speed.cases = cases;
  const fs::path log = scratch.path() / "check.log";
  const ChildRun model = run_self({"check", vectors.string(), "--engine", "model", "--config", chip.string(),
                                   "--threads", std::to_string(threads)},
                                  log);
  const ChildRun reference = run_self({"check", vectors.string(), "--engine", "ref"}, log);
  speed.model_wall_s = model.wall_s;
  speed.model_rss_kib = model.rss_kib;
  speed.reference_wall_s = reference.wall_s;
  speed.reference_rss_kib = reference.rss_kib;
  return speed;
}

}  // namespace td::tb

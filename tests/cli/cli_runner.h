// cli_runner.h — runs the real tdsim binary for the end-to-end tests: its
// exit code, its output, its peak memory, and (for interrupt tests) a signal
// sent while it runs. Each test gets a fresh temporary folder.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace tdsim_cli {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;     // 128+N if the process died of signal N
  std::string output;     // stdout and stderr together
  long max_rss_kib = 0;   // peak resident memory of the process
};

struct RunOptions {
  std::string cwd;              // empty: the test's own
  int signal = 0;               // sent once after delay (0: none)
  std::chrono::milliseconds delay{0};
  // Sent when this file appears (instead of after `delay` alone), so the
  // signal lands while the run is under way.
  std::string signal_when_exists;
};

// Runs `sh -c "<TDSIM_BINARY> arguments"`.
inline RunResult run_command(const std::string& command, const RunOptions& options = {}) {
  RunResult result;
  char output_template[] = "/tmp/tdsim-cli-out-XXXXXX";
  const int output_fd = mkstemp(output_template);
  if (output_fd < 0) return result;
  const pid_t child = fork();
  if (child == 0) {
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(126);
    dup2(output_fd, 1);
    dup2(output_fd, 2);
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (options.signal != 0) {
    const auto start = std::chrono::steady_clock::now();
    while (!options.signal_when_exists.empty() && !fs::exists(options.signal_when_exists) &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(options.delay);
    kill(child, options.signal);
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(child, &status, 0, &usage) < 0) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.max_rss_kib = usage.ru_maxrss;
  std::ifstream in(output_template, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  close(output_fd);
  std::remove(output_template);
  return result;
}

inline RunResult run_tdsim(const std::string& arguments, const RunOptions& options = {}) {
  return run_command(std::string(TDSIM_BINARY) + " " + arguments, options);
}

inline std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  const size_t newline = trimmed.rfind('\n');
  return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tdsim_cli_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // Files in dir_ whose name contains ".tmp." (left-over temporary outputs).
  std::vector<std::string> temp_files() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(dir_))
      if (entry.path().filename().string().find(".tmp.") != std::string::npos) found.push_back(entry.path().string());
    return found;
  }

  fs::path dir_;
};

inline const std::string kConformance = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/conformance-v1.tdv";
inline const std::string kSmallConfig = std::string(TDSIM_SOURCE_DIR) + "/configs/small.yaml";
inline const std::string kSeriesX = std::string(TDSIM_SOURCE_DIR) + "/configs/xbox_series_x.yaml";
// The contract's worked example: an FP32 box node and a ray through it.
inline const std::string kGoodCase =
    "name=box32.example desc=00000000,80000000,0000003f,89000000 op=bvh ptr=5 "
    "ray=7f800000,00000000,00000000,00000000,3f800000,00000000,00000000,3f800000,7f800000,7f800000 "
    "mem=1000000020000000300000004000000000000040000080bf000080bf000040400000803f0000803f0000a040000080bf000080bf0000"
    "c0400000803f0000803f000040c0000080bf000080bf000000c00000803f0000803f000080bf000080bf000080bf0000803f0000803f"
    "0000803f00000000000000000000000000000000 ";
inline const std::string kGoodExpect = "expect=00000040,00000010,00000020,ffffffff\n";

}  // namespace tdsim_cli

// The chip on several threads (--threads N): the TDs' pipelines tick in
// parallel within a clock, their misses join the event queue in TD order,
// the wave client is called TD by TD — so every statistic, result, report
// line and trace is the same bits for N = 1, 2 and 4: on the
// microbenchmarks (peak, latency, bandwidth), the vector files and a traced
// scene. The rtl datapaths, and engines without a chip, refuse N > 1.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using Threads = CliTest;

// `output` without its lines that measure wall time or name an output file
// (which differs per thread count).
std::string without_times_and_files(const std::string& output, const fs::path& dir) {
  std::string kept;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, end - start);
    if (line.find(" wall") == std::string::npos && line.find(" time ") == std::string::npos &&
        line.find(dir.string()) == std::string::npos)
      kept += line + "\n";
    start = end + 1;
  }
  return kept;
}

// Runs `arguments` ({n} replaced by the thread count) for N = 1, 2, 4 and
// expects the same output (wall times aside) and the same files `outputs`
// ({n} in each replaced too).
void expect_same_bits(const fs::path& dir, const std::string& arguments, const std::vector<std::string>& outputs) {
  const auto with_n = [&](std::string text, unsigned n) {
    for (size_t at; (at = text.find("{n}")) != std::string::npos;) text.replace(at, 3, std::to_string(n));
    return text;
  };
  std::string first_output;
  for (const unsigned n : {1u, 2u, 4u}) {
    const RunResult result = run_tdsim(with_n(arguments, n));
    ASSERT_EQ(result.exit_code, 0) << with_n(arguments, n) << "\n" << result.output;
    const std::string output = without_times_and_files(result.output, dir);
    if (n == 1) {
      first_output = output;
      continue;
    }
    EXPECT_EQ(output, first_output) << n << " threads";
    for (const std::string& file : outputs) {
      const std::string one = read_file(dir / with_n(file, 1));
      ASSERT_FALSE(one.empty()) << file;
      EXPECT_TRUE(read_file(dir / with_n(file, n)) == one) << file << ": " << n << " threads differ from 1";
    }
  }
}

TEST_F(Threads, MicrobenchmarksAreTheSameBitsOnAnyThreadCount) {
  // Series X: 52 TDs, so every clock hands out many pipelines. Peak,
  // latency and the four bandwidth points (memory-bound: few TDs due a clock).
  expect_same_bits(dir_,
                   "peak --config " + kSeriesX + " --waves 8 --bandwidth-waves 2 --threads {n} --stats " +
                       (dir_ / "peak{n}.json").string() + " --json " + (dir_ / "report{n}.json").string(),
                   {"peak{n}.json"});
  EXPECT_NE(read_file(dir_ / "peak1.json").find("chip.sa0.l1.mshr_full"), std::string::npos);
}

TEST_F(Threads, VectorFilesAreTheSameBitsOnAnyThreadCount) {
  const std::string vectors = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/";
  expect_same_bits(dir_,
                   "check " + vectors + "conformance-v1.tdv " + vectors + "edge-v1.tdv --engine model --threads {n}"
                   " --stats " + (dir_ / "check{n}.json").string(),
                   {"check{n}.json"});
}

TEST_F(Threads, ATracedSceneIsTheSameBitsOnAnyThreadCount) {
  // The traced window ticks on one thread, the clocks around it on N.
  expect_same_bits(dir_,
                   "run --config " + kSeriesX + " --width 64 --height 40 --engine model --threads {n} --hits-out " +
                       (dir_ / "hits{n}.csv").string() + " --stats " + (dir_ / "run{n}.json").string() +
                       " --trace-start 300 --trace-cycles 200 --trace " + (dir_ / "run{n}.vcd").string(),
                   {"hits{n}.csv", "run{n}.json", "run{n}.vcd"});
}

TEST_F(Threads, EnginesThatCannotUseThreadsRefuseThem) {
  const RunResult ref = run_tdsim("check " + kConformance + " --engine ref --threads 2");
  EXPECT_EQ(ref.exit_code, 2);
  EXPECT_NE(ref.output.find("--threads has no effect with --engine ref"), std::string::npos) << ref.output;
  // (A build without the RTL refuses the rtl engine itself.)
  const RunResult rtl = run_tdsim("check " + kConformance + " --engine rtl --threads 2");
  EXPECT_EQ(rtl.exit_code, 2);
  EXPECT_NE(rtl.output.find("rtl"), std::string::npos) << rtl.output;
  const RunResult range = run_tdsim("peak --threads 0");
  EXPECT_EQ(range.exit_code, 2);
  EXPECT_NE(range.output.find("--threads"), std::string::npos) << range.output;
}

}  // namespace

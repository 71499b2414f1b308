// tdsim sweep end to end: a grid of peak and of run points, merged results,
// resume after SIGINT without redoing finished points, failed points
// recorded beside clean ones, --list / --point / --merge, and bad input
// refused before any point runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli_runner.h"

namespace tdsim_cli {
namespace {

size_t line_count(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

const char* const kPeakGrid =
    "sweep --config small --set l1.mshrs=8,16 --set td.return_buffer_entries=4,8,16 -j 2 "
    "--out {} -- peak --waves 4 --bandwidth-waves 1 --no-latency";

std::string peak_grid(const fs::path& out) {
  std::string command = kPeakGrid;
  command.replace(command.find("{}"), 2, out.string());
  return command;
}

class Sweep : public CliTest {};

TEST_F(Sweep, GridOfPeakWritesEveryPointAndTheMergedResults) {
  const fs::path out = dir_ / "grid";
  const RunResult run = run_tdsim(peak_grid(out));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string csv = read_file(out / "results.csv");
  EXPECT_EQ(line_count(csv), 7u) << csv;
  EXPECT_EQ(csv.rfind("point,l1.mshrs,td.return_buffer_entries,status,exit_code,bandwidth_dram_box_tests_per_s,", 0),
            0u)
      << csv;
  EXPECT_NE(csv.find("\n5,16,16,ok,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("limited_by"), std::string::npos);
  EXPECT_NE(csv.find("hit_rate:L1"), std::string::npos);
  for (const char* point : {"0000", "0005"})
    for (const char* file : {"point.json", "report.json", "stats.csv", "config.yaml", "output.txt"})
      EXPECT_TRUE(fs::exists(out / "points" / point / file)) << point << "/" << file;
  // The effective configuration has the point's values.
  EXPECT_NE(read_file(out / "points" / "0005" / "config.yaml").find("return_buffer_entries: 16"), std::string::npos);
  const std::string json = read_file(out / "results.json");
  EXPECT_NE(json.find("\"swept\": [\n    \"l1.mshrs\",\n    \"td.return_buffer_entries\"\n  ]"), std::string::npos)
      << json;
  EXPECT_NE(run.output.find("6 of 6 points ran cleanly"), std::string::npos) << run.output;

  // Run again: nothing to do, the same results.
  const RunResult again = run_tdsim(peak_grid(out));
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("6 already done, skipped"), std::string::npos) << again.output;
  EXPECT_EQ(read_file(out / "results.csv"), csv);
}

TEST_F(Sweep, GridOfRunTabulatesRaysPerSecond) {
  const fs::path out = dir_ / "run";
  const RunResult run = run_tdsim("sweep --config small --set shader.waves_per_simd=2,8 --set "
                                  "shader.stack_entries=4,8,16 --out " + out.string() +
                                  " -- run --width 24 --height 14 --scoreboard sample:4");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string csv = read_file(out / "results.csv");
  EXPECT_EQ(line_count(csv), 7u) << csv;
  EXPECT_EQ(csv.rfind("point,shader.waves_per_simd,shader.stack_entries,status,exit_code,rays_per_s,", 0), 0u) << csv;
  EXPECT_NE(run.output.find("rays_per_s (rays/s)"), std::string::npos) << run.output;
}

TEST_F(Sweep, InterruptedSweepResumesWithoutRedoingFinishedPoints) {
  const fs::path out = dir_ / "resume";
  const std::string command = "sweep --config small --set td.return_buffer_entries=4,8,16 --set l1.mshrs=8,16 -j 1 "
                              "--out " + out.string() + " -- peak --waves 2000 --no-bandwidth --no-latency";
  RunOptions options;
  options.signal = SIGINT;
  options.signal_when_exists = (out / "points" / "0000" / "point.json").string();
  const RunResult interrupted = run_tdsim(command, options);
  ASSERT_EQ(interrupted.exit_code, 130) << interrupted.output;
  EXPECT_NE(interrupted.output.find("the same command resumes"), std::string::npos) << interrupted.output;
  // The running point's temporary folder is gone; the finished ones stay.
  for (const auto& entry : fs::directory_iterator(out / "points"))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  const std::string first = read_file(out / "points" / "0000" / "point.json");
  ASSERT_FALSE(first.empty());
  EXPECT_NE(read_file(out / "results.csv").find(",not run,"), std::string::npos);

  const RunResult resumed = run_tdsim(command);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("already done, skipped"), std::string::npos) << resumed.output;
  EXPECT_EQ(read_file(out / "points" / "0000" / "point.json"), first);  // not run again (its wall time would differ)
  EXPECT_EQ(line_count(read_file(out / "results.csv")), 7u);
  EXPECT_EQ(read_file(out / "results.csv").find("not run"), std::string::npos);
}

TEST_F(Sweep, ListPointAndMergeGiveTheLocalResults) {
  const RunResult local = run_tdsim(peak_grid(dir_ / "local"));
  ASSERT_EQ(local.exit_code, 0) << local.output;
  std::string sharded = peak_grid(dir_ / "sharded");
  sharded.replace(sharded.find(" -j 2"), 5, "");
  const std::string head = sharded.substr(0, sharded.find(" -- "));
  const std::string tail = sharded.substr(sharded.find(" -- "));
  const RunResult list = run_tdsim(head + " --list" + tail);
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_EQ(list.output.rfind("0\tl1.mshrs=8 td.return_buffer_entries=4\n1\tl1.mshrs=8 td.return_buffer_entries=8\n", 0),
            0u)
      << list.output;
  EXPECT_EQ(line_count(list.output), 6u);
  // The points in another order, as a cluster might run them.
  for (int k : {5, 2, 0, 4, 1, 3}) {
    const RunResult point = run_tdsim(head + " --point " + std::to_string(k) + tail);
    ASSERT_EQ(point.exit_code, 0) << point.output;
  }
  const RunResult merged = run_tdsim(head + " --merge" + tail);
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_EQ(read_file(dir_ / "sharded" / "results.csv"), read_file(dir_ / "local" / "results.csv"));
  // A merge before every point has run says so.
  fs::remove_all(dir_ / "sharded" / "points" / "0003");
  const RunResult partial = run_tdsim(head + " --merge" + tail);
  EXPECT_EQ(partial.exit_code, 1) << partial.output;
  EXPECT_NE(partial.output.find("5 of 6 points ran cleanly"), std::string::npos) << partial.output;
}

TEST_F(Sweep, FailedPointIsRecordedAndTheOthersRun) {
#ifndef TDSIM_HAVE_RTL
  GTEST_SKIP() << "needs the rtl datapaths (TDSIM_RTL)";
#endif
  // The rtl datapaths refuse two threads: that point fails, the other runs.
  const fs::path out = dir_ / "failing";
  const RunResult run = run_tdsim("sweep --config xbox_series_s --set td.datapath=cpp,rtl --out " + out.string() +
                                  " -- run --width 8 --height 8 -j 2");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const std::string csv = read_file(out / "results.csv");
  EXPECT_NE(csv.find("\n0,cpp,ok,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n1,rtl,failed,2,"), std::string::npos) << csv;
  EXPECT_NE(read_file(out / "results.json").find("run on one thread"), std::string::npos);
  EXPECT_NE(run.output.find("failed (exit 2)"), std::string::npos) << run.output;
}

TEST_F(Sweep, BadInputIsRefusedBeforeAnyPointRuns) {
  const std::string out = (dir_ / "bad").string();
  const struct {
    std::string arguments, expected;
  } cases[] = {
      {"sweep --config small --set l1.nonsense=1,2 --out " + out + " -- peak", "--set l1.nonsense=1"},
      {"sweep --config small --set l1.mshrs=8,0 --out " + out + " -- peak", "--set l1.mshrs=0"},
      {"sweep --config small --set l1.mshrs=8,,16 --out " + out + " -- peak", "an empty value"},
      {"sweep --config small --zip --set l1.mshrs=8,16 --set l2.mshrs=8,16,32 --out " + out + " -- peak", "--zip"},
      {"sweep --config small --set l1.mshrs=8,16 --out " + out, "no command"},
      {"sweep --config small --set l1.mshrs=8,16 --out " + out + " -- check x.tdv", "cannot sweep 'check'"},
      {"sweep --config small --set l1.mshrs=8,16 --out " + out + " -- peak --stats s.csv", "--stats after '--'"},
      {"sweep --config small --set l1.mshrs=8,16 --out " + out + " -- peak --config small", "give --config and --set"},
      {"sweep --config small --set l1.mshrs=8,16 --out " + out + " -- peak --waves 0", "--waves"},
      {"sweep --config small --set l1.mshrs=8,16 --point 2 --out " + out + " -- peak", "--point 2"},
      {"sweep --config small --set l1.mshrs=8,16 --list --merge --out " + out + " -- peak", "one of --list"},
      {"sweep --config small --set l1.mshrs=8,16 -j 0 --out " + out + " -- peak", "-j"},
      {"sweep --config small --set l1.mshrs=8,16 -j 1025 --out " + out + " -- peak", "-j"},
      {"sweep --config small --set l1.mshrs=8,16 --point 100000 --out " + out + " -- peak", "--point"},
  };
  for (const auto& c : cases) {
    const RunResult run = run_tdsim(c.arguments);
    EXPECT_EQ(run.exit_code, 2) << c.arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(c.expected), std::string::npos) << c.arguments << "\n" << run.output;
    // One line (CLI11's own range errors add a "Run with --help" line).
    EXPECT_EQ(line_count(run.output), run.output.find("Run with --help") == std::string::npos ? 1u : 2u)
        << c.arguments << "\n" << run.output;
    EXPECT_FALSE(fs::exists(fs::path(out) / "points" / "0000")) << c.arguments;
  }
  // A folder holding another sweep is refused, not mixed. (-j at the top of its range.)
  ASSERT_EQ(run_tdsim("sweep --config small --set l1.mshrs=8 -j 1024 --out " + out +
                      " -- peak --waves 2 --no-bandwidth")
                .exit_code,
            0);
  const RunResult other = run_tdsim("sweep --config small --set l1.mshrs=16 --out " + out + " -- peak --waves 2");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("holds another sweep"), std::string::npos) << other.output;
}

}  // namespace
}  // namespace tdsim_cli

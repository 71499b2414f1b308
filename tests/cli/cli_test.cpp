// End-to-end tests of the tdsim binary: exit codes 0 (pass), 1 (mismatch),
// 2 (bad input), and the output lines users and scripts rely on.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using Cli = CliTest;

TEST_F(Cli, ConformanceVectorsPassWithExitZero) {
  const RunResult result = run_tdsim("check " + kConformance + " --engine ref");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "1000 passed, 0 failed");
}

TEST_F(Cli, CheckCoverageWritesEveryBinAndNamesTheBinsNeverHit) {
  const fs::path out = dir_ / "coverage.json";
  const RunResult result = run_tdsim("check " + kConformance + " --coverage " + out.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "1000 passed, 0 failed");
  // The random conformance file alone misses bins the edge file reaches.
  EXPECT_NE(result.output.find("coverage: never hit: "), std::string::npos) << result.output;
  std::ifstream in(out);
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_NE(json.str().find("\"cases\": 1000"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"bin\": \"grow.infinity_kept\""), std::string::npos) << json.str();

  const std::string edge = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/edge-v1.tdv";
  const RunResult both = run_tdsim("check " + kConformance + " " + edge + " --coverage " + out.string());
  EXPECT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find("coverage: 69 of 69 bins hit\n"), std::string::npos) << both.output;
  EXPECT_EQ(both.output.find("never hit"), std::string::npos) << both.output;

  const RunResult bad = run_tdsim("check " + kConformance + " --coverage " + (dir_ / "c.txt").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--coverage"), std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find("passed"), std::string::npos) << "must not run: " << bad.output;
}

TEST_F(Cli, SpecExampleCasePasses) {
  const fs::path file = write("ok.tdv", "tdv 1\n" + kGoodCase + "expect=00000040,00000010,00000020,ffffffff\n");
  const RunResult result = run_tdsim("check " + file.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "1 passed, 0 failed");
}

TEST_F(Cli, MismatchPrintsFileLineNameAndExitsOne) {
  const fs::path file = write("bad.tdv", "tdv 1\n# wrong on purpose\n" + kGoodCase +
                                             "expect=00000010,00000040,00000020,ffffffff\n");
  const RunResult result = run_tdsim("check " + file.string() + " --engine ref");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find(file.string() +
                               ":3: box32.example: expected 00000010,00000040,00000020,ffffffff got "
                               "00000040,00000010,00000020,ffffffff"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(last_line(result.output), "0 passed, 1 failed");
}

TEST_F(Cli, MalformedFileExitsTwoNamingLineAndRunsNothing) {
  const fs::path good = write("good.tdv", "tdv 1\n" + kGoodCase + "expect=00000040,00000010,00000020,ffffffff\n");
  const fs::path bad = write("bad.tdv", "tdv 1\n\n" + kGoodCase + "expect=00000040 extra=1\n");
  const RunResult result = run_tdsim("check " + good.string() + " " + bad.string());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(bad.string() + ":3: "), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("passed"), std::string::npos) << "nothing may run: " << result.output;
}

TEST_F(Cli, MissingFileExitsTwo) {
  const RunResult result = run_tdsim("check " + (dir_ / "absent.tdv").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("absent.tdv: cannot open (No such file or directory)"), std::string::npos)
      << result.output;
}

TEST_F(Cli, UnknownEngineAndFlagExitTwo) {
  EXPECT_EQ(run_tdsim("check " + kConformance + " --engine warp").exit_code, 2);
  EXPECT_EQ(run_tdsim("check " + kConformance + " --frobnicate").exit_code, 2);
  EXPECT_EQ(run_tdsim("no-such-command").exit_code, 2);
  EXPECT_EQ(run_tdsim("").exit_code, 2);
}

TEST_F(Cli, HelpExitsZero) {
  const RunResult result = run_tdsim("check --help");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("--engine"), std::string::npos);
}

TEST_F(Cli, GeneratedRandomVectorsAreDeterministicAndPass) {
  const fs::path a = dir_ / "a.tdv", b = dir_ / "b.tdv", c = dir_ / "c.tdv";
  ASSERT_EQ(run_tdsim("gen-vectors --kind random --seed 7 --count 300 -o " + a.string()).exit_code, 0);
  ASSERT_EQ(run_tdsim("gen-vectors --kind random --seed 7 --count 300 -o " + b.string()).exit_code, 0);
  ASSERT_EQ(run_tdsim("gen-vectors --kind random --seed 8 --count 300 -o " + c.string()).exit_code, 0);
  EXPECT_EQ(read_file(a), read_file(b));
  EXPECT_NE(read_file(a), read_file(c));
  const RunResult result = run_tdsim("check " + a.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "300 passed, 0 failed");
}

TEST_F(Cli, GeneratedEdgeVectorsPass) {
  const fs::path edge = dir_ / "edge.tdv";
  ASSERT_EQ(run_tdsim("gen-vectors --kind edge -o " + edge.string()).exit_code, 0);
  const RunResult result = run_tdsim("check " + edge.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(last_line(result.output).find(" passed, 0 failed"), std::string::npos);
}

TEST_F(Cli, UnwritableOutputExitsTwoAndLeavesNothing) {
  write("a_file", "not a folder");
  const fs::path out = dir_ / "a_file" / "x.tdv";  // its "parent" is a file: it cannot be made
  const RunResult result = run_tdsim("gen-vectors --kind edge -o " + out.string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--output " + out.string() + ": cannot create directory"), std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(temp_files().empty());
}

TEST_F(Cli, BadCountExitsTwo) {
  EXPECT_EQ(run_tdsim("gen-vectors --kind random --count 0 -o " + (dir_ / "x.tdv").string()).exit_code, 2);
  EXPECT_EQ(run_tdsim("gen-vectors --kind random --seed abc -o " + (dir_ / "x.tdv").string()).exit_code, 2);
}

TEST_F(Cli, ModelEnginePassesTheConformanceVectors) {
  const RunResult result = run_tdsim("check " + kConformance + " --engine model --config " + kSmallConfig);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "1000 passed, 0 failed");
}

TEST_F(Cli, PeakWritesReportJsonAndStats) {
  const fs::path json = dir_ / "peak.json", stats_json = dir_ / "stats.json", stats_csv = dir_ / "stats.csv";
  const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --waves 4 --bandwidth-waves 2 --json " +
                                     json.string() + " --stats " + stats_json.string() + " --stats " +
                                     stats_csv.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("box_fp16"), std::string::npos);
  EXPECT_NE(result.output.find("0 mismatches"), std::string::npos);
  const std::string report = read_file(json);
  for (const char* key : {"\"box_tests_per_s\"", "\"tri_tests_per_s\"", "\"box_peak_per_s\"", "\"tri_peak_per_s\"",
                          "\"cycles\"", "\"wall_s\"", "\"latency_cycles\"", "\"bandwidth\""})
    EXPECT_NE(report.find(key), std::string::npos) << key;
  const std::string stats = read_file(stats_json);
  EXPECT_NE(stats.find("\"chip.wgp0.td0.box_tests\""), std::string::npos);
  EXPECT_NE(stats.find("\"chip.sa0.l1.hits\""), std::string::npos);
  EXPECT_NE(stats.find("\"chip.box_tests_per_s\""), std::string::npos);
  const std::string csv = read_file(stats_csv);
  EXPECT_EQ(csv.rfind("name,unit,value,description", 0), 0u);
  EXPECT_NE(csv.find("chip.wgp1.td1.tri_tests,tests,"), std::string::npos);
}

TEST_F(Cli, PeakScoreboardChecksAllASampleOrNothingAndChangesNoFigure) {
  const std::string peak = "peak --config " + kSmallConfig + " --waves 8 --no-bandwidth --no-latency --stats ";
  std::string stats[3];
  uint64_t checked[3] = {};
  const char* modes[] = {"all", "sample:4", "off"};
  for (int i = 0; i < 3; ++i) {
    const fs::path file = dir_ / (std::to_string(i) + ".json");
    const RunResult result = run_tdsim(peak + file.string() + " --scoreboard " + modes[i]);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string prefix = std::string("scoreboard (") + modes[i] + "): ";
    const size_t at = result.output.find(prefix);
    ASSERT_NE(at, std::string::npos) << result.output;
    checked[i] = std::stoull(result.output.substr(at + prefix.size()));
    stats[i] = read_file(file);
  }
  EXPECT_GT(checked[0], 0u);
  EXPECT_GT(checked[1], 0u);
  EXPECT_LT(checked[1], checked[0] / 2);
  EXPECT_EQ(checked[2], 0u);
  EXPECT_EQ(stats[1], stats[0]);  // the scoreboard watches; it never changes the timing
  EXPECT_EQ(stats[2], stats[0]);
  const RunResult bad = run_tdsim("peak --scoreboard sample:0");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(last_line(bad.output), "error: --scoreboard: expected all, off or sample:N with N >= 1, got 'sample:0'");
}

TEST_F(Cli, SetGivesAKeyAnotherValueOnEveryCommandAndShippedConfigsGoByName) {
  // By name (configs/small.yaml), with an override echoed in the report.
  const fs::path json = dir_ / "peak.json";
  const RunResult peak = run_tdsim("peak --config small --set td.box_latency_cycles=5 --set l1.mshrs=3 --waves 2 "
                                   "--no-bandwidth --no-latency --json " + json.string());
  ASSERT_EQ(peak.exit_code, 0) << peak.output;
  const std::string report = read_file(json);
  EXPECT_NE(report.find("box_latency_cycles: 5\\n"), std::string::npos) << report;
  EXPECT_NE(report.find("mshrs: 3\\n"), std::string::npos) << report;
  EXPECT_NE(peak.output.find("small test chip"), std::string::npos);
  // A different latency is a different run: the latency phase shows it.
  const RunResult slow = run_tdsim("peak --config small --set td.box_latency_cycles=50 --waves 1 --no-bandwidth");
  const RunResult fast = run_tdsim("peak --config small --waves 1 --no-bandwidth");
  ASSERT_EQ(slow.exit_code, 0);
  EXPECT_NE(slow.output.substr(slow.output.find("latency")), fast.output.substr(fast.output.find("latency")));
  // check, run and bench take it too; the same schema refuses bad values.
  EXPECT_EQ(run_tdsim("check " + kConformance + " --engine model --config small --set l0.mshrs=2").exit_code, 0);
  EXPECT_EQ(run_tdsim("run --config small --set shader.stack_entries=2 --width 8 --height 4").exit_code, 0);
  const struct {
    std::string arguments, error;
  } refused[] = {
      {"peak --set td.box_latency_cycles=abc",
       "error: --set td.box_latency_cycles=abc: td.box_latency_cycles: expected an unsigned integer (got 'abc')"},
      {"bench --set l1.ways=0", "error: --set l1.ways=0: l1.ways: must be >= 1 (got 0)"},
      {"run --set shader.stack=3", "error: --set shader.stack=3: shader has no key 'stack' (keys: "},
      {"check " + kConformance + " --engine model --set l1", "error: --set l1: expected KEY=VALUE"},
      {"check " + kConformance + " --engine ref --set l1.ways=2",
       "error: --set has no effect with --engine ref (no chip, no timing); use --engine model"},
      {"peak --config nosuch", "error: nosuch: no such file, and no shipped configuration of that name (shipped: "
                               "small, xbox_series_s, xbox_series_x)"},
  };
  for (const auto& r : refused) {
    const RunResult result = run_tdsim(r.arguments);
    EXPECT_EQ(result.exit_code, 2) << r.arguments << "\n" << result.output;
    EXPECT_EQ(last_line(result.output).rfind(r.error, 0), 0u) << r.arguments << "\n" << result.output;
  }
}

// `tdsim keys` lists every key of a configuration file, in its order, with
// its range; docs/configuration.md is exactly its --markdown page.
TEST_F(Cli, KeysListsEveryKeyAndTheDocsPageIsItsMarkdown) {
  const RunResult plain = run_tdsim("keys");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  std::istringstream shipped(read_file(kSeriesX)), listed(plain.output);
  std::string line, row;
  std::getline(listed, row);
  EXPECT_EQ(row.rfind("key ", 0), 0u) << row;
  std::vector<std::string> section{""};
  size_t keys = 0;
  while (std::getline(shipped, line)) {
    const size_t indent = line.find_first_not_of(' '), colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
    section.resize(indent / 2 + 1);
    const std::string key = line.substr(indent, colon - indent);
    const std::string rest = line.substr(colon + 1);
    if (rest.find_first_not_of(' ') == std::string::npos || rest.find_first_not_of(' ') == rest.find('#')) {
      section.push_back(key + ".");  // a section (its comment, if any, is not a value)
      continue;
    }
    std::string path;
    for (const std::string& s : section) path += s;
    ASSERT_TRUE(std::getline(listed, row)) << "no row for " << path + key;
    EXPECT_EQ(row.rfind(path + key + " ", 0), 0u) << row;
    ++keys;
  }
  EXPECT_GE(keys, 50u);  // the file was read
  EXPECT_FALSE(std::getline(listed, row)) << "a row for a key the file does not have: " << row;
  const RunResult markdown = run_tdsim("keys --markdown");
  ASSERT_EQ(markdown.exit_code, 0);
  EXPECT_EQ(markdown.output, read_file(std::string(TDSIM_SOURCE_DIR) + "/docs/configuration.md"))
      << "docs/configuration.md is not the key table's: build/tdsim keys --markdown > docs/configuration.md";
}

TEST_F(Cli, RegressComparesEveryStatisticAndShowsWhatALatencyChangeMoves) {
  // A copy of the shipped workloads and their statistics.
  const fs::path golden = dir_ / "golden";
  fs::create_directory(golden);
  for (const auto& entry : fs::directory_iterator(std::string(TDSIM_SOURCE_DIR) + "/tests/regress"))
    fs::copy_file(entry.path(), golden / entry.path().filename());
  const std::string regress = "regress --dir " + golden.string();
  const RunResult same = run_tdsim(regress);
  ASSERT_EQ(same.exit_code, 0) << same.output;
  EXPECT_EQ(last_line(same.output), "regress: all 4 workloads as expected");

  // One cycle more box latency: exit 1, each changed statistic with its
  // old and new value and the relative change.
  const RunResult slower = run_tdsim(regress + " --set td.box_latency_cycles=3");
  EXPECT_EQ(slower.exit_code, 1) << slower.output;
  EXPECT_NE(slower.output.find("regress peak_small (tdsim peak --config small --waves 8 --bandwidth-waves 2): "),
            std::string::npos)
      << slower.output;
  EXPECT_NE(slower.output.find("  chip.cycles: "), std::string::npos) << slower.output;
  EXPECT_NE(slower.output.find(" cycles (+"), std::string::npos) << slower.output;
  EXPECT_NE(last_line(slower.output).find("workloads changed (tdsim regress --update accepts them)"),
            std::string::npos);

  // --update accepts them; a workload without statistics fails until then.
  ASSERT_EQ(run_tdsim(regress + " --set td.box_latency_cycles=3 --update").exit_code, 0);
  EXPECT_EQ(run_tdsim(regress + " --set td.box_latency_cycles=3").exit_code, 0);
  fs::remove(golden / "peak_small.csv");
  const RunResult missing = run_tdsim(regress + " --set td.box_latency_cycles=3");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("regress peak_small: no expected statistics"), std::string::npos) << missing.output;
  EXPECT_EQ(run_tdsim("regress --dir " + (dir_ / "nowhere").string()).exit_code, 2);
}

TEST_F(Cli, BenchTimesEveryPathAgainstTheReference) {
  const fs::path json = dir_ / "bench.json";
  // Its temporary files (the check path's vectors and config) under dir_.
  const RunResult result = run_command("env TMPDIR=" + dir_.string() + " " + TDSIM_BINARY + " bench --config " +
                                       kSmallConfig + " --waves 2 --bandwidth-waves 1 --check-cases 300 --threads 3 " +
                                       "--json " + json.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* row : {"peak, scoreboard on ", "peak, scoreboard off ", "peak, scoreboard on, 3 threads ",
                          "memory-bound: bandwidth phase", "check, 300 random cases "})
    EXPECT_NE(result.output.find(row), std::string::npos) << row << "\n" << result.output;
  const std::string report = read_file(json);
  for (const char* key : {"\"model_to_reference\": ", "\"model_to_reference_no_scoreboard\": ",
                          "\"thread_speedup\": ", "\"memory_bound_lane_tests_per_s\": ",
                          "\"check_model_to_reference\": ", "\"check_rss_model_to_reference\": ",
                          "\"name\": \"peak_threads\"", "\"items\": 300"})
    EXPECT_NE(report.find(key), std::string::npos) << key << "\n" << report;
  for (const auto& entry : fs::directory_iterator(dir_))  // the check path's files are gone
    EXPECT_EQ(entry.path().filename(), "bench.json") << entry.path();

  // One path only; an unknown one is refused before anything runs.
  const RunResult one = run_tdsim("bench --config " + kSmallConfig + " --paths memory_bound --bandwidth-waves 1");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(one.output.find("peak, "), std::string::npos) << one.output;
  const RunResult bad = run_tdsim("bench --paths peak,fast");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--paths: unknown path 'fast' (paths: peak, peak_no_scoreboard, peak_threads, "
                            "memory_bound, check)"),
            std::string::npos)
      << bad.output;
}

TEST_F(Cli, SameConfigAndSeedGiveIdenticalStatsAndTraces) {
  std::string outputs[2];
  for (int run = 0; run < 2; ++run) {
    const fs::path stats = dir_ / ("stats" + std::to_string(run) + ".json");
    const fs::path trace = dir_ / ("trace" + std::to_string(run) + ".vcd");
    const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --waves 4 --bandwidth-waves 2 --seed 9 " +
                                       "--stats " + stats.string() + " --trace " + trace.string() +
                                       " --trace-start 20 --trace-cycles 2000");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    outputs[run] = read_file(stats) + read_file(trace);
  }
  EXPECT_GT(outputs[0].size(), 1000u);
  EXPECT_EQ(outputs[0], outputs[1]);
}

TEST_F(Cli, TracingDoesNotChangeTheSimulation) {
  std::string stats[2];
  for (int traced = 0; traced < 2; ++traced) {
    const fs::path file = dir_ / ("stats" + std::to_string(traced) + ".json");
    const std::string trace = traced ? " --trace " + (dir_ / "t.vcd").string() : "";
    const RunResult result =
        run_tdsim("peak --config " + kSmallConfig + " --waves 4 --bandwidth-waves 4 --stats " + file.string() + trace);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    stats[traced] = read_file(file);
  }
  EXPECT_GT(stats[0].size(), 1000u);
  EXPECT_EQ(stats[0], stats[1]);
}

TEST_F(Cli, TraceIsReadByGtkwaveToolsWithNamedTdSignals) {
  if (!fs::exists("/usr/bin/vcd2fst") || !fs::exists("/usr/bin/fst2vcd"))
    GTEST_SKIP() << "gtkwave's vcd2fst/fst2vcd not installed (scripts/bootstrap installs gtkwave)";
  const fs::path vcd = dir_ / "pipe.vcd", fst = dir_ / "pipe.fst", back = dir_ / "back.vcd";
  ASSERT_EQ(run_tdsim("peak --config " + kSmallConfig + " --waves 2 --no-bandwidth --no-latency --trace " +
                      vcd.string() + " --trace-cycles 3000")
                .exit_code,
            0);
  EXPECT_FALSE(fs::exists(vcd.string() + ".tmp." + std::to_string(getpid())));
  ASSERT_EQ(std::system(("/usr/bin/vcd2fst " + vcd.string() + " " + fst.string() + " >/dev/null 2>&1").c_str()), 0);
  ASSERT_EQ(std::system(("/usr/bin/fst2vcd " + fst.string() + " > " + back.string() + " 2>/dev/null").c_str()), 0);
  const std::string trace = read_file(back);
  // The SystemC hierarchy as scopes, and each stage's handshake signals.
  for (const char* name : {"$scope module chip", "$scope module wgp1", "$scope module td1",
                           "$scope module node_fetch", "req_valid", "return_buffer_count", "l0_hit",
                           "$scope module issue_port", "$scope module write_back", "wave_retired"})
    EXPECT_NE(trace.find(name), std::string::npos) << name;
  // Something moved: the issue port was valid at some time.
  EXPECT_NE(trace.find("\n1"), std::string::npos);
}

TEST_F(Cli, DebugLinesAreSelectedByNameAndCarryCycleAndHierarchy) {
  const fs::path file = write("one.tdv", "tdv 1\n" + kGoodCase + "expect=00000040,00000010,00000020,ffffffff\n");
  const std::string check = "check " + file.string() + " --engine model --config " + kSmallConfig;
  const RunResult quiet = run_tdsim(check);
  EXPECT_EQ(quiet.output.find("chip.wgp0.td0"), std::string::npos) << "debug output must be off by default";
  const RunResult td = run_tdsim(check + " --debug td");
  ASSERT_EQ(td.exit_code, 0) << td.output;
  EXPECT_NE(td.output.find(" chip.wgp0.td0: accepted wave 1"), std::string::npos) << td.output;
  EXPECT_NE(td.output.find(" chip.wgp0.td0.node_fetch: "), std::string::npos) << td.output;
  EXPECT_EQ(td.output.find(" chip.dram: "), std::string::npos) << "mem was not asked for";
  const RunResult mem = run_tdsim(check + " --debug mem");
  EXPECT_NE(mem.output.find(" chip.dram: 128 B at"), std::string::npos) << mem.output;
  EXPECT_EQ(run_tdsim(check + " --debug gpu").exit_code, 2);
}

TEST_F(Cli, BadConfigExitsTwoNamingFileAndKey) {
  std::string config = read_file(kSmallConfig);
  const std::string key = "box_latency_cycles: 2";
  config.replace(config.find(key), key.size(), "box_latency_cycles: 0");
  const fs::path bad = write("bad.yaml", config);
  const RunResult result = run_tdsim("peak --config " + bad.string());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(bad.string() + ":"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("td.box_latency_cycles: must be >= 1 (got 0)"), std::string::npos) << result.output;
}

TEST_F(Cli, BadOutputNamesExitTwoBeforeRunning) {
  const RunResult stats = run_tdsim("peak --config " + kSmallConfig + " --stats " + (dir_ / "s.txt").string());
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_NE(stats.output.find(".json or .csv"), std::string::npos);
  EXPECT_EQ(stats.output.find("box_fp16"), std::string::npos) << "must not run";
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --trace " + (dir_ / "t.txt").string()).exit_code, 2);
}

}  // namespace

// Co-simulation: the timing model with td.datapath: rtl (the Verilated units
// of rtl/ clocked inside the TD's stages) against td.datapath: cpp (the
// reference's maths) at the same latencies. Same lane results, same cycles,
// every statistic the same, on the vector files, the microbenchmarks and a
// traced scene; a configuration whose latencies are not the RTL's is
// refused at the key.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using Cosim = CliTest;

// `text` with the value of the indented `key` (its first occurrence) set to `value`.
std::string with_value(std::string text, const std::string& key, const std::string& value) {
  const size_t at = text.find("  " + key + ":");
  if (at == std::string::npos) return text;
  const size_t start = text.find_first_not_of(' ', at + key.size() + 3);
  const size_t end = text.find_first_of(" \n", start);
  return text.replace(start, end - start, value);
}

// The small chip at the RTL's pipeline depths, with the given datapath.
std::string small_chip_at_rtl_latencies(const std::string& datapath) {
  std::string text = read_file(kSmallConfig);
  text = with_value(text, "box_latency_cycles", std::to_string(TDSIM_RTL_BOX_LATENCY));
  text = with_value(text, "triangle_latency_cycles", std::to_string(TDSIM_RTL_TRIANGLE_LATENCY));
  text = with_value(text, "sort_latency_cycles", std::to_string(TDSIM_RTL_SORT_LATENCY));
  return with_value(text, "datapath", datapath);
}

class CosimTest : public Cosim {
 protected:
  void SetUp() override {
    Cosim::SetUp();
    cpp_config_ = write("cpp.yaml", small_chip_at_rtl_latencies("cpp")).string();
    rtl_config_ = write("rtl.yaml", small_chip_at_rtl_latencies("rtl")).string();
  }
  // Runs `arguments` with each config ({config} and {tag} replaced); both must succeed.
  void run_both(const std::string& arguments) {
    for (const bool rtl : {false, true}) {
      std::string command = arguments;
      command.replace(command.find("{config}"), 8, rtl ? rtl_config_ : cpp_config_);
      for (size_t at; (at = command.find("{tag}")) != std::string::npos;)
        command.replace(at, 5, (dir_ / (rtl ? "rtl" : "cpp")).string());
      const RunResult result = run_tdsim(command);
      ASSERT_EQ(result.exit_code, 0) << command << "\n" << result.output;
      outputs_[rtl] = result.output;
    }
  }
  std::string cpp_config_, rtl_config_;
  std::string outputs_[2];
};

TEST_F(CosimTest, VectorFilesGiveTheSameResultsCyclesAndStats) {
  const std::string vectors = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/";
  size_t cases = 0;  // every case of both files passes
  for (const char* file : {"conformance-v1.tdv", "edge-v1.tdv"}) {
    std::istringstream lines(read_file(vectors + file));
    for (std::string line; std::getline(lines, line);) cases += line.rfind("name=", 0) == 0;
  }
  ASSERT_GT(cases, 1000u);
  for (const char* lanes : {"64", "32"}) {
    run_both("check " + vectors + "conformance-v1.tdv " + vectors + "edge-v1.tdv --engine model --config {config}"
             " --lanes-per-wave " + lanes + " --stats {tag}.json");
    EXPECT_NE(outputs_[1].find(std::to_string(cases) + " passed, 0 failed"), std::string::npos) << outputs_[1];
    const std::string stats = read_file(dir_ / "cpp.json");
    EXPECT_NE(stats.find(".box_nodes\""), std::string::npos);
    EXPECT_EQ(read_file(dir_ / "rtl.json"), stats) << "lanes per wave " << lanes;
  }
}

TEST_F(CosimTest, MicrobenchmarksGiveTheSameCyclesAndStats) {
  run_both("peak --config {config} --waves 4 --stats {tag}.json");
  const std::string stats = read_file(dir_ / "cpp.json");
  EXPECT_NE(stats.find(".cycles\""), std::string::npos);
  EXPECT_EQ(read_file(dir_ / "rtl.json"), stats);
}

TEST_F(CosimTest, ATracedSceneGivesTheSameHitsCyclesAndStats) {
  for (const char* rays : {"primary", "shadow"}) {
    run_both(std::string("run --config {config} --width 40 --height 24 --rays ") + rays +
             " --hits-out {tag}.csv --stats {tag}.json");
    EXPECT_NE(outputs_[1].find("engine rtl"), std::string::npos) << outputs_[1];
    EXPECT_EQ(read_file(dir_ / "rtl.csv"), read_file(dir_ / "cpp.csv")) << rays;
    EXPECT_EQ(read_file(dir_ / "rtl.json"), read_file(dir_ / "cpp.json")) << rays;
  }
}

TEST_F(CosimTest, TheRtlEngineIsTheModelWithRtlDatapaths) {
  // --engine rtl on a cpp configuration = --engine model on the rtl one.
  const RunResult engine = run_tdsim("check " + kConformance + " --engine rtl --config " + cpp_config_ + " --stats " +
                                     (dir_ / "engine.json").string());
  const RunResult config = run_tdsim("check " + kConformance + " --engine model --config " + rtl_config_ + " --stats " +
                                     (dir_ / "config.json").string());
  ASSERT_EQ(engine.exit_code, 0) << engine.output;
  ASSERT_EQ(config.exit_code, 0) << config.output;
  EXPECT_EQ(read_file(dir_ / "engine.json"), read_file(dir_ / "config.json"));
}

TEST_F(CosimTest, WavesHoldTheUnitsOwnSignalsUnderTheirStagesAndChangeNoStat) {
  const std::string run = "run --config " + rtl_config_ + " --width 24 --height 16 --stats ";
  const fs::path plain = dir_ / "plain.json", traced = dir_ / "traced.json", vcd = dir_ / "t.vcd", fst = dir_ / "t.fst";
  ASSERT_EQ(run_tdsim(run + plain.string()).exit_code, 0);
  const RunResult with_vcd = run_tdsim(run + traced.string() + " --trace-cycles 400 --trace " + vcd.string());
  ASSERT_EQ(with_vcd.exit_code, 0) << with_vcd.output;
  EXPECT_EQ(read_file(traced), read_file(plain));
  const std::string text = read_file(vcd);
  // The model's own signal and the RTL's, in one box_stage scope.
  const size_t stage = text.find("$scope module box_stage $end\n$var wire 1 ");
  ASSERT_NE(stage, std::string::npos);
  const size_t unit = text.find("$scope module td_box_datapath $end", stage);
  ASSERT_NE(unit, std::string::npos);
  EXPECT_NE(text.find(" in_node_i [895:0] $end", stage), std::string::npos);
  EXPECT_NE(text.find("$scope module u_operands $end", unit), std::string::npos);
  EXPECT_NE(text.find("$scope module td_tri_datapath $end"), std::string::npos);
  EXPECT_NE(text.find("$scope module td_sort4 $end"), std::string::npos);
  EXPECT_NE(text.find("\n#400000\n"), std::string::npos);  // 400 cycles of 1 ns
  // The same run, the same bytes.
  const fs::path again = dir_ / "again.vcd";
  ASSERT_EQ(run_tdsim(run + traced.string() + " --trace-cycles 400 --trace " + again.string()).exit_code, 0);
  EXPECT_TRUE(read_file(again) == text);
  ASSERT_EQ(run_tdsim(run + traced.string() + " --trace-cycles 400 --trace " + fst.string()).exit_code, 0);
  EXPECT_GT(fs::file_size(fst), 1000u);
  EXPECT_TRUE(temp_files().empty());
}

TEST_F(Cosim, LatenciesThatAreNotTheRtlsAreRefusedAtTheKey) {
  const RunResult engine = run_tdsim("check " + kConformance + " --engine rtl --config " + kSmallConfig);
  EXPECT_EQ(engine.exit_code, 2);
  EXPECT_EQ(last_line(engine.output),
            "error: " + kSmallConfig + ": td.box_latency_cycles: must be " + std::to_string(TDSIM_RTL_BOX_LATENCY) +
                " with td.datapath: rtl, the RTL unit's pipeline depth (got 2)");
  // In the file: at the key's line and column.
  const fs::path file = write("wrong.yaml", with_value(small_chip_at_rtl_latencies("rtl"), "sort_latency_cycles", "3"));
  const RunResult peak = run_tdsim("peak --config " + file.string());
  EXPECT_EQ(peak.exit_code, 2);
  EXPECT_NE(peak.output.find("wrong.yaml:17:"), std::string::npos) << peak.output;
  EXPECT_NE(peak.output.find(": td.sort_latency_cycles: must be " + std::to_string(TDSIM_RTL_SORT_LATENCY) +
                             " with td.datapath: rtl"),
            std::string::npos)
      << peak.output;
}

}  // namespace

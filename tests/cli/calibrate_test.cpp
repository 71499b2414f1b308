// tdsim calibrate end to end: every row of the table with its band and the
// model's value, the JSON rows, docs/calibration.md's table as the command
// writes it, a latency moved out of its band showing in its row, and bad
// input refused before any workload runs.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace tdsim_cli {
namespace {

class Calibrate : public CliTest {};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}
// A Markdown row's first cell.
std::string figure_of(const std::string& row) {
  const size_t from = row.find("| "), to = row.find(" |", 2);
  return from == std::string::npos || to == std::string::npos ? row : row.substr(from + 2, to - from - 2);
}

// The part of `text` between the markers of `config`'s table.
std::string generated_table(const std::string& text, const std::string& config) {
  const std::string begin = "<!-- tdsim calibrate --config " + config + " --markdown: begin -->\n",
                    end = "<!-- tdsim calibrate --config " + config + " --markdown: end -->";
  const size_t from = text.find(begin), to = text.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) return "(no markers)";
  return text.substr(from + begin.size(), to - from - begin.size());
}

TEST_F(Calibrate, TablesJsonAndTheDocsAgree) {
  for (const std::string config : {"xbox_series_x", "xbox_series_s"}) {
    SCOPED_TRACE(config);
    const fs::path json = dir_ / "rows.json", markdown = dir_ / "table.md";
    const RunResult run =
        run_tdsim("calibrate --config " + config + " --json " + json.string() + " --markdown " + markdown.string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* row : {"L2 hit, load-to-use", "DRAM, load-to-use", "RT pass: L0 hit rate",
                            "RT pass: box to triangle tests", "Path tracing: occupancy",
                            "DXR feature test: box tests, share of peak"})
      EXPECT_NE(run.output.find(row), std::string::npos) << row << "\n" << run.output;
    EXPECT_NE(run.output.find(" of 16 figures in their band"), std::string::npos) << run.output;
    const std::string rows = read_file(json);
    for (const char* field : {"\"figure\"", "\"source\"", "\"measured\"", "\"model\"", "\"error\"", "\"in_band\""})
      EXPECT_NE(rows.find(field), std::string::npos) << field;
    // The docs show what the command writes, so they cannot drift from it:
    // a row that changed is named, and one that left (or entered) its band
    // says so.
    const std::vector<std::string> docs = lines_of(
                                       generated_table(read_file(std::string(TDSIM_SOURCE_DIR) + "/docs/calibration.md"),
                                                       config)),
                                   now = lines_of(read_file(markdown));
    ASSERT_EQ(docs.size(), now.size()) << "docs/calibration.md: regenerate the " << config
                                       << " table with build/tdsim calibrate";
    for (size_t k = 0; k < now.size(); ++k) {
      if (docs[k] == now[k]) continue;
      const bool was_in = ends_with(docs[k], "| yes |"), is_in = ends_with(now[k], "| yes |");
      ADD_FAILURE() << "docs/calibration.md, " << config << " row '" << figure_of(now[k]) << "': "
                    << (was_in == is_in ? "changed" : was_in ? "LEFT ITS BAND" : "entered its band")
                    << "\n  docs: " << docs[k] << "\n  now:  " << now[k]
                    << "\n(regenerate the table with build/tdsim calibrate --config " << config << " --markdown)";
    }
  }
}

TEST_F(Calibrate, AnL2LatencyOutOfItsBandShowsInItsRow) {
  const RunResult slow = run_tdsim("calibrate --config xbox_series_x --set l2.slice.hit_latency_cycles=200");
  ASSERT_EQ(slow.exit_code, 0) << slow.output;
  const size_t row = slow.output.find("L2 hit, load-to-use");
  ASSERT_NE(row, std::string::npos) << slow.output;
  const std::string line = slow.output.substr(row, slow.output.find('\n', row) - row);
  EXPECT_NE(line.find(" no"), std::string::npos) << line;
  EXPECT_EQ(line.find(" yes"), std::string::npos) << line;
}

TEST_F(Calibrate, BadInputIsRefusedBeforeAnyWorkloadRuns) {
  const RunResult bad_key = run_tdsim("calibrate --set l2.slice.hit_latency_cycles=lots");
  EXPECT_EQ(bad_key.exit_code, 2);
  EXPECT_NE(bad_key.output.find("l2.slice.hit_latency_cycles"), std::string::npos) << bad_key.output;
  EXPECT_EQ(bad_key.output.find("latency:"), std::string::npos) << bad_key.output;
  const RunResult bad_out = run_tdsim("calibrate --json /proc/nowhere/rows.json");
  EXPECT_EQ(bad_out.exit_code, 2);
  EXPECT_NE(bad_out.output.find("--json"), std::string::npos) << bad_out.output;
}

}  // namespace
}  // namespace tdsim_cli

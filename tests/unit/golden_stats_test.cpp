// tdsim regress's statistics: the stats CSV read back (quoted fields with
// commas and quotes), malformed files named by line, and the diff — the
// chip's totals first, added and removed statistics, relative changes.
#include "tb/regress/golden_stats.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace td::tb {
namespace {

TEST(GoldenStats, ReadsTheStatsCsvWithQuotedFields) {
  const std::vector<Statistic> stats = read_stats_csv(
      "name,unit,value,description\n"
      "chip.cycles,cycles,120,\"clocks, from reset\"\n"
      "chip.l2.slice0.hits,accesses,7,\"the \"\"hits\"\"\"\n",
      "a.csv");
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "chip.cycles");
  EXPECT_EQ(stats[0].value, "120");
  EXPECT_EQ(stats[1].unit, "accesses");
  EXPECT_EQ(stats[1].value, "7");
}

TEST(GoldenStats, MalformedFilesAreNamedByLine) {
  const auto error = [](const std::string& text) {
    try {
      (void)read_stats_csv(text, "g.csv");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(""), "g.csv: empty");
  EXPECT_EQ(error("a,b\n"), "g.csv:1: not a tdsim stats CSV");
  EXPECT_EQ(error("name,unit,value,description\nx,y,1\n"), "g.csv:2: expected name,unit,value,description (got 3 fields)");
  EXPECT_EQ(error("name,unit,value,description\nx,y,1,\"open\n"), "g.csv:2: a quoted field is not closed");
}

TEST(GoldenStats, DiffPutsTheChipsTotalsFirstAndNamesEveryKindOfChange) {
  const std::vector<Statistic> before{{"chip.wgp0.td0.cycles", "cycles", "100"},
                                      {"chip.cycles", "cycles", "100"},
                                      {"chip.sa0.l1.hits", "accesses", "0"},
                                      {"chip.dram.bytes", "bytes", "64"},
                                      {"chip.gone", "things", "1"}};
  const std::vector<Statistic> after{{"chip.wgp0.td0.cycles", "cycles", "101"},
                                     {"chip.cycles", "cycles", "101"},
                                     {"chip.sa0.l1.hits", "accesses", "5"},
                                     {"chip.dram.bytes", "bytes", "64"},
                                     {"chip.new", "things", "2"}};
  const std::vector<StatChange> changes = diff_stats(before, after);
  ASSERT_EQ(changes.size(), 5u);
  EXPECT_EQ(format_change(changes[0]), "chip.cycles: 100 -> 101 cycles (+1%)");
  EXPECT_EQ(format_change(changes[1]), "chip.gone: 1 things (removed)");
  EXPECT_EQ(format_change(changes[2]), "chip.new: 2 things (added)");
  // Equally deep: in the expected file's order.
  EXPECT_EQ(format_change(changes[3]), "chip.wgp0.td0.cycles: 100 -> 101 cycles (+1%)");
  EXPECT_EQ(format_change(changes[4]), "chip.sa0.l1.hits: 0 -> 5 accesses (was 0)");
  EXPECT_TRUE(diff_stats(before, before).empty());
}

}  // namespace
}  // namespace td::tb

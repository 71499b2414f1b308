// The sweep's grid: point numbering (last axis fastest), zip, fixed values,
// refused --set texts; the merged table's CSV.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tb/sweep/point_result.h"
#include "tb/sweep/sweep_plan.h"
#include "tb/sweep/sweep_results.h"

namespace td::sweep {
namespace {

SweepPlan plan_of(const std::vector<std::string>& sets, bool zip = false) {
  SweepPlan plan;
  plan.command = "peak";
  plan.config = "small";
  plan.sets = sets;
  plan.zip = zip;
  plan.axes = parse_axes(sets, zip);
  return plan;
}

TEST(SweepPlan, CrossProductNumbersPointsWithTheLastAxisFastest) {
  const SweepPlan plan = plan_of({"l1.mshrs=16,32", "td.clock=1", "td.return_buffer_entries=4,8,16"});
  ASSERT_EQ(plan.point_count(), 6u);
  EXPECT_EQ(plan.swept_keys(), (std::vector<std::string>{"l1.mshrs", "td.return_buffer_entries"}));
  const Point p4 = plan.point(4);
  EXPECT_EQ(p4.values, (std::vector<std::pair<std::string, std::string>>{
                           {"l1.mshrs", "32"}, {"td.clock", "1"}, {"td.return_buffer_entries", "8"}}));
  EXPECT_EQ(p4.label(plan.swept_keys()), "l1.mshrs=32 td.return_buffer_entries=8");
  EXPECT_EQ(p4.set_arguments(), (std::vector<std::string>{"--set", "l1.mshrs=32", "--set", "td.clock=1", "--set",
                                                          "td.return_buffer_entries=8"}));
  EXPECT_EQ(plan.point(0).values[2].second, "4");
  EXPECT_EQ(plan.point(2).values[2].second, "16");
  EXPECT_EQ(plan.point(3).values[0].second, "32");
}

TEST(SweepPlan, ZipPairsValuesOneToOne) {
  const SweepPlan plan = plan_of({"a.b=1,2,3", "c.d=x", "e.f=4,5,6"}, true);
  ASSERT_EQ(plan.point_count(), 3u);
  EXPECT_EQ(plan.point(1).values, (std::vector<std::pair<std::string, std::string>>{
                                      {"a.b", "2"}, {"c.d", "x"}, {"e.f", "5"}}));
}

TEST(SweepPlan, NothingSweptIsOnePoint) {
  const SweepPlan plan = plan_of({"a.b=1"});
  EXPECT_EQ(plan.point_count(), 1u);
  EXPECT_EQ(plan.point(0).label(plan.swept_keys()), "(base)");
  EXPECT_EQ(plan_of({}).point_count(), 1u);
}

TEST(SweepPlan, RefusesMalformedSets) {
  EXPECT_THROW(parse_axes({"novalue"}, false), std::invalid_argument);
  EXPECT_THROW(parse_axes({"=1,2"}, false), std::invalid_argument);
  EXPECT_THROW(parse_axes({"a.b=1,,2"}, false), std::invalid_argument);
  EXPECT_THROW(parse_axes({"a.b=1,"}, false), std::invalid_argument);
  EXPECT_THROW(parse_axes({"a.b=1,2", "a.b=3"}, false), std::invalid_argument);
  EXPECT_THROW(parse_axes({"a.b=1,2", "c.d=1,2,3"}, true), std::invalid_argument);
  try {
    parse_axes({"a.b=1,2", "c.d=1,2,3"}, true);
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--set c.d=1,2,3"), std::string::npos) << error.what();
  }
}

TEST(SweepPlan, RefusesMoreThanTheMaximumOfPoints) {
  std::string many = "a.b=0";
  for (int i = 1; i < 400; ++i) many += "," + std::to_string(i);
  std::string more = many;
  more[0] = 'c';
  EXPECT_NO_THROW(parse_axes({many}, false));
  EXPECT_THROW(parse_axes({many, more}, false), std::invalid_argument);  // 160 000 > kMaxPoints
}

TEST(SweepResults, CsvHasOneRowPerPointAndQuotesCommas) {
  const SweepPlan plan = plan_of({"a.b=1,2"});
  PointResult ok;
  ok.index = 0;
  ok.values = {{"a.b", "1"}};
  ok.status = "ok";
  ok.exit_code = 0;
  ok.headline.figures = {{"rays_per_s", "rays/s", 2.5e6}};
  ok.headline.limited_by = "L1 MSHRs, then L2";
  ok.headline.stalls = {{"fetch queue full", 0.25}};
  ok.headline.hit_rates = {{"L0", 0.5}};
  PointResult failed;
  failed.index = 1;
  failed.values = {{"a.b", "2"}};
  failed.status = "failed";
  failed.exit_code = 2;
  EXPECT_EQ(results_csv(plan, {ok, failed}),
            "point,a.b,status,exit_code,rays_per_s,limited_by,stall:fetch queue full,hit_rate:L0\n"
            "0,1,ok,0,2500000,\"L1 MSHRs, then L2\",0.25,0.5\n"
            "1,2,failed,2,,,,\n");
  const std::string table = results_table(plan, {ok, failed});
  EXPECT_NE(table.find("2.5 M"), std::string::npos) << table;
  EXPECT_NE(table.find("failed (exit 2)"), std::string::npos) << table;
}

TEST(SweepResults, TailKeepsTheLastLines) {
  EXPECT_EQ(tail_lines("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(tail_lines("a\nb\nc", 5), "a\nb\nc");
  EXPECT_EQ(tail_lines("", 3), "");
  EXPECT_EQ(point_folder_name(7), "0007");
  EXPECT_EQ(point_folder_name(12345), "12345");
}

}  // namespace
}  // namespace td::sweep

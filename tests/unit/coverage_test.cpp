// Contract coverage (tb/vectors/coverage.h): every bin is reached by the
// committed vector files, and each is counted by the case made for it and
// not by a case that cannot reach it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "tb/vectors/coverage.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace td::tb {
namespace {

size_t index_of(const std::string& name) {
  const auto& bins = contract_bins();
  const auto it = std::find_if(bins.begin(), bins.end(), [&](const CoverageBin& b) { return name == b.name; });
  EXPECT_NE(it, bins.end()) << "no bin " << name;
  return static_cast<size_t>(it - bins.begin());
}

const TdvCase& edge_case(const std::string& name) {
  static const std::vector<TdvCase> cases = edge_vectors();
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const TdvCase& c) { return c.name == name; });
  if (it == cases.end()) throw std::logic_error("no edge case " + name);
  return *it;
}

// The bins one case hits.
std::set<std::string> bins_of(const TdvCase& c) {
  ContractCoverage coverage;
  coverage.sample(c);
  std::set<std::string> hit;
  for (size_t i = 0; i < contract_bins().size(); ++i)
    if (coverage.count(i) != 0) hit.insert(contract_bins()[i].name);
  return hit;
}

TEST(ContractCoverage, TheCommittedVectorFilesReachEveryBin) {
  ContractCoverage coverage;
  for (const char* file : {"/tests/vectors/conformance-v1.tdv", "/tests/vectors/edge-v1.tdv"}) {
    TdvReader reader(std::string(TDSIM_SOURCE_DIR) + file);
    TdvCase c;
    while (reader.next(c)) coverage.sample(c);
  }
  EXPECT_EQ(coverage.bins_hit(), contract_bins().size()) << coverage.summary();
  EXPECT_EQ(coverage.summary(), fmt::format("coverage: {0} of {0} bins hit\n", contract_bins().size()));
}

TEST(ContractCoverage, BinsAreUniqueAndEachNamesItsRule) {
  std::set<std::string> names;
  for (const CoverageBin& bin : contract_bins()) {
    EXPECT_TRUE(names.insert(bin.name).second) << "duplicate " << bin.name;
    EXPECT_EQ(std::string(bin.rule).rfind("§", 0), 0u) << bin.name;
    EXPECT_NE(std::string(bin.what), "") << bin.name;
  }
}

TEST(ContractCoverage, EachCaseCountsTheBinsOfItsRuleAndNoOthers) {
  const std::set<std::string> exec_off = bins_of(edge_case("edge.inactive.exec0"));
  EXPECT_EQ(exec_off, (std::set<std::string>{"form.bvh32", "form.f32", "inactive.exec_off"}));
  const std::set<std::string> inf_kept = bins_of(edge_case("edge.box.grow_keeps_inf"));
  EXPECT_TRUE(inf_kept.count("grow.infinity_kept")) << fmt::format("{}", fmt::join(inf_kept, " "));
  EXPECT_TRUE(inf_kept.count("box.fp32_node"));
  EXPECT_TRUE(inf_kept.count("box.hits_1"));
  EXPECT_FALSE(inf_kept.count("grow.to_infinity"));
  EXPECT_FALSE(inf_kept.count("triangle.miss"));
  const std::set<std::string> crosses = bins_of(edge_case("edge.box.grow_crosses_zero"));
  EXPECT_TRUE(crosses.count("grow.crosses_zero"));
  const std::set<std::string> saturates = bins_of(edge_case("edge.box.grow_saturates_inf"));
  EXPECT_TRUE(saturates.count("grow.to_infinity"));
  // A fault names its field and stops there: nothing is fetched.
  for (const std::string& bin : bins_of(edge_case("edge.inactive.exec0_desc_fault")))
    EXPECT_EQ(bin.rfind("descriptor.", 0), std::string::npos) << "an inactive lane is never faulted: " << bin;
}

TEST(ContractCoverage, ADescriptorFaultCountsEachFieldItBreaks) {
  TdvCase c = edge_case("edge.box.grow_keeps_inf");
  Descriptor d = Descriptor::unpack(c.desc);
  d.type = 7;
  d.big_page = false;
  c.desc = d.pack();
  const std::set<std::string> hit = bins_of(c);
  EXPECT_TRUE(hit.count("descriptor.type_not_8"));
  EXPECT_TRUE(hit.count("descriptor.big_page_clear"));
  EXPECT_FALSE(hit.count("descriptor.valid"));
  EXPECT_FALSE(hit.count("box.fp32_node")) << "a faulted lane fetches nothing";
}

TEST(ContractCoverage, ABinCountsACaseOnceHoweverManyOfItsChildrenOrAxesReachIt) {
  // Four children, three axes: per-child and per-axis bins still count the case once.
  ContractCoverage coverage;
  coverage.sample(edge_case("edge.box.grow_keeps_inf"));
  coverage.sample(edge_case("edge.box.grow_keeps_inf"));
  for (size_t i = 0; i < contract_bins().size(); ++i)
    EXPECT_LE(coverage.count(i), 2u) << contract_bins()[i].name;
  EXPECT_EQ(coverage.count(index_of("box.fp32_node")), 2u);
  EXPECT_EQ(coverage.cases(), 2u);
}

TEST(ContractCoverage, SummaryAndJsonNameTheBinsNeverHit) {
  ContractCoverage coverage;
  coverage.sample(edge_case("edge.inactive.exec0"));
  EXPECT_EQ(coverage.cases(), 1u);
  EXPECT_EQ(coverage.bins_hit(), 3u);
  const std::string summary = coverage.summary();
  EXPECT_EQ(summary.rfind(fmt::format("coverage: 3 of {} bins hit\ncoverage: never hit: form.bvh64, form.a16, ",
                                      contract_bins().size()),
                          0),
            0u)
      << summary;
  const std::string json = coverage.to_json();
  EXPECT_NE(json.find("\"bins_hit\": 3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bin\": \"inactive.exec_off\""), std::string::npos) << json;
  EXPECT_EQ(coverage.count(index_of("inactive.exec_off")), 1u);
  EXPECT_EQ(coverage.count(index_of("inactive.nan_operand")), 0u);
}

}  // namespace
}  // namespace td::tb

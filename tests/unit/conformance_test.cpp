// The conformance set from the independent implementation passes through
// the golden reference. (Our own edge set's expectations are the
// reference's: VectorGenEdge.CommittedFileIsCurrent holds the file to the
// generator, and the model and RTL tests run it.)
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tb/vectors/check.h"
#include "tb/engines/engine.h"
#include "tb/vectors/tdv.h"

namespace td::tb {
namespace {

void expect_file_passes(const std::string& name) {
  const std::string path = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/" + name;
  TdvParse parse = read_tdv_file(path);
  ASSERT_TRUE(parse.ok()) << parse.errors.front().to_string();
  ASSERT_FALSE(parse.file.cases.empty());
  auto engine = make_reference_engine();
  ASSERT_NE(engine, nullptr);
  std::ostringstream mismatches;
  const CheckSummary summary = check_files({path}, *engine, mismatches);
  EXPECT_EQ(summary.failed, 0u) << mismatches.str();
  EXPECT_EQ(summary.passed, parse.file.cases.size());
}

TEST(Conformance, SharedConformanceVectorsPassOnReference) { expect_file_passes("conformance-v1.tdv"); }

}  // namespace
}  // namespace td::tb

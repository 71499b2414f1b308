// The committed vector files through the timing model (`--engine model`):
// every case must match the file and the golden reference.
#include <gtest/gtest.h>

#include <sstream>

#include "tb/check.h"
#include "tb/engine.h"
#include "tb/tdv.h"

namespace td::tb {
namespace {

void expect_model_passes(const std::string& file, uint32_t lanes_per_wave) {
  TdvParse parse = read_tdv_file(std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/" + file);
  ASSERT_TRUE(parse.ok());
  EngineOptions options;
  options.config_path = std::string(TDSIM_SOURCE_DIR) + "/configs/small.yaml";
  options.lanes_per_wave = lanes_per_wave;
  auto engine = make_engine("model", options);
  std::ostringstream mismatches;
  const CheckSummary summary = check_files({parse.file}, *engine, mismatches);
  EXPECT_EQ(summary.failed, 0u) << mismatches.str();
  EXPECT_EQ(summary.passed, parse.file.cases.size());
}

TEST(ModelCheck, ConformanceVectorsPassInWave64) { expect_model_passes("conformance-v1.tdv", 64); }
TEST(ModelCheck, ConformanceVectorsPassInWave32) { expect_model_passes("conformance-v1.tdv", 32); }
TEST(ModelCheck, EdgeVectorsPass) { expect_model_passes("edge-v1.tdv", 64); }

}  // namespace
}  // namespace td::tb

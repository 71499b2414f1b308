// The committed vector files through the timing model (`--engine model`):
// every case must match the file and the golden reference.
#include <gtest/gtest.h>

#include <sstream>

#include "tb/vectors/check.h"
#include "model/config/config.h"
#include "tb/engines/model_engine.h"
#include "tb/vectors/tdv.h"

namespace td::tb {
namespace {

// chunk_cases: how many cases reach the engine per call (the streaming
// check); a small chunk runs the one chip through many calls.
void expect_model_passes(const std::string& file, uint32_t lanes_per_wave, size_t chunk_cases = kCheckChunkCases) {
  const std::string path = std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/" + file;
  TdvParse parse = read_tdv_file(path);
  ASSERT_TRUE(parse.ok());
  auto engine = make_model_engine(cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/small.yaml"));
  std::ostringstream mismatches;
  const CheckSummary summary = check_files({path}, *engine, mismatches, CheckOptions{lanes_per_wave, chunk_cases});
  EXPECT_EQ(summary.failed, 0u) << mismatches.str();
  EXPECT_EQ(summary.passed, parse.file.cases.size());
}

TEST(ModelCheck, ConformanceVectorsPassInWave64) { expect_model_passes("conformance-v1.tdv", 64); }
TEST(ModelCheck, ConformanceVectorsPassInWave32) { expect_model_passes("conformance-v1.tdv", 32); }
TEST(ModelCheck, EdgeVectorsPass) { expect_model_passes("edge-v1.tdv", 64); }
TEST(ModelCheck, ConformanceVectorsPassInSmallChunks) { expect_model_passes("conformance-v1.tdv", 64, 97); }

}  // namespace
}  // namespace td::tb

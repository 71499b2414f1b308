// Every key at each end of its documented range (tests/common/
// config_variants.h) builds a chip and runs: instructions of mixed node
// types on the first, a middle and the last TD, every lane checked against
// the golden reference, in bounded time and memory (caches of up to 1 GiB
// hold only the lines they touch). One CTest process per variant (SystemC
// elaborates once per process). Also: the up-front memory estimate covers
// what building a large chip really allocates.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "model/config/model_memory.h"
#include "tests/common/config_variants.h"
#include "tests/sc/chip_harness.h"

namespace td::test {
namespace {


class ExtremeConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(ExtremeConfig, RunsAndMatchesTheReference) {
  const auto start = std::chrono::steady_clock::now();
  const cfg::Config config = make_variant(small_config(), GetParam());
  Harness h(config);
  constexpr uint32_t kNodes = 24;
  h.write_nodes(kNodes);
  const uint32_t tds = config.td_count();
  uint32_t waves = 0;
  for (const uint32_t td : {0u, tds / 2, tds - 1}) {
    for (uint32_t w = 0; w < 2; ++w) h.feeder.push(td, mixed_wave(w == 0 ? 64 : 32, 7 * waves++, kNodes));
  }
  h.run();
  EXPECT_EQ(h.feeder.waves_completed(), waves);
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  for (const std::string& line : h.feeder.scoreboard().reports()) ADD_FAILURE() << line;
  EXPECT_EQ(h.feeder.scoreboard().lanes_checked(), waves / 2 * (64u + 32u));
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(wall_s, 20.0);
  std::printf("%s: %llu cycles, %.2f s wall\n", GetParam().c_str(),
              static_cast<unsigned long long>(h.chip->end_cycle()), wall_s);
}

INSTANTIATE_TEST_SUITE_P(Ends, ExtremeConfig, ::testing::ValuesIn(variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (c == '.') c = '_';
                           return name;
                         });

uint64_t resident_bytes() {
  unsigned long long size = 0, resident = 0;
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  const int read = std::fscanf(statm, "%llu %llu", &size, &resident);
  std::fclose(statm);
  return read == 2 ? resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// Building 512 TDs with 4096-entry fetch queues and 2048-entry return buffers allocates no more than the
// estimate load_config checks, and at least its largest share.
TEST(ModelMemory, EstimateCoversWhatBuildingTheChipAllocates) {
  cfg::Config config = small_config();
  config.chip.wgps = 256;
  config.td.fetch_queue_depth = 4096;
  config.td.return_buffer_entries = 2048;
  config.shader.waves_per_simd = 1;  // the harness builds no traversal shader: keep its share small
  config = cfg::parse_config(cfg::to_yaml(config), "large");
  const cfg::MemoryEstimate estimate = cfg::estimate_model_memory(config);
  const uint64_t before = resident_bytes();
  ASSERT_GT(before, 0u);
  Harness h(config);
  const uint64_t grown = resident_bytes() - before;
  EXPECT_LE(grown, estimate.bytes) << cfg::memory_text(grown) << " grown, estimate "
                                   << cfg::memory_text(estimate.bytes);
  EXPECT_GE(grown, estimate.largest().bytes) << cfg::memory_text(grown) << " grown, largest share "
                                             << estimate.largest().key << " " << cfg::memory_text(estimate.largest().bytes);
  EXPECT_EQ(estimate.largest().key, "td.return_buffer_entries");
}

// Series X with every cache at the largest size allowed (1 GiB per L0, L1
// and L2 slice: 76 caches): whole tag arrays would take 24 GiB, and the run
// used to end in std::bad_alloc. Only the sets touched are held: it runs in
// little memory and every lane matches the reference.
TEST(ModelMemory, SeriesXWithTheLargestCachesRunsInLittleMemory) {
  cfg::Config config = cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/xbox_series_x.yaml");
  config.l0.size_kib = config.l1.size_kib = config.l2.slice.size_kib = 1048576;
  config = cfg::parse_config(cfg::to_yaml(config), "largest caches");
  const uint64_t before = resident_bytes();
  ASSERT_GT(before, 0u);
  const auto start = std::chrono::steady_clock::now();
  Harness h(config);
  constexpr uint32_t kNodes = 64;
  h.write_nodes(kNodes);
  for (uint32_t td = 0; td < config.td_count(); ++td) h.feeder.push(td, mixed_wave(64, td, kNodes));
  h.run();
  EXPECT_EQ(h.feeder.waves_completed(), config.td_count());
  EXPECT_EQ(h.feeder.scoreboard().mismatches(), 0u);
  EXPECT_GT(h.chip->td(0).l0().sets(), mem::Cache::kDenseTagLines);
  EXPECT_TRUE(h.chip->td(0).l0().sparse_tags());
  EXPECT_LE(h.chip->td(0).l0().tag_entries(), 2u * kNodes);
  const uint64_t grown = resident_bytes() - before;
  EXPECT_LT(grown, uint64_t{256} << 20) << cfg::memory_text(grown);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
}

}  // namespace
}  // namespace td::test

// Vector cases as wave batches (what every check engine executes): each case
// once, in one instruction of its own descriptor no wider than asked, on a
// memory image that gives it the same result as its own memory; batches in
// file order, split where two cases' memory disagrees.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/ref/intersect.h"
#include "tb/vectors/case_waves.h"
#include "tb/vectors/tdv.h"

namespace td::tb {
namespace {

std::vector<TdvCase> conformance_cases() {
  TdvParse parse = read_tdv_file(std::string(TDSIM_SOURCE_DIR) + "/tests/vectors/conformance-v1.tdv");
  EXPECT_TRUE(parse.ok());
  return parse.file.cases;
}

TEST(CaseWaves, EveryCaseOnceInOrderInItsOwnDescriptorsWaveOnMemoryThatAgrees) {
  std::vector<TdvCase> all = conformance_cases();
  // The file's cases agree on their memory; a copy of one with a byte of its
  // node changed does not, and must start a new batch.
  for (const TdvCase& c : conformance_cases()) {
    if (c.mem.empty()) continue;
    all.push_back(c);
    all.back().mem[20] ^= 0x40;
    all.back().name += ".changed";
    break;
  }
  std::vector<const TdvCase*> cases;
  for (const TdvCase& c : all) cases.push_back(&c);
  for (const uint32_t lanes_per_wave : {32u, 64u}) {
    std::vector<int> seen(cases.size(), 0);
    size_t batches = 0, last_batch_max = 0;
    for_each_case_batch(cases, lanes_per_wave, [&](const CaseWaves& waves) {
      ++batches;
      ASSERT_EQ(waves.lane_cases.size(), waves.batch.waves.size());
      size_t lowest = cases.size(), highest = 0;
      for (size_t w = 0; w < waves.batch.waves.size(); ++w) {
        const WaveInstr& wave = waves.batch.waves[w];
        ASSERT_LE(wave.lanes.size(), lanes_per_wave);
        ASSERT_EQ(wave.lanes.size(), waves.lane_cases[w].size());
        for (size_t lane = 0; lane < wave.lanes.size(); ++lane) {
          const size_t i = waves.lane_cases[w][lane];
          ++seen[i];
          lowest = std::min(lowest, i);
          highest = std::max(highest, i);
          EXPECT_EQ(wave.descriptor, Descriptor::unpack(cases[i]->desc));
          EXPECT_TRUE(ref::intersect(wave.descriptor, wave.lanes[lane], waves.batch.memory)
                          .same_value(ref::intersect(Descriptor::unpack(cases[i]->desc), cases[i]->lane,
                                                     cases[i]->memory())))
              << cases[i]->name;
        }
      }
      if (batches > 1) {
        EXPECT_GT(lowest, last_batch_max);  // batches follow the file
      }
      last_batch_max = highest;
    });
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << cases[i]->name;
    EXPECT_EQ(batches, 2u);
  }
}

TEST(CaseWaves, OnlyWave32AndWave64) {
  const std::vector<TdvCase> all = conformance_cases();
  const std::vector<const TdvCase*> cases{&all.front()};
  EXPECT_THROW(for_each_case_batch(cases, 16, [](const CaseWaves&) {}), std::invalid_argument);
}

}  // namespace
}  // namespace td::tb

// The cache's requester table against std::map under random inserts and
// erases: many requesters of few clients (collisions and probe runs that
// wrap around), growth, and deletion that shifts entries back.
#include "model/mem/requester_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

namespace td::mem {
namespace {

class NoClient : public MemClient {
 public:
  void mem_ready(uint64_t, uint64_t) override {}
  void mem_retry(uint64_t, uint64_t) override {}
};

TEST(RequesterTable, AgreesWithAMapUnderRandomInsertsAndErases) {
  NoClient clients[3];
  RequesterTable<uint64_t> table;
  std::map<std::pair<const MemClient*, uint64_t>, uint64_t> expected;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    const MemClient* client = &clients[rng() % 3];
    const uint64_t tag = rng() % (step < 100000 ? 40 : 400);  // later: more keys than the first table holds
    const auto key = std::make_pair(client, tag);
    if (rng() % 3 == 0) {
      table.erase(client, tag);
      expected.erase(key);
      ASSERT_EQ(table.find(client, tag), nullptr);
    } else {
      const uint64_t value = rng();
      const auto [slot, added] = table.emplace(client, tag, value);
      const auto [it, inserted] = expected.emplace(key, value);
      ASSERT_EQ(added, inserted);
      ASSERT_EQ(*slot, it->second);
    }
    ASSERT_EQ(table.size(), expected.size());
    if (step % 97 == 0)
      for (const auto& [k, v] : expected) {
        const uint64_t* found = table.find(k.first, k.second);
        ASSERT_NE(found, nullptr) << "step " << step << " tag " << k.second;
        ASSERT_EQ(*found, v);
      }
  }
  table.clear();
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.find(&clients[0], 1), nullptr);
}

}  // namespace
}  // namespace td::mem

// The shader's block of walks: every walk usable in place, aligned as a
// walk must be, and a block of at least a huge page aligned to one (so the
// kernel can back it with huge pages).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "model/ref/intersect.h"
#include "tb/scene/bvh.h"
#include "tb/traversal/functional_trace.h"
#include "tb/traversal/walk_arena.h"
#include "tests/scene/test_meshes.h"

namespace td::traversal {
namespace {

uintptr_t address(const RayTraversal* walk) { return reinterpret_cast<uintptr_t>(walk); }

TEST(WalkArenaTest, EmptyArenaHasNoWalks) {
  WalkArena arena(0);
  EXPECT_EQ(arena.size(), 0u);
}

TEST(WalkArenaTest, SmallArenaIsContiguousAndAligned) {
  WalkArena arena(3);
  ASSERT_EQ(arena.size(), 3u);
  EXPECT_EQ(address(arena.at(0)) % alignof(RayTraversal), 0u);
  EXPECT_EQ(address(arena.at(2)) - address(arena.at(0)), 2 * sizeof(RayTraversal));
  for (size_t i = 0; i < arena.size(); ++i) EXPECT_TRUE(arena.at(i)->done());  // constructed: no walk yet
}

TEST(WalkArenaTest, ArenaOfAHugePageOrMoreIsAlignedToOne) {
  const size_t count = WalkArena::kHugePageBytes / sizeof(RayTraversal) + 1;
  WalkArena arena(count);
  EXPECT_EQ(address(arena.at(0)) % WalkArena::kHugePageBytes, 0u);
  EXPECT_EQ(address(arena.at(count - 1)) - address(arena.at(0)), (count - 1) * sizeof(RayTraversal));
}

TEST(WalkArenaTest, WalksInTheArenaTraceLikeWalksElsewhere) {
  // Neighbouring walks in the block, stepped in turn on the golden
  // reference, find what the functional engine's own walk finds: no state
  // is shared between them.
  const scene::EncodedBvh bvh =
      scene::build_bvh(scene::test::mesh_of({{0, 1, -1}, {1, 1, 1}, {-1, 1, 1}}, {{0, 1, 2}}), scene::BvhOptions{});
  const scene::SceneRay rays[] = {{{0, 0, 0}, {0, 1, 0}, 1e30f},       // hits at t = 1
                                  {{0, 0, 0}, {0, -1, 0}, 1e30f},      // away from it
                                  {{0, 0, 0}, {0, std::nanf(""), 0}, 1e30f}};  // cannot hit
  WalkArena arena(3);
  for (size_t i = 0; i < 3; ++i) arena.at(i)->start(bvh, rays[i], TraversalOptions{});
  EXPECT_TRUE(arena.at(2)->done());
  for (bool stepped = true; stepped;) {
    stepped = false;
    for (size_t i = 0; i < 3; ++i) {
      RayTraversal& walk = *arena.at(i);
      if (walk.done()) continue;
      walk.consume(ref::intersect(bvh.descriptor, walk.next_instruction(), bvh.memory));
      stepped = true;
    }
  }
  for (size_t i = 0; i < 3; ++i) {
    const scene::RayHit alone = trace_ray(bvh, rays[i], TraversalOptions{});
    EXPECT_EQ(arena.at(i)->hit().hit, alone.hit) << "ray " << i;
    EXPECT_EQ(arena.at(i)->hit().t, alone.t) << "ray " << i;
  }
  EXPECT_TRUE(arena.at(0)->hit().hit);
  EXPECT_EQ(arena.at(0)->hit().t, 1.0f);
}

}  // namespace
}  // namespace td::traversal

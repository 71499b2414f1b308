// BLASes placed past the reach of 32-bit node pointers (32 GiB from the
// TLAS): the walk switches to image_bvh64_intersect_ray, and the timing
// model and the functional engine find, bit for bit, the hits of the same
// level with its BLASes right after the TLAS. One chip: its own process.
#include <gtest/gtest.h>

#include <vector>

#include "model/config/config.h"
#include "model/isa/fp32.h"
#include "model/sim/stats.h"
#include "tb/run/hit_sink.h"
#include "tb/run/model_trace_engine.h"
#include "tb/run/ray_source.h"
#include "tb/run/trace_engine.h"
#include "tb/scene/camera_rays.h"
#include "tb/scene/default_level.h"
#include "tb/scene/scene_bvh.h"

namespace td::run {
namespace {

std::vector<TracedRay> traced_by(TraceEngine& engine, const scene::EncodedBvh& bvh) {
  PrimaryRaySource rays(scene::PrimaryRays(scene::default_level_camera(), 48, 27));
  std::vector<TracedRay> out;
  HitSink sink;
  sink.on_ray([&](const TracedRay& traced) { out.push_back(traced); });
  traversal::TraversalOptions options;
  engine.trace(bvh, rays, options, sink);
  sink.commit();
  return out;
}

TEST(FarBlas, BlasesPast32BitPointersAreWalkedWith64BitPointersOnEveryEngine) {
  const scene::Scene level = scene::make_default_level();
  const scene::EncodedBvh near_bvh = scene::build_scene_bvh(level, scene::BvhOptions{});
  scene::BvhOptions far;
  far.blas_address = uint64_t{40} << 30;  // 40 GiB
  const scene::EncodedBvh far_bvh = scene::build_scene_bvh(level, far);
  ASSERT_EQ(near_bvh.op, Opcode::kBvh);
  ASSERT_EQ(far_bvh.op, Opcode::kBvh64);
  EXPECT_GE(far_bvh.blases[level.instances[0].blas].base_unit * 64, far.blas_address);
  // The gap holds nothing and counts in no byte figure.
  EXPECT_EQ(far_bvh.scene_report.bytes, near_bvh.scene_report.bytes);
  EXPECT_EQ(far_bvh.scene_report.blas_bytes, near_bvh.scene_report.blas_bytes);

  FunctionalEngine functional(1);
  const std::vector<TracedRay> reference = traced_by(functional, near_bvh);
  const std::vector<TracedRay> functional_far = traced_by(functional, far_bvh);
  const cfg::Config config = cfg::load_config(std::string(TDSIM_SOURCE_DIR) + "/configs/small.yaml");
  sim::StatsRegistry stats;
  ModelTraceEngine model(config, /*check_every=*/1, stats, nullptr);  // every lane checked
  const std::vector<TracedRay> model_far = traced_by(model, far_bvh);

  ASSERT_EQ(functional_far.size(), reference.size());
  ASSERT_EQ(model_far.size(), reference.size());
  size_t hits = 0;
  for (size_t i = 0; i < reference.size(); ++i)
    for (const std::vector<TracedRay>* far_hits : {&functional_far, &model_far}) {
      const scene::RayHit& a = reference[i].hit;
      const scene::RayHit& b = (*far_hits)[i].hit;
      ASSERT_EQ(b.hit, a.hit) << "ray " << i;
      EXPECT_EQ(bits_of(b.t), bits_of(a.t)) << "ray " << i;
      EXPECT_EQ(b.instance, a.instance) << "ray " << i;
      EXPECT_EQ(b.primitive, a.primitive) << "ray " << i;
      EXPECT_EQ((*far_hits)[i].counters.steps(), reference[i].counters.steps()) << "ray " << i;
      hits += a.hit ? 1 : 0;
    }
  EXPECT_GT(hits, reference.size());  // (counted twice) most rays hit the level
  EXPECT_GT(stats.value("chip.wgp0.td0.loads"), 0u);  // the instance steps read their nodes through the TD
  EXPECT_GT(model.scoreboard().lanes_checked, 0u);
  EXPECT_EQ(model.scoreboard().mismatches, 0u);
}

}  // namespace
}  // namespace td::run

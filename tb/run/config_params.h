// config_params.h — what a run's parts take from the chip's configuration:
// the BVH builder's options (bvh.*), the walk's (shader.stack_entries,
// shader.overflow) and the traversal shader's (shader.*). The one place
// the testbench turns a cfg::Config into its parts' parameters, as
// model/chip/model_params.h is for the model's.
#pragma once

#include <cstdint>

#include "model/config/config.h"
#include "tb/scene/bvh_options.h"
#include "tb/traversal/hit_shading.h"
#include "tb/traversal/ray_traversal.h"
#include "tb/shader/traversal_shader.h"

namespace td::run {

// bvh.*, and parent links in the nodes when shader.overflow asks for them.
scene::BvhOptions bvh_options(const cfg::Config& config);
// shader.stack_entries and shader.overflow; the instance mask and the hit
// mode are the run's.
traversal::TraversalOptions traversal_options(const cfg::Config& config);
// shader.hit_*.
traversal::HitShading hit_shading(const cfg::ShaderConfig& shader);
// shader.*, occupancy as cfg::shader_occupancy() gives it; `check_every`:
// the scoreboard's sampling (1 every instruction, N every Nth, 0 none).
shader::ShaderParams shader_params(const cfg::Config& config, uint64_t check_every);

}  // namespace td::run

#include "tb/run/config_params.h"

namespace td::run {

scene::BvhOptions bvh_options(const cfg::Config& config) {
  const cfg::BvhConfig& c = config.bvh;
  scene::BvhOptions options;
  options.quality = *scene::parse_quality(c.quality);  // the config reader allows only known words
  options.pack = *scene::parse_packing(c.pack);
  options.fp16 = *scene::parse_fp16_policy(c.fp16);
  options.blas_builder = *scene::parse_builder(c.blas_builder);
  options.tlas_builder = *scene::parse_builder(c.tlas_builder);
  options.ploc_radius = c.ploc_radius;
  options.tapu = *scene::parse_tapu_policy(c.tapu);
  options.fp16_threshold = c.fp16_threshold;
  options.max_leaf_size = c.max_leaf_size;
  options.split_budget = c.split_budget;
  options.parent_links = traversal_options(config).overflow == traversal::Overflow::kParentPointers;
  return options;
}

traversal::TraversalOptions traversal_options(const cfg::Config& config) {
  traversal::TraversalOptions options;
  options.stack_entries = config.shader.stack_entries;
  options.overflow = *cfg::value_of<traversal::Overflow>(cfg::overflow_words(), config.shader.overflow);
  return options;
}

traversal::HitShading hit_shading(const cfg::ShaderConfig& shader) {
  traversal::HitShading shading;
  shading.attribute_loads = shader.hit_attribute_loads;
  shading.texture_loads = shader.hit_texture_loads;
  shading.texture_bytes = uint64_t{shader.hit_texture_kib} * 1024;
  shading.alu_instructions = shader.hit_alu_instructions;
  return shading;
}

shader::ShaderParams shader_params(const cfg::Config& config, uint64_t check_every) {
  const cfg::ShaderConfig& c = config.shader;
  shader::ShaderParams params;
  params.lanes_per_wave = c.lanes_per_wave;
  params.simds_per_td = c.simds_per_td;
  params.waves_per_simd = cfg::shader_occupancy(c).waves_per_simd;
  params.stack_entries = c.stack_entries;
  params.alu_instructions_per_iteration = c.alu_instructions_per_iteration;
  params.alu_instructions_per_instance = c.alu_instructions_per_instance;
  params.lds_latency_cycles = c.lds_latency_cycles;
  params.wave_launch_cycles = c.wave_launch_cycles;
  params.shading = hit_shading(c);
  params.check_every = check_every;
  return params;
}

}  // namespace td::run

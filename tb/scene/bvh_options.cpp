#include "tb/scene/bvh_options.h"

#include <fmt/format.h>

#include <cmath>

#include "model/config/config.h"

namespace td::scene {

// Each enum numbers its values in the order of the config's word list for
// its key (cfg::word_of, cfg::value_of).
const char* quality_name(BvhQuality quality) { return cfg::word_of(cfg::quality_words(), quality); }
const char* packing_name(TrianglePacking pack) { return cfg::word_of(cfg::pack_words(), pack); }
const char* fp16_policy_name(Fp16Policy policy) { return cfg::word_of(cfg::fp16_words(), policy); }
const char* builder_name(BvhBuilder builder) { return cfg::word_of(cfg::builder_words(), builder); }
const char* tapu_policy_name(TapuPolicy policy) { return cfg::word_of(cfg::tapu_words(), policy); }

std::optional<BvhQuality> parse_quality(const std::string& word) {
  return cfg::value_of<BvhQuality>(cfg::quality_words(), word);
}
std::optional<TrianglePacking> parse_packing(const std::string& word) {
  return cfg::value_of<TrianglePacking>(cfg::pack_words(), word);
}
std::optional<Fp16Policy> parse_fp16_policy(const std::string& word) {
  return cfg::value_of<Fp16Policy>(cfg::fp16_words(), word);
}
std::optional<BvhBuilder> parse_builder(const std::string& word) {
  return cfg::value_of<BvhBuilder>(cfg::builder_words(), word);
}
std::optional<TapuPolicy> parse_tapu_policy(const std::string& word) {
  return cfg::value_of<TapuPolicy>(cfg::tapu_words(), word);
}

std::string validate(const BvhOptions& options) {
  if (std::isnan(options.fp16_threshold)) return "bvh.fp16_threshold: must be a number (got nan)";
  if (options.max_leaf_size < 1 || options.max_leaf_size > 4)
    return fmt::format("bvh.max_leaf_size: must be 1..4 (got {})", options.max_leaf_size);
  if (!(options.split_budget >= 0 && options.split_budget <= 16))
    return fmt::format("bvh.split_budget: must be 0..16 (got {})", options.split_budget);
  if (options.base_address % 256 != 0 || options.base_address >> 48 != 0)
    return fmt::format("bvh.base_address: must be a multiple of 256 below 2^48 (got {:#x})", options.base_address);
  if (options.blas_address % 256 != 0 || options.blas_address >> 48 != 0)
    return fmt::format("bvh.blas_address: must be a multiple of 256 below 2^48 (got {:#x})", options.blas_address);
  if (options.ploc_radius < 1 || options.ploc_radius > 64)
    return fmt::format("bvh.ploc_radius: must be 1..64 (got {})", options.ploc_radius);
  if (options.box_grow_ulps > 255)
    return fmt::format("bvh.box_grow_ulps: must be 0..255 (got {})", options.box_grow_ulps);
  if (options.return_mode > 1) return fmt::format("bvh.return_mode: must be 0 or 1 (got {})", options.return_mode);
  return {};
}

}  // namespace td::scene

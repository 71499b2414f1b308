#include "tb/scene/bvh_options.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <utility>

namespace td::scene {

namespace {

constexpr std::array<std::pair<const char*, Fp16Policy>, 4> kFp16Policies = {{
    {"none", Fp16Policy::kNone}, {"leaf", Fp16Policy::kLeaf}, {"mixed", Fp16Policy::kMixed}, {"all", Fp16Policy::kAll}}};

constexpr std::array<std::pair<const char*, BvhBuilder>, 3> kBuilders = {
    {{"sah", BvhBuilder::kSah}, {"lbvh", BvhBuilder::kLbvh}, {"ploc", BvhBuilder::kPloc}}};

constexpr std::array<std::pair<const char*, TapuPolicy>, 4> kTapuPolicies = {{{"off", TapuPolicy::kOff},
                                                                              {"scene", TapuPolicy::kScene},
                                                                              {"4", TapuPolicy::kTapu4},
                                                                              {"16", TapuPolicy::kTapu16}}};

// A word table's name of `value` ("?" if absent), and its value of `word`.
template <typename Table, typename Value>
const char* name_in(const Table& table, Value value) {
  for (const auto& [name, v] : table)
    if (v == value) return name;
  return "?";
}
template <typename Table>
auto value_in(const Table& table, const std::string& word) -> std::optional<decltype(table[0].second)> {
  for (const auto& [name, value] : table)
    if (word == name) return value;
  return std::nullopt;
}

}  // namespace

const char* builder_name(BvhBuilder builder) { return name_in(kBuilders, builder); }
std::optional<BvhBuilder> parse_builder(const std::string& word) { return value_in(kBuilders, word); }
const char* fp16_policy_name(Fp16Policy policy) { return name_in(kFp16Policies, policy); }
std::optional<Fp16Policy> parse_fp16_policy(const std::string& word) { return value_in(kFp16Policies, word); }
const char* tapu_policy_name(TapuPolicy policy) { return name_in(kTapuPolicies, policy); }
std::optional<TapuPolicy> parse_tapu_policy(const std::string& word) { return value_in(kTapuPolicies, word); }

const char* quality_name(BvhQuality quality) { return quality == BvhQuality::kHigh ? "high" : "normal"; }

const char* packing_name(TrianglePacking pack) {
  switch (pack) {
    case TrianglePacking::kSingle: return "single";
    case TrianglePacking::kPairs: return "pairs";
    case TrianglePacking::kStrips: return "strips";
  }
  return "?";
}

std::optional<BvhQuality> parse_quality(const std::string& word) {
  if (word == "normal") return BvhQuality::kNormal;
  if (word == "high") return BvhQuality::kHigh;
  return std::nullopt;
}

std::optional<TrianglePacking> parse_packing(const std::string& word) {
  if (word == "single") return TrianglePacking::kSingle;
  if (word == "pairs") return TrianglePacking::kPairs;
  if (word == "strips") return TrianglePacking::kStrips;
  return std::nullopt;
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

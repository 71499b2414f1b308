// bvh_options.h — how a mesh becomes a hardware BVH: build quality, the FP16
// box threshold, triangle packing, leaf size and descriptor settings. A
// plain struct that the CLI/YAML layer fills; parse_* turn the option words
// into values and name the key on a bad one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace td::scene {

// normal: Embree's binned SAH. high: SAH with spatial splits (the seeds'
// "triangle splitting": a long, thin, off-axis triangle is referenced from
// several boxes that each bound a piece of it).
// (In cfg::quality_words()'s order.)
enum class BvhQuality : uint8_t { kNormal, kHigh };

// How triangles share 64-byte triangle nodes (5 vertices, 4 triangles):
// single: one triangle per node (triangle 0 only).
// pairs: two triangles sharing an edge (the seeds' "quads": triangles 0, 1).
// strips: up to four edge-connected triangles around one shared vertex V2
//         (triangles 0..3 form a fan V0-V1-V3-V4 about V2).
// (In cfg::pack_words()'s order.)
enum class TrianglePacking : uint8_t { kSingle, kPairs, kStrips };

// Which box nodes are FP16, as gpurt's Fp16BoxNodesInBlasMode (BuildQBVH.hlsl,
// OverrideFp32BoxNodeToFp16) on a 4-wide tree:
// none: every box node FP32.
// leaf: the box nodes with a triangle among their children (the level just
//       above the leaves, where most nodes are and boxes are smallest).
// mixed: a box node whose boxes rounding outward to binary16 grows by at most
//       fp16_threshold of their surface area (gpurt's Mixed, and the seeds'
//       FP16 box inflation threshold).
// all: every box node.
// A BLAS root is FP32 whatever the policy (gpurt's root pointer is always a
// box32), and the TLAS is FP32 throughout (gpurt's ForceDisableFp16BoxNodes
// turns FP16 off for top-level builds).
// (In cfg::fp16_words()'s order.)
enum class Fp16Policy : uint8_t { kNone, kLeaf, kMixed, kAll };

// Which builder makes a BVH's tree: sah, Embree's offline SAH builder
// (embree_build.h: quality, max_leaf_size and split_budget apply to it
// only); lbvh and ploc, the drivers' run-time builders (runtime_build.h).
// (In cfg::builder_words()'s order.)
enum class BvhBuilder : uint8_t { kSah, kLbvh, kPloc };

// Which instances the TLAS pulls up (TAPU, scene_bvh.h; Instance::tapu):
// off: none; scene: those the scene flags (a glTF node's extras, the
// default level's traffic lights and power lines), as a title flags a few;
// 4 / 16: every instance, by one or two BLAS levels.
// (In cfg::tapu_words()'s order.)
enum class TapuPolicy : uint8_t { kOff, kScene, kTapu4, kTapu16 };

struct BvhOptions {
  BvhQuality quality = BvhQuality::kNormal;

  Fp16Policy fp16 = Fp16Policy::kMixed;

  // The builder of a BLAS (and of a one-level BVH) and of a TLAS; PLOC's
  // search radius (1..64).
  BvhBuilder blas_builder = BvhBuilder::kSah;
  BvhBuilder tlas_builder = BvhBuilder::kSah;
  uint32_t ploc_radius = 10;
  TapuPolicy tapu = TapuPolicy::kScene;

  // Mixed: a box node is stored as FP16 (64 B) when rounding its four child boxes
  // outward to binary16 grows their total surface area by at most this
  // fraction; otherwise FP32 (128 B). 0.1 = at most 10 % more area, i.e.
  // about 10 % more ray/box hits below the node under the SAH's uniform-ray
  // model. Negative: FP32 everywhere; +Inf: FP16 everywhere (boxes still
  // contain their geometry, saturating to +-Inf past binary16's range).
  double fp16_threshold = 0.1;

  TrianglePacking pack = TrianglePacking::kStrips;

  // Most triangles Embree may leave in one leaf (1..4). A leaf of k > 1
  // triangles becomes one box node whose k slots address them one by one.
  uint32_t max_leaf_size = 1;

  // Extra triangle references spatial splits may create, as a fraction of
  // the triangle count (quality high only): the seeds' TriangleSplitFactor.
  double split_budget = 1.0;

  // Descriptor: base address (a multiple of 256), box_grow (ULPs added to
  // each box's far distance: absorbs the slab test's rounding so a ray that
  // hits a triangle also hits every box around it) and the triangle return
  // mode (1: barycentrics, node id = remap bits; 0: id + t, node id = 4 x
  // triangle-node ordinal, an index into EncodedBvh::slot_primitive).
  uint64_t base_address = 0;
  // Two levels: the first BLAS starts at this byte address (a multiple of
  // 256) or, if the TLAS reaches past it, right after the TLAS (0: always
  // right after). A driver places each BLAS in its own allocation anywhere
  // in the GPU's address space; one past 32 GiB from the TLAS makes the
  // walk use 64-bit node pointers (image_bvh64_intersect_ray). The gap
  // holds nothing and counts in no byte figure.
  uint64_t blas_address = 0;
  // Parent links, as the drivers store them for a short stack's way back
  // (RADV radv_acceleration_structure.c, gpurt CalcParentPtrOffset): the
  // node pointer of each node's parent, 4 bytes per 64-byte unit, at
  // negative offsets from the BVH's base (the link of the node at unit u
  // is at base - 4 u - 4; the root's is all ones); for a TLAS and every
  // BLAS alike. Each box node then gets triangle nodes of its own (a
  // triangle node has one parent), and a triangle placed by several box
  // nodes (spatial splits) is stored once for each.
  bool parent_links = false;
  uint32_t box_grow_ulps = 4;
  uint32_t return_mode = 1;
};

// The words of the bvh keys (cfg::quality_words() and the others, whose
// orders the enums above follow): a value's word, and a word's value
// (std::nullopt for a word the key does not take).
const char* quality_name(BvhQuality quality);
const char* packing_name(TrianglePacking pack);
const char* fp16_policy_name(Fp16Policy policy);
const char* builder_name(BvhBuilder builder);
const char* tapu_policy_name(TapuPolicy policy);
std::optional<BvhQuality> parse_quality(const std::string& word);
std::optional<TrianglePacking> parse_packing(const std::string& word);
std::optional<Fp16Policy> parse_fp16_policy(const std::string& word);
std::optional<BvhBuilder> parse_builder(const std::string& word);
std::optional<TapuPolicy> parse_tapu_policy(const std::string& word);

// Empty when valid, else one line naming the option: "bvh.max_leaf_size:
// must be 1..4 (got 7)".
std::string validate(const BvhOptions& options);

}  // namespace td::scene

// scene_bvh.h — a two-level Scene to one traceable image: every BLAS built
// once (bvh.blas_builder, its root an FP32 box node), a TLAS
// (bvh.tlas_builder) over the instances' world boxes whose leaves are
// instance nodes, laid out as encoded_bvh.h describes.
//
// TLAS pull-up (TAPU: seeds 001 and 003, XDXR's INSTANCE_FLAG_TAPU4 and
// TAPU16): an instance with tapu 4 gives the TLAS builder the world boxes
// of its BLAS root's children instead of one box, tapu 16 those of its
// grandchildren (a child that is a triangle node stays as it is); each
// becomes a TLAS leaf of its own, an instance node whose start pointer
// (gpurt's blasNodePointer) is that node of the BLAS. A ray passing
// through the instance's empty space then meets no instance node.
#pragma once

#include "tb/scene/bvh_options.h"
#include "tb/scene/encoded_bvh.h"
#include "tb/scene/scene.h"

namespace td::scene {

// The world box of a BLAS box placed by `object_to_world`: its eight
// corners transformed in double, rounded outward to binary32 and widened by
// 2^-20 of the box's size and position, so that a ray transformed to object
// space in binary32 and hitting the BLAS also hits this box.
Aabb world_box(const Aabb& object_box, const Transform3x4& object_to_world);

// The inverse of an affine transform, computed in double and rounded to
// binary32. Throws SceneError naming `where` when it is singular or has a
// non-finite entry.
Transform3x4 inverse(const Transform3x4& transform, const std::string& where);

// Same scene and options, same bytes, for any number of host `threads` (as
// build_bvh). The BLASes' build times add up in the report's
// build_seconds. Throws SceneError when no instance has a usable triangle,
// std::invalid_argument for bad options.
EncodedBvh build_scene_bvh(const Scene& scene, const BvhOptions& options, unsigned threads = 1);

}  // namespace td::scene

#include "tb/scene/bvh.h"

#include <chrono>
#include <stdexcept>

#include "tb/scene/bvh_encoder.h"
#include "tb/scene/embree_build.h"
#include "tb/scene/runtime_build.h"

namespace td::scene {

EncodedBvh build_bvh(const Mesh& mesh, const BvhOptions& options, unsigned threads) {
  const std::string problem = validate(options);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const auto start = std::chrono::steady_clock::now();
  const BvhTree tree = options.blas_builder == BvhBuilder::kSah
                           ? build_bvh_tree(mesh, options)
                           : build_runtime_tree(mesh, options.blas_builder, options.ploc_radius, threads);
  const double build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EncodedBvh bvh = encode_bvh(mesh, tree, options);
  bvh.report.build_seconds = build_seconds;
  bvh.report.builder = builder_name(options.blas_builder);
  return bvh;
}

}  // namespace td::scene

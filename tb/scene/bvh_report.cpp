#include "tb/scene/bvh_report.h"

#include <fmt/format.h>

namespace td::scene {

std::string format_report(const BvhReport& r) {
  std::string out;
  const auto line = [&out](const char* name, const std::string& value) {
    out += fmt::format("  {:<28}{}\n", name, value);
  };
  line("builder", r.builder);
  line("triangles", fmt::format("{} ({} degenerate left out)", r.triangles, r.degenerate_triangles));
  line("triangle references", fmt::format("{}", r.triangle_references));
  line("box nodes fp16 / fp32", fmt::format("{} / {} ({:.1f}% fp16)", r.box16_nodes, r.box32_nodes,
                                               100 * r.fp16_fraction));
  line("triangle nodes", fmt::format("{} ({:.2f} triangles each; 1/2/3/4: {}/{}/{}/{})", r.triangle_nodes,
                                     r.triangles_per_triangle_node, r.triangle_nodes_holding[0],
                                     r.triangle_nodes_holding[1], r.triangle_nodes_holding[2],
                                     r.triangle_nodes_holding[3]));
  line("bytes", fmt::format("{} ({:.1f} per triangle, {} padding units)", r.bytes, r.bytes_per_triangle,
                            r.padding_units));
  if (r.link_bytes > 0) line("parent links", fmt::format("{} bytes (in the bytes above)", r.link_bytes));
  line("depth", fmt::format("{}", r.depth));
  line("SAH cost", fmt::format("{:.2f} TD operations per ray", r.sah_cost));
  line("build / encode time", fmt::format("{:.3f} s / {:.3f} s", r.build_seconds, r.encode_seconds));
  return out;
}

std::string format_report(const SceneReport& r, const BvhReport& tlas) {
  std::string out;
  const auto line = [&out](const char* name, const std::string& value) {
    out += fmt::format("  {:<28}{}\n", name, value);
  };
  line("builders TLAS / BLAS", fmt::format("{} / {}", tlas.builder, r.blas_totals.builder));
  line("instances", fmt::format("{} ({} placed) of {} BLASes", r.instances, r.placed_instances, r.blases));
  if (r.pulled_up_instances > 0)
    line("TAPU", fmt::format("{} instances pulled up: {} instance nodes, {} more than one each",
                             r.pulled_up_instances, r.instance_nodes, r.instance_nodes - r.placed_instances));
  line("triangles unique / placed", fmt::format("{} / {}", r.unique_triangles, r.instanced_triangles));
  line("TLAS box nodes fp16 / fp32", fmt::format("{} / {} ({:.1f}% fp16), depth {}", tlas.box16_nodes,
                                                   tlas.box32_nodes, 100 * tlas.fp16_fraction, tlas.depth));
  line("TLAS bytes", fmt::format("{} ({} in instance nodes)", r.tlas_bytes, r.instance_node_bytes));
  const BvhReport& b = r.blas_totals;
  line("BLAS box nodes fp16 / fp32", fmt::format("{} / {} ({:.1f}% fp16), deepest {}", b.box16_nodes, b.box32_nodes,
                                                   100 * b.fp16_fraction, b.depth));
  line("BLAS triangle nodes", fmt::format("{} ({:.2f} triangles each; 1/2/3/4: {}/{}/{}/{})", b.triangle_nodes,
                                          b.triangles_per_triangle_node, b.triangle_nodes_holding[0],
                                          b.triangle_nodes_holding[1], b.triangle_nodes_holding[2],
                                          b.triangle_nodes_holding[3]));
  line("BLAS bytes", fmt::format("{} ({:.1f} per unique triangle)", r.blas_bytes, b.bytes_per_triangle));
  line("bytes", fmt::format("{}", r.bytes));
  if (b.link_bytes > 0)
    line("parent links", fmt::format("{} bytes, TLAS {} (in the bytes above)", b.link_bytes + tlas.link_bytes,
                                     tlas.link_bytes));
  line("TLAS SAH cost", fmt::format("{:.2f} TD operations per ray", tlas.sah_cost));
  line("build time", fmt::format("{:.3f} s", r.build_seconds));
  return out;
}

}  // namespace td::scene

#include "tb/scene/bvh_report.h"

#include <fmt/format.h>

namespace td::scene {

std::string format_report(const BvhReport& r) {
  std::string out;
  const auto line = [&out](const char* name, const std::string& value) {
    out += fmt::format("  {:<28}{}\n", name, value);
  };
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
  line("depth", fmt::format("{}", r.depth));
  line("SAH cost", fmt::format("{:.2f} TD operations per ray", r.sah_cost));
  line("build / encode time", fmt::format("{:.3f} s / {:.3f} s", r.build_seconds, r.encode_seconds));
  return out;
}

}  // namespace td::scene

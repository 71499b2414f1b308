#include "tests/scene/gltf_writer.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace td::scene::test {

namespace {

using Matrix = std::array<double, 12>;

Matrix to_double(const Transform3x4& t) {
  Matrix m{};
  for (int i = 0; i < 12; ++i) m[i] = t.m[i];
  return m;
}

Matrix compose(const Matrix& parent, const Matrix& local) {
  Matrix out{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      out[4 * r + c] = parent[4 * r] * local[c] + parent[4 * r + 1] * local[4 + c] +
                       parent[4 * r + 2] * local[8 + c] + (c == 3 ? parent[4 * r + 3] : 0.0);
  return out;
}

void walk(const std::vector<GltfNode>& nodes, uint32_t index, const Matrix& parent, std::vector<Instance>& out) {
  const GltfNode& node = nodes[index];
  const Matrix world = compose(parent, to_double(node.local));
  if (node.mesh) {
    Instance instance;
    instance.blas = *node.mesh;
    for (int i = 0; i < 12; ++i) instance.object_to_world.m[i] = static_cast<float>(world[i]);
    instance.mask = node.mask ? static_cast<uint8_t>(*node.mask) : 0xff;
    instance.tapu = node.tapu ? static_cast<uint8_t>(*node.tapu) : 0;
    instance.node = node.name;
    out.push_back(instance);
  }
  for (uint32_t child : node.children) walk(nodes, child, world, out);
}

std::vector<uint32_t> roots(const std::vector<GltfNode>& nodes) {
  std::vector<bool> is_child(nodes.size(), false);
  for (const GltfNode& node : nodes)
    for (uint32_t child : node.children) is_child.at(child) = true;
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < nodes.size(); ++i)
    if (!is_child[i]) out.push_back(i);
  return out;
}

std::string list(const std::vector<uint32_t>& values) {
  std::string out;
  for (uint32_t v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

}  // namespace

Transform3x4 make_transform(const Vec3& axis, double angle, const Vec3& scale, const Vec3& translation) {
  const double c = std::cos(angle), s = std::sin(angle), k = 1 - c;
  const double x = axis[0], y = axis[1], z = axis[2];
  const double r[3][3] = {{c + x * x * k, x * y * k - z * s, x * z * k + y * s},
                          {y * x * k + z * s, c + y * y * k, y * z * k - x * s},
                          {z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
  Transform3x4 t;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) t.m[4 * row + col] = static_cast<float>(r[row][col] * scale[col]);
    t.m[4 * row + 3] = translation[row];
  }
  return t;
}

std::vector<Instance> expected_instances(const std::vector<GltfNode>& nodes) {
  std::vector<Instance> out;
  for (uint32_t root : roots(nodes)) walk(nodes, root, Matrix{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, out);
  return out;
}

void write_gltf(const std::string& path, const std::vector<Mesh>& meshes, const std::vector<GltfNode>& nodes) {
  const std::string bin_path = path + ".bin";
  std::ofstream bin(bin_path, std::ios::binary | std::ios::trunc);
  std::string views, accessors, mesh_list;
  uint64_t offset = 0;
  for (size_t m = 0; m < meshes.size(); ++m) {
    const Mesh& mesh = meshes[m];
    Vec3 lo{HUGE_VALF, HUGE_VALF, HUGE_VALF}, hi{-HUGE_VALF, -HUGE_VALF, -HUGE_VALF};
    for (const Vec3& p : mesh.positions)
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::fmin(lo[a], p[a]);
        hi[a] = std::fmax(hi[a], p[a]);
      }
    const uint64_t position_bytes = mesh.positions.size() * sizeof(Vec3);
    const uint64_t index_bytes = mesh.triangles.size() * sizeof(TriangleIndices);
    bin.write(reinterpret_cast<const char*>(mesh.positions.data()), static_cast<std::streamsize>(position_bytes));
    bin.write(reinterpret_cast<const char*>(mesh.triangles.data()), static_cast<std::streamsize>(index_bytes));
    views += fmt::format("{}{{\"buffer\":0,\"byteOffset\":{},\"byteLength\":{}}},{{\"buffer\":0,\"byteOffset\":{},"
                         "\"byteLength\":{}}}",
                         m ? "," : "", offset, position_bytes, offset + position_bytes, index_bytes);
    accessors += fmt::format(
        "{}{{\"bufferView\":{},\"componentType\":5126,\"count\":{},\"type\":\"VEC3\",\"min\":[{:.9g},{:.9g},{:.9g}],"
        "\"max\":[{:.9g},{:.9g},{:.9g}]}},{{\"bufferView\":{},\"componentType\":5125,\"count\":{},\"type\":\"SCALAR\"}}",
        m ? "," : "", 2 * m, mesh.positions.size(), lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], 2 * m + 1,
        3 * mesh.triangles.size());
    mesh_list += fmt::format("{}{{\"name\":\"mesh{}\",\"primitives\":[{{\"attributes\":{{\"POSITION\":{}}},"
                             "\"indices\":{},\"mode\":4}}]}}",
                             m ? "," : "", m, 2 * m, 2 * m + 1);
    offset += position_bytes + index_bytes;
  }
  bin.close();
  std::string node_list;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const GltfNode& node = nodes[n];
    const auto& t = node.local.m;
    // glTF matrices are column-major.
    std::string entry = fmt::format(
        "{{\"name\":\"{}\",\"matrix\":[{:.9g},{:.9g},{:.9g},0,{:.9g},{:.9g},{:.9g},0,{:.9g},{:.9g},{:.9g},0,{:.9g},"
        "{:.9g},{:.9g},1]",
        node.name, t[0], t[4], t[8], t[1], t[5], t[9], t[2], t[6], t[10], t[3], t[7], t[11]);
    if (node.mesh) entry += fmt::format(",\"mesh\":{}", *node.mesh);
    if (!node.children.empty()) entry += ",\"children\":[" + list(node.children) + "]";
    std::string extras;
    if (node.mask) extras += fmt::format("\"mask\":{}", *node.mask);
    if (node.tapu) extras += fmt::format("{}\"tapu\":{}", extras.empty() ? "" : ",", *node.tapu);
    if (!extras.empty()) entry += ",\"extras\":{\"tdsim\":{" + extras + "}}";
    node_list += (n ? "," : "") + entry + "}";
  }
  std::ofstream out(path, std::ios::trunc);
  out << fmt::format(
      "{{\"asset\":{{\"version\":\"2.0\"}},\"scene\":0,\"scenes\":[{{\"nodes\":[{}]}}],\"nodes\":[{}],\"meshes\":[{}],"
      "\"buffers\":[{{\"byteLength\":{},\"uri\":\"{}\"}}],\"bufferViews\":[{}],\"accessors\":[{}]}}\n",
      list(roots(nodes)), node_list, mesh_list, offset, std::filesystem::path(bin_path).filename().string(), views,
      accessors);
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace td::scene::test

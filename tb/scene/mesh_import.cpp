#include "tb/scene/mesh_import.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <assimp/Importer.hpp>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <functional>
#include <cmath>
#include <fstream>

#include "model/sim/interrupt.h"
#include "tb/common/forked_call.h"
#include "tb/scene/scene_error.h"

namespace td::scene {

namespace {

// Assimp's messages may span lines; the error must stay one line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

void append_triangles(const aiMesh& source, Mesh& mesh) {
  const auto first_vertex = static_cast<uint32_t>(mesh.positions.size());
  for (unsigned v = 0; v < source.mNumVertices; ++v) {
    const aiVector3D& p = source.mVertices[v];
    mesh.positions.push_back(Vec3{p.x, p.y, p.z});
  }
  for (unsigned f = 0; f < source.mNumFaces; ++f) {
    const aiFace& face = source.mFaces[f];
    if (face.mNumIndices != 3) continue;  // points and lines: nothing to hit
    for (unsigned corner = 0; corner < 3; ++corner)
      if (face.mIndices[corner] >= source.mNumVertices)
        throw SceneError(fmt::format("face {} refers to vertex {} of {}", f, face.mIndices[corner],
                                     source.mNumVertices));
    mesh.triangles.push_back(TriangleIndices{first_vertex + face.mIndices[0], first_vertex + face.mIndices[1],
                                             first_vertex + face.mIndices[2]});
  }
}

// Assimp's PLY reader never returns from a header that does not end in an
// end_header line (the mesh fuzz target found truncated ones, and
// "end_header" with no line break or another byte after it): a file named
// .ply or starting like PLY must end its header within kPlyHeaderBytes. (The
// child process's time limit catches any other hang; this says why at once.)
constexpr size_t kPlyHeaderBytes = 64 * 1024;
bool ends_header_line(const std::string& head) {
  for (size_t at = head.find("\nend_header"); at != std::string::npos; at = head.find("\nend_header", at + 1)) {
    const size_t after = at + std::strlen("\nend_header");
    if (after < head.size() && (head[after] == '\n' || head[after] == '\r')) return true;
  }
  return false;
}
void check_ply_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kPlyHeaderBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  std::string start = head.substr(0, 3), extension = std::filesystem::path(path).extension().string();
  for (std::string* text : {&start, &extension})
    for (char& c : *text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if ((start == "ply" || extension == ".ply") && !ends_header_line(head))
    throw SceneError(fmt::format("{}: PLY header has no end_header line in its first {} KiB", path,
                                 kPlyHeaderBytes / 1024));
}

// What the importing child leaves in its answer file: a mesh, a scene, or
// the importer's own error message.
constexpr char kAnswerMagic[8] = "tdmesh2";
enum class Answer : uint32_t { kMesh = 0, kError = 1, kScene = 2 };

template <typename T>
void write_pod(std::ofstream& out, const T& value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}
template <typename T>
bool read_pod(std::ifstream& in, T& value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}

void write_string(std::ofstream& out, const std::string& text) {
  write_pod(out, static_cast<uint32_t>(text.size()));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void write_mesh(std::ofstream& out, const Mesh& mesh) {
  write_pod(out, static_cast<uint64_t>(mesh.positions.size()));
  write_pod(out, static_cast<uint64_t>(mesh.triangles.size()));
  out.write(reinterpret_cast<const char*>(mesh.positions.data()),
            static_cast<std::streamsize>(mesh.positions.size() * sizeof(Vec3)));
  out.write(reinterpret_cast<const char*>(mesh.triangles.data()),
            static_cast<std::streamsize>(mesh.triangles.size() * sizeof(TriangleIndices)));
}

// A node's place in the graph, for errors: "Root/Car/Wheel.001".
std::string node_path(const aiNode& node) {
  std::string path = node.mName.length > 0 ? node.mName.C_Str() : "(unnamed)";
  for (const aiNode* up = node.mParent; up != nullptr; up = up->mParent)
    path = std::string(up->mName.length > 0 ? up->mName.C_Str() : "(unnamed)") + "/" + path;
  return path;
}

// A whole number from the node's glTF extras {"tdsim": {key: value}}
// (Assimp keeps a node's extras as its metadata): `fallback` without one;
// `rule` says what the value must be, `allowed` checks it.
template <typename Allowed>
int node_extra(const aiNode& node, const char* key, int fallback, const char* rule, Allowed allowed) {
  if (node.mMetaData == nullptr) return fallback;
  aiMetadata tdsim;
  if (!node.mMetaData->Get("tdsim", tdsim)) return fallback;
  const std::string where = fmt::format("node '{}': extras tdsim.{}", node_path(node), key);
  for (unsigned k = 0; k < tdsim.mNumProperties; ++k) {
    if (std::string(tdsim.mKeys[k].C_Str()) != key) continue;
    const aiMetadataEntry& entry = tdsim.mValues[k];
    double value = -1;
    switch (entry.mType) {
      case AI_INT32: value = *static_cast<const int32_t*>(entry.mData); break;
      case AI_UINT64: value = static_cast<double>(*static_cast<const uint64_t*>(entry.mData)); break;
      case AI_FLOAT: value = *static_cast<const float*>(entry.mData); break;
      case AI_DOUBLE: value = *static_cast<const double*>(entry.mData); break;
      default: throw SceneError(fmt::format("{}: must be {}", where, rule));
    }
    if (!(value >= 0 && value <= 255) || value != static_cast<double>(static_cast<int>(value)) ||
        !allowed(static_cast<int>(value)))
      throw SceneError(fmt::format("{}: must be {} (got {})", where, rule, value));
    return static_cast<int>(value);
  }
  return fallback;
}

// The node's visibility mask, {"tdsim": {"mask": 0-255}}; 0xff without one.
uint8_t node_mask(const aiNode& node) {
  return static_cast<uint8_t>(node_extra(node, "mask", 0xff, "a whole number 0..255", [](int) { return true; }));
}

// The node's TLAS pull-up, {"tdsim": {"tapu": 0, 4 or 16}}; 0 without one.
uint8_t node_tapu(const aiNode& node) {
  return static_cast<uint8_t>(
      node_extra(node, "tapu", 0, "0, 4 or 16", [](int value) { return value == 0 || value == 4 || value == 16; }));
}

// Every (node, mesh) pair in a depth-first pre-order walk from the root,
// a node's meshes in order: one instance each, with the node's accumulated
// transform (in double, rounded to binary32 once).
struct PlacedMesh {
  uint32_t mesh = 0;
  std::array<double, 12> transform{};
  uint8_t mask = 0xff;
  uint8_t tapu = 0;
  std::string node;
};
void place_meshes(const aiNode& node, const std::array<double, 12>& parent, std::vector<PlacedMesh>& out) {
  const aiMatrix4x4& local = node.mTransformation;
  const double l[3][4] = {{local.a1, local.a2, local.a3, local.a4},
                          {local.b1, local.b2, local.b3, local.b4},
                          {local.c1, local.c2, local.c3, local.c4}};
  std::array<double, 12> world{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      world[4 * r + c] = parent[4 * r] * l[0][c] + parent[4 * r + 1] * l[1][c] + parent[4 * r + 2] * l[2][c] +
                         (c == 3 ? parent[4 * r + 3] : 0.0);
  if (node.mNumMeshes > 0) {
    const uint8_t mask = node_mask(node), tapu = node_tapu(node);
    const std::string path = node_path(node);
    for (unsigned k = 0; k < node.mNumMeshes; ++k) {
      if (out.size() >= kMaxInstances)
        throw SceneError(fmt::format("more than 2^24 instances (node '{}')", path));
      out.push_back(PlacedMesh{node.mMeshes[k], world, mask, tapu, path});
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) place_meshes(*node.mChildren[c], world, out);
}

void write_scene(std::ofstream& out, const aiScene& scene) {
  std::vector<PlacedMesh> placed;
  if (scene.mRootNode != nullptr) place_meshes(*scene.mRootNode, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, placed);
  write_pod(out, static_cast<uint64_t>(scene.mNumMeshes));
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    Mesh mesh;
    append_triangles(*scene.mMeshes[m], mesh);
    write_string(out, scene.mMeshes[m]->mName.C_Str());
    write_mesh(out, mesh);
  }
  write_pod(out, static_cast<uint64_t>(placed.size()));
  for (const PlacedMesh& p : placed) {
    write_pod(out, p.mesh);
    write_pod(out, p.transform);
    write_pod(out, p.mask);
    write_pod(out, p.tapu);
    write_string(out, p.node);
  }
}

// The child's work: Assimp reads `path`; the triangles (one mesh, node
// transforms applied), the scene (meshes and placements) or the reason go
// to `answer_path`.
int import_with_assimp(const std::string& path, const std::string& answer_path, Answer want) {
  std::ofstream out(answer_path, std::ios::binary | std::ios::trunc);
  out.write(kAnswerMagic, sizeof kAnswerMagic);
  std::string error;
  try {
    Assimp::Importer importer;
    // Drop points and lines at import so SortByPType leaves triangle meshes only.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const unsigned flags = aiProcess_Triangulate | aiProcess_SortByPType |
                           (want == Answer::kMesh ? aiProcess_PreTransformVertices : 0u);
    const aiScene* scene = importer.ReadFile(path, flags);
    if (scene == nullptr) {
      error = one_line(importer.GetErrorString());
    } else {
      write_pod(out, want);
      if (want == Answer::kMesh) {
        Mesh mesh;
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) append_triangles(*scene->mMeshes[m], mesh);
        write_mesh(out, mesh);
      } else {
        write_scene(out, *scene);
      }
    }
  } catch (const std::exception& e) {  // SceneError, std::bad_alloc past the memory limit, Assimp's own
    error = one_line(e.what());
  }
  if (!error.empty()) {
    out.seekp(sizeof kAnswerMagic);
    write_pod(out, Answer::kError);
    write_pod(out, static_cast<uint32_t>(error.size()));
    out.write(error.data(), static_cast<std::streamsize>(error.size()));
  }
  out.close();
  if (!error.empty()) std::filesystem::resize_file(answer_path, sizeof kAnswerMagic + sizeof(Answer) + 4 + error.size());
  return out ? 0 : 3;
}

// The child's answer file: made here, removed when this goes (and by a second SIGINT/SIGTERM).
class AnswerFile {
 public:
  AnswerFile() {
    path_ = (std::filesystem::temp_directory_path() / "tdsim-mesh-XXXXXX").string();
    const int fd = mkstemp(path_.data());
    if (fd < 0) throw SceneError("cannot make a temporary file under " + path_);
    close(fd);
    slot_ = sim::register_temp_file(path_);
  }
  ~AnswerFile() {
    sim::unregister_temp_file(slot_);
    std::remove(path_.c_str());
  }
  AnswerFile(const AnswerFile&) = delete;
  AnswerFile& operator=(const AnswerFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int slot_ = -1;
};

// The child's answer file, read back: every count is checked against the
// bytes left, so a short or broken answer is an error, not an allocation.
class AnswerReader {
 public:
  AnswerReader(const std::string& path, const std::string& answer_path)
      : path_(path), in_(answer_path, std::ios::binary), left_(std::filesystem::file_size(answer_path)) {}

  // The answer's kind; throws the importer's own error for kError.
  Answer kind() {
    char magic[sizeof kAnswerMagic] = {};
    Answer answer{};
    if (!bytes(magic, sizeof magic) || std::memcmp(magic, kAnswerMagic, sizeof magic) != 0 || !pod(answer))
      throw SceneError(fmt::format("{}: cannot read mesh: the importer gave no answer", path_));
    if (answer == Answer::kError) {
      uint32_t length = 0;
      std::string message;
      if (pod(length) && length <= left_) {
        message.resize(length);
        bytes(message.data(), length);
      }
      throw SceneError(fmt::format("{}: cannot read mesh: {}", path_, message));
    }
    return answer;
  }
  template <typename T>
  T pod() {
    T value{};
    if (!pod(value)) cut_short();
    return value;
  }
  std::string string() {
    const auto length = pod<uint32_t>();
    if (length > left_) cut_short();
    std::string text(length, '\0');
    bytes(text.data(), length);
    return text;
  }
  void mesh(Mesh& mesh) {
    const auto positions = pod<uint64_t>(), triangles = pod<uint64_t>();
    if (positions > left_ / sizeof(Vec3) || triangles > left_ / sizeof(TriangleIndices) ||
        positions * sizeof(Vec3) + triangles * sizeof(TriangleIndices) > left_)
      cut_short();
    mesh.positions.resize(positions);
    mesh.triangles.resize(triangles);
    bytes(mesh.positions.data(), positions * sizeof(Vec3));
    bytes(mesh.triangles.data(), triangles * sizeof(TriangleIndices));
  }
  uint64_t count(size_t least_bytes_each) {
    const auto n = pod<uint64_t>();
    if (n > left_ / least_bytes_each) cut_short();
    return n;
  }
  void expect_end() const {
    if (left_ != 0) cut_short();
  }

 private:
  template <typename T>
  bool pod(T& value) {
    return bytes(&value, sizeof value);
  }
  bool bytes(void* out, size_t length) {
    if (length > left_) return false;
    if (!in_.read(static_cast<char*>(out), static_cast<std::streamsize>(length))) return false;
    left_ -= length;
    return true;
  }
  [[noreturn]] void cut_short() const {
    throw SceneError(fmt::format("{}: cannot read mesh: the importer's answer is cut short", path_));
  }

  std::string path_;
  std::ifstream in_;
  uint64_t left_;
};

// Imports `path` in a child process (see load_mesh()).
void import_forked(const std::string& path, const tb::ForkLimits& limits, Answer want,
                   const std::function<void(AnswerReader&)>& read) {
  // Assimp says "file not found" in its own words; an explicit check names
  // the cause the way every other input error of the tool does.
  // A FIFO would block the open itself, and Assimp reads only files it can
  // size: anything but a regular file is refused first.
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw SceneError(fmt::format("{}: not a regular file (a mesh must be one)", path));
  if (!std::ifstream(path)) throw SceneError(fmt::format("{}: cannot open mesh file", path));
  check_ply_header(path);

  // Assimp asserts (aborting the process), loops or runs out of memory on
  // some broken files: it reads in a child process, so those are errors too.
  const AnswerFile answer;
  const tb::ForkedResult ended =
      tb::call_forked([&]() { return import_with_assimp(path, answer.path(), want); }, limits);
  if (ended.ended != tb::ForkedResult::Ended::kExited || ended.code != 0)
    throw SceneError(fmt::format("{}: cannot read mesh: the importer (Assimp) stopped: {}{}", path,
                                 tb::describe_end(ended, limits),
                                 ended.last_line.empty() ? "" : ": " + ended.last_line));
  AnswerReader reader(path, answer.path());
  if (reader.kind() != want) throw SceneError(fmt::format("{}: cannot read mesh: the importer gave no answer", path));
  read(reader);
  reader.expect_end();
}

}  // namespace

tb::ForkLimits default_import_limits(const std::string& path) {
  std::error_code unreadable;
  uint64_t bytes = std::filesystem::file_size(path, unreadable);
  if (unreadable) bytes = 0;  // load_mesh says why
  tb::ForkLimits limits;
  limits.seconds = kImportBaseSeconds + kImportSecondsPerMiB * static_cast<double>(bytes) / (1 << 20);
  limits.extra_address_space = kImportBaseBytes + kImportBytesPerFileByte * bytes;
  return limits;
}

Mesh load_mesh(const std::string& path) { return load_mesh(path, default_import_limits(path)); }

Mesh load_mesh(const std::string& path, const tb::ForkLimits& limits) {
  Mesh mesh;
  mesh.name = path;
  import_forked(path, limits, Answer::kMesh, [&](AnswerReader& reader) { reader.mesh(mesh); });
  if (mesh.triangles.empty()) throw SceneError(fmt::format("{}: mesh has no triangles", path));
  if (usable_triangle_count(mesh) == 0)
    throw SceneError(fmt::format("{}: all {} triangles are degenerate (zero area, non-finite or past 1.844e18)", path,
                                 mesh.triangles.size()));
  return mesh;
}

Scene load_scene(const std::string& path) { return load_scene(path, default_import_limits(path)); }

Scene load_scene(const std::string& path, const tb::ForkLimits& limits) {
  Scene scene;
  scene.name = path;
  import_forked(path, limits, Answer::kScene, [&](AnswerReader& reader) {
    const uint64_t meshes = reader.count(20);
    scene.blases.resize(meshes);
    for (uint64_t m = 0; m < meshes; ++m) {
      Mesh& mesh = scene.blases[m];
      const std::string name = reader.string();
      mesh.name = fmt::format("{}#{}{}", path, m, name.empty() ? "" : " (" + name + ")");
      reader.mesh(mesh);
    }
    const uint64_t placements = reader.count(sizeof(uint32_t) + 12 * sizeof(double) + 1 + 1 + 4);
    scene.instances.resize(placements);
    for (uint64_t i = 0; i < placements; ++i) {
      Instance& instance = scene.instances[i];
      instance.blas = reader.pod<uint32_t>();
      const auto transform = reader.pod<std::array<double, 12>>();
      instance.mask = reader.pod<uint8_t>();
      instance.tapu = reader.pod<uint8_t>();
      instance.node = "node '" + reader.string() + "'";
      if (instance.tapu != 0 && instance.tapu != 4 && instance.tapu != 16)
        throw SceneError(fmt::format("{}: {}: tapu {} (the importer's answer is broken)", path, instance.node,
                                     instance.tapu));
      if (instance.blas >= meshes)
        throw SceneError(fmt::format("{}: {}: mesh {} of {}", path, instance.node, instance.blas, meshes));
      for (int k = 0; k < 12; ++k) {
        instance.object_to_world.m[k] = static_cast<float>(transform[k]);
        if (!std::isfinite(instance.object_to_world.m[k]))
          throw SceneError(fmt::format("{}: {}: transform has a non-finite entry", path, instance.node));
      }
    }
  });
  if (scene.unique_triangles() == 0) throw SceneError(fmt::format("{}: mesh has no triangles", path));
  bool usable = false;
  for (const Instance& instance : scene.instances) usable = usable || usable_triangle_count(scene.blases[instance.blas]) > 0;
  if (!usable)
    throw SceneError(fmt::format("{}: no node places a usable triangle (zero area, non-finite or past 1.844e18)", path));
  return scene;
}

}  // namespace td::scene

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

// What the importing child leaves in its answer file: a mesh, or the
// importer's own error message.
constexpr char kAnswerMagic[8] = "tdmesh1";
enum class Answer : uint32_t { kMesh = 0, kError = 1 };

template <typename T>
void write_pod(std::ofstream& out, const T& value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}
template <typename T>
bool read_pod(std::ifstream& in, T& value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}

// The child's work: Assimp reads `path`; the triangles or the reason go to `answer_path`.
int import_with_assimp(const std::string& path, const std::string& answer_path) {
  std::ofstream out(answer_path, std::ios::binary | std::ios::trunc);
  out.write(kAnswerMagic, sizeof kAnswerMagic);
  Mesh mesh;
  std::string error;
  try {
    Assimp::Importer importer;
    // Drop points and lines at import so SortByPType leaves triangle meshes only.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* scene = importer.ReadFile(
        path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType);
    if (scene == nullptr) {
      error = one_line(importer.GetErrorString());
    } else {
      for (unsigned m = 0; m < scene->mNumMeshes; ++m) append_triangles(*scene->mMeshes[m], mesh);
    }
  } catch (const std::exception& e) {  // SceneError, std::bad_alloc past the memory limit, Assimp's own
    error = one_line(e.what());
  }
  if (!error.empty()) {
    write_pod(out, Answer::kError);
    write_pod(out, static_cast<uint32_t>(error.size()));
    out.write(error.data(), static_cast<std::streamsize>(error.size()));
  } else {
    write_pod(out, Answer::kMesh);
    write_pod(out, static_cast<uint64_t>(mesh.positions.size()));
    write_pod(out, static_cast<uint64_t>(mesh.triangles.size()));
    out.write(reinterpret_cast<const char*>(mesh.positions.data()),
              static_cast<std::streamsize>(mesh.positions.size() * sizeof(Vec3)));
    out.write(reinterpret_cast<const char*>(mesh.triangles.data()),
              static_cast<std::streamsize>(mesh.triangles.size() * sizeof(TriangleIndices)));
  }
  out.close();
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

Mesh read_answer(const std::string& path, const std::string& answer_path) {
  std::ifstream in(answer_path, std::ios::binary);
  const auto size = std::filesystem::file_size(answer_path);
  char magic[sizeof kAnswerMagic] = {};
  Answer answer{};
  in.read(magic, sizeof magic);
  if (!in || std::memcmp(magic, kAnswerMagic, sizeof magic) != 0 || !read_pod(in, answer))
    throw SceneError(fmt::format("{}: cannot read mesh: the importer gave no answer", path));
  if (answer == Answer::kError) {
    uint32_t length = 0;
    std::string message;
    if (read_pod(in, length) && length <= size) {
      message.resize(length);
      in.read(message.data(), length);
    }
    throw SceneError(fmt::format("{}: cannot read mesh: {}", path, message));
  }
  uint64_t positions = 0, triangles = 0;
  const uint64_t header = sizeof kAnswerMagic + sizeof answer + 2 * sizeof(uint64_t);
  if (!read_pod(in, positions) || !read_pod(in, triangles) ||
      header + positions * sizeof(Vec3) + triangles * sizeof(TriangleIndices) != size)
    throw SceneError(fmt::format("{}: cannot read mesh: the importer's answer is cut short", path));
  Mesh mesh;
  mesh.name = path;
  mesh.positions.resize(positions);
  mesh.triangles.resize(triangles);
  in.read(reinterpret_cast<char*>(mesh.positions.data()), static_cast<std::streamsize>(positions * sizeof(Vec3)));
  in.read(reinterpret_cast<char*>(mesh.triangles.data()),
          static_cast<std::streamsize>(triangles * sizeof(TriangleIndices)));
  return mesh;
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
      tb::call_forked([&]() { return import_with_assimp(path, answer.path()); }, limits);
  if (ended.ended != tb::ForkedResult::Ended::kExited || ended.code != 0)
    throw SceneError(fmt::format("{}: cannot read mesh: the importer (Assimp) stopped: {}{}", path,
                                 tb::describe_end(ended, limits),
                                 ended.last_line.empty() ? "" : ": " + ended.last_line));
  Mesh mesh = read_answer(path, answer.path());
  if (mesh.triangles.empty()) throw SceneError(fmt::format("{}: mesh has no triangles", path));
  if (usable_triangle_count(mesh) == 0)
    throw SceneError(fmt::format("{}: all {} triangles are degenerate (zero area, non-finite or past 1.844e18)", path,
                                 mesh.triangles.size()));
  return mesh;
}

}  // namespace td::scene

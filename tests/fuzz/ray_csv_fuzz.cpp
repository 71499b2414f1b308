// Fuzz target for the ray file reader (`--rays-in`): any byte string must
// give rays or one SceneError whose one line names the file — never a crash,
// a hang or another exception. Every ray read keeps the documented rules
// (origin finite, direction finite and not zero, tmax > 0 and not NaN), and
// the rays written back and read again have the same bits.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tb/scene/ray_csv.h"
#include "tb/scene/scene_error.h"

namespace {

using td::scene::SceneRay;

std::string temp_path(const char* what) {
  return "/tmp/tdsim-ray-csv-fuzz." + std::to_string(getpid()) + "." + what + ".csv";
}

bool follows_the_rules(const SceneRay& ray) {
  bool nonzero = false;
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(ray.origin[a]) || !std::isfinite(ray.dir[a])) return false;
    nonzero = nonzero || ray.dir[a] != 0;
  }
  return nonzero && ray.tmax > 0;  // (false for NaN)
}

bool same_bits(const SceneRay& a, const SceneRay& b) { return std::memcmp(&a, &b, sizeof(SceneRay)) == 0; }

// All of a file's rays, in chunks of 3 (so the reader's chunking is used).
bool read_all(const std::string& path, std::vector<SceneRay>& rays) {
  try {
    td::scene::RayCsvReader reader(path);
    while (reader.read(rays, 3) > 0) {
    }
    return true;
  } catch (const td::scene::SceneError& e) {
    const std::string message = e.what();
    if (message.rfind(path, 0) != 0 || message.find('\n') != std::string::npos) std::abort();
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input = temp_path("in");
  {
    std::ofstream out(input, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::vector<SceneRay> rays;
  const bool ok = read_all(input, rays);
  std::remove(input.c_str());
  if (!ok) return 0;
  for (const SceneRay& ray : rays)
    if (!follows_the_rules(ray)) std::abort();

  const std::string written = temp_path("out");
  td::scene::write_rays_csv(written, rays);
  std::vector<SceneRay> again;
  const bool read_back = read_all(written, again);
  std::remove(written.c_str());
  if (!read_back || again.size() != rays.size()) std::abort();
  for (size_t i = 0; i < rays.size(); ++i)
    if (!same_bits(rays[i], again[i])) std::abort();
  return 0;
}

#include "tb/scene/ray_csv.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include "tb/scene/scene_error.h"

namespace td::scene {

namespace {

constexpr std::array<const char*, 7> kColumns = {"ox", "oy", "oz", "dx", "dy", "dz", "tmax"};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// A decimal (or inf) float, the whole field. from_chars rounds to nearest,
// so a shortest round-trip decimal gives back the exact bits.
bool parse_float(std::string_view field, float& value) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return false;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  return error == std::errc() && end == field.data() + field.size();
}

}  // namespace

RayCsvReader::RayCsvReader(const std::string& path) : path_(path), in_(path) {
  if (!in_) throw SceneError(fmt::format("{}: cannot open ray file", path));
  if (!std::getline(in_, line_)) throw SceneError(fmt::format("{}:1: empty file, expected the header '{}'", path, kRayCsvHeader));
  line_number_ = 1;
  if (trim(line_) != kRayCsvHeader)
    throw SceneError(fmt::format("{}:1: header must be '{}' (got '{}')", path, kRayCsvHeader, trim(line_)));
}

bool RayCsvReader::next(SceneRay& ray) {
  while (std::getline(in_, line_)) {
    ++line_number_;
    if (trim(line_).empty()) continue;
    ray = parse_line(line_);
    return true;
  }
  if (in_.bad()) throw SceneError(fmt::format("{}:{}: read error", path_, line_number_ + 1));
  return false;
}

size_t RayCsvReader::read(std::vector<SceneRay>& out, size_t max_rays) {
  size_t appended = 0;
  SceneRay ray;
  while (appended < max_rays && next(ray)) {
    out.push_back(ray);
    ++appended;
  }
  return appended;
}

SceneRay RayCsvReader::parse_line(const std::string& line) const {
  std::array<float, 7> values{};
  std::string_view rest(line);
  size_t column = 0;
  for (;; ++column) {
    const size_t comma = rest.find(',');
    const std::string_view field = trim(rest.substr(0, comma));
    if (column < values.size() && !parse_float(field, values[column]))
      throw SceneError(fmt::format("{}:{}: {}: not a number ('{}')", path_, line_number_, kColumns[column], field));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (column + 1 != values.size())
    throw SceneError(fmt::format("{}:{}: expected 7 comma-separated values, got {}", path_, line_number_, column + 1));

  SceneRay ray;
  for (int a = 0; a < 3; ++a) {
    ray.origin[a] = values[a];
    ray.dir[a] = values[3 + a];
  }
  ray.tmax = values[6];
  for (int k = 0; k < 6; ++k)
    if (!std::isfinite(values[k]))
      throw SceneError(fmt::format("{}:{}: {}: must be finite (got {})", path_, line_number_, kColumns[k], values[k]));
  if (ray.dir[0] == 0 && ray.dir[1] == 0 && ray.dir[2] == 0)
    throw SceneError(fmt::format("{}:{}: direction (dx,dy,dz) must not be zero", path_, line_number_));
  if (!(ray.tmax > 0))
    throw SceneError(fmt::format("{}:{}: tmax: must be > 0 (got {})", path_, line_number_, ray.tmax));
  return ray;
}

void write_rays_csv(const std::string& path, const std::vector<SceneRay>& rays) {
  std::ofstream out(path);
  if (!out) throw SceneError(fmt::format("{}: cannot write ray file", path));
  out << kRayCsvHeader << '\n';
  for (const SceneRay& r : rays)
    out << fmt::format("{},{},{},{},{},{},{}\n", r.origin[0], r.origin[1], r.origin[2], r.dir[0], r.dir[1],
                       r.dir[2], r.tmax);
  if (!out.flush()) throw SceneError(fmt::format("{}: cannot write ray file", path));
}

}  // namespace td::scene

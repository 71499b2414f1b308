#include "tb/run/ray_source.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "model/sim/interrupt.h"

namespace td::run {

CsvRaySource::CsvRaySource(const std::string& path) : reader_(path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return;  // a pipe can be read once: lines checked as traced
  scene::RayCsvReader check(path);
  scene::SceneRay ray;
  while (check.next(ray)) {
    if ((++count_ & 0xffffu) == 0) sim::throw_if_interrupted();
  }
}

size_t PrimaryRaySource::read(std::vector<scene::SceneRay>& out, size_t max) {
  const uint64_t n = std::min<uint64_t>(max, rays_.count() - next_);
  for (uint64_t i = 0; i < n; ++i) out.push_back(rays_.ray(next_ + i));
  next_ += n;
  return static_cast<size_t>(n);
}

size_t HeldRaySource::read(std::vector<scene::SceneRay>& out, size_t max) {
  const size_t n = std::min(max, rays_.size() - next_);
  out.insert(out.end(), rays_.begin() + static_cast<std::ptrdiff_t>(next_),
             rays_.begin() + static_cast<std::ptrdiff_t>(next_ + n));
  next_ += n;
  return n;
}

}  // namespace td::run

// ray_source.h — where `tdsim run` gets its rays: generated on demand
// (primary rays of a camera), held (secondary rays made from earlier hits),
// or streamed from a CSV file: traversal::RaySource (ray_stream.h), which
// the engines pull in order, a chunk at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tb/scene/camera_rays.h"
#include "tb/scene/ray_csv.h"
#include "tb/scene/scene_ray.h"
#include "tb/traversal/ray_stream.h"

namespace td::run {

using traversal::RaySource;

class PrimaryRaySource final : public RaySource {
 public:
  explicit PrimaryRaySource(const scene::PrimaryRays& rays) : rays_(rays) {}
  size_t read(std::vector<scene::SceneRay>& out, size_t max) override;
  uint64_t count() const override { return rays_.count(); }

 private:
  scene::PrimaryRays rays_;
  uint64_t next_ = 0;
};

class HeldRaySource final : public RaySource {
 public:
  explicit HeldRaySource(std::vector<scene::SceneRay> rays) : rays_(std::move(rays)) {}
  size_t read(std::vector<scene::SceneRay>& out, size_t max) override;
  uint64_t count() const override { return rays_.size(); }

 private:
  std::vector<scene::SceneRay> rays_;
  size_t next_ = 0;
};

class CsvRaySource final : public RaySource {
 public:
  // Reads the whole file once first (one ray at a time: memory stays
  // bounded), so a bad line is refused before any ray is traced — not from
  // inside a run, after the rays before it — and the count is known. A pipe
  // can be read only once: its lines are checked as they are traced, and
  // the count is 0 (unknown).
  explicit CsvRaySource(const std::string& path);
  size_t read(std::vector<scene::SceneRay>& out, size_t max) override { return reader_.read(out, max); }
  uint64_t count() const override { return count_; }

 private:
  scene::RayCsvReader reader_;
  uint64_t count_ = 0;
};

}  // namespace td::run

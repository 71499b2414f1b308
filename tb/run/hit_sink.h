// hit_sink.h — where traced rays go (a traversal::RaySink): every engine
// hands each finished ray here (in any order: a timing model finishes waves out of order), and the
// sink puts them back in ray order for what needs order — the hits CSV, a
// caller's on_ray callback — holding only the rays that arrived ahead of an
// unfinished one. The traversal totals (sums and a maximum) and the
// per-pixel picture (indexed by ray) need no order: without a hits file or
// an on_ray callback a ray is taken as it comes, and nothing is held.
#pragma once

#include <cstdint>
#include <functional>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/sim/output_file.h"
#include "tb/report/trace_picture.h"
#include "tb/scene/mesh.h"
#include "tb/scene/scene.h"
#include "tb/scene/scene_ray.h"
#include "tb/traversal/functional_trace.h"
#include "tb/traversal/ray_stream.h"

namespace td::run {

using traversal::TracedRay;

class HitSink final : public traversal::RaySink {
 public:
  // Writes `ray,hit,t,inst,prim,u,v` lines to `path` (through a temporary file:
  // commit() puts it in place).
  void write_hits_to(const std::string& path);
  // Keeps a shaded/heat-map sample per pixel of a width x height frame (the
  // rays must be that frame's primary rays, in row-major order).
  void keep_pixels(const scene::Scene& scene, uint32_t width, uint32_t height);
  // Called with every ray, in ray order.
  void on_ray(std::function<void(const TracedRay&)> callback) { callback_ = std::move(callback); }
  // Called with the number of rays delivered so far, after each (a progress bar's: no order kept for it).
  void on_count(std::function<void(uint64_t)> callback) { count_callback_ = std::move(callback); }

  void deliver(TracedRay&& traced) override;
  // Every ray delivered: closes the outputs. Throws naming a file it cannot write.
  void commit();

  const traversal::TraceTotals& totals() const { return totals_; }
  uint64_t delivered() const { return delivered_; }
  const std::vector<report::PixelSample>& pixels() const { return pixels_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

 private:
  void emit(const TracedRay& traced);
  bool keeps_order() const { return hits_file_ || callback_; }
  void take_unordered(const TracedRay& traced);

  uint64_t delivered_ = 0;
  uint64_t next_ = 0;  // index of the next ray to emit (in order)
  // Rays next_, next_ + 1, ...: those that arrived ahead of next_ (a window
  // as wide as the rays in flight; constant time per ray).
  std::deque<std::optional<TracedRay>> waiting_;
  size_t waiting_count_ = 0;
  // Without order: which rays came (a ray delivered twice is a bug), and the highest index.
  std::vector<bool> arrived_;
  uint64_t highest_ = 0;
  std::unique_ptr<sim::OutputFile> hits_file_;
  std::string hits_buffer_;
  const scene::Scene* scene_ = nullptr;
  uint32_t width_ = 0, height_ = 0;
  std::vector<report::PixelSample> pixels_;
  std::function<void(const TracedRay&)> callback_;
  std::function<void(uint64_t)> count_callback_;
  traversal::TraceTotals totals_;
};

// "ray,hit,t,inst,prim,u,v" — inst is the scene's instance index (0 for a
// one-level BVH), prim the triangle index in that instance's mesh (both -1
// on a miss); t has 9 significant digits (enough to give back the binary32
// value).
std::string format_hit_line(uint64_t ray_index, const scene::RayHit& hit);
inline constexpr const char* kHitsCsvHeader = "ray,hit,t,inst,prim,u,v";

}  // namespace td::run

#include "tb/run/hit_sink.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/scene/secondary_rays.h"

namespace td::run {

std::string format_hit_line(uint64_t ray_index, const scene::RayHit& hit) {
  if (!hit.hit) return fmt::format("{},0,inf,-1,-1,0,0\n", ray_index);
  return fmt::format("{},1,{:.9g},{},{},{:.9g},{:.9g}\n", ray_index, hit.t, hit.instance, hit.primitive, hit.u, hit.v);
}

void HitSink::write_hits_to(const std::string& path) {
  hits_file_ = std::make_unique<sim::OutputFile>(path);
  hits_buffer_ = std::string(kHitsCsvHeader) + "\n";
}

void HitSink::keep_pixels(const scene::Scene& scene, uint32_t width, uint32_t height) {
  scene_ = &scene;
  width_ = width;
  height_ = height;
  pixels_.assign(size_t{width} * height, report::PixelSample{});
}

void HitSink::deliver(TracedRay&& traced) {
  ++delivered_;
  if (count_callback_) count_callback_(delivered_);
  if (!keeps_order()) {
    take_unordered(traced);
    return;
  }
  if (traced.index < next_) throw std::logic_error(fmt::format("hit sink: ray {} delivered twice", traced.index));
  if (traced.index != next_) {
    const uint64_t offset = traced.index - next_;
    if (offset >= waiting_.size()) waiting_.resize(offset + 1);
    if (waiting_[offset]) throw std::logic_error(fmt::format("hit sink: ray {} delivered twice", traced.index));
    waiting_[offset] = std::move(traced);
    ++waiting_count_;
    return;
  }
  emit(traced);
  ++next_;
  if (!waiting_.empty()) waiting_.pop_front();  // the slot of the ray just emitted
  while (!waiting_.empty() && waiting_.front()) {
    emit(*waiting_.front());
    --waiting_count_;
    ++next_;
    waiting_.pop_front();
  }
}

void HitSink::take_unordered(const TracedRay& traced) {
  if (traced.index >= arrived_.size()) arrived_.resize(std::max<uint64_t>(traced.index + 1, 2 * arrived_.size()));
  if (arrived_[traced.index]) throw std::logic_error(fmt::format("hit sink: ray {} delivered twice", traced.index));
  arrived_[traced.index] = true;
  highest_ = std::max(highest_, traced.index);
  emit(traced);
}

void HitSink::emit(const TracedRay& traced) {
  totals_.add(traced.counters, traced.hit.hit);
  if (hits_file_) {
    hits_buffer_ += format_hit_line(traced.index, traced.hit);
    if (hits_buffer_.size() >= (size_t{1} << 20)) {
      hits_file_->write(hits_buffer_);
      hits_buffer_.clear();
    }
  }
  if (scene_ && traced.index < pixels_.size()) {
    report::PixelSample& pixel = pixels_[traced.index];
    pixel.tests = 4 * traced.counters.box_steps + traced.counters.triangle_steps;
    pixel.hit = traced.hit.hit;
    if (traced.hit.hit) {
      // Lit from the eye: |cos| of the angle between the view ray and the surface.
      const scene::SurfacePoint point = scene::surface_point(*scene_, traced.ray, traced.hit);
      const Vec3& d = traced.ray.dir;
      const double length = std::sqrt(double{d[0]} * d[0] + double{d[1]} * d[1] + double{d[2]} * d[2]);
      const double cosine = (d[0] * point.normal[0] + d[1] * point.normal[1] + d[2] * point.normal[2]) / length;
      pixel.shade = static_cast<float>(std::fabs(cosine));
    }
  }
  if (callback_) callback_(traced);
}

void HitSink::commit() {
  if (waiting_count_ > 0)
    throw std::logic_error(fmt::format("hit sink: ray {} never arrived ({} after it did)", next_, waiting_count_));
  if (!keeps_order() && delivered_ > 0 && delivered_ != highest_ + 1)
    throw std::logic_error(fmt::format("hit sink: {} rays arrived, the last index being {}", delivered_, highest_));
  if (hits_file_) {
    hits_file_->write(hits_buffer_);
    hits_buffer_.clear();
    hits_file_->commit();
    hits_file_.reset();
  }
}

}  // namespace td::run

// camera_rays.h — primary rays of a pinhole camera, one per pixel centre,
// generated on demand so a 1920x1080 frame need not sit in memory.
#pragma once

#include <cstdint>
#include <vector>

#include "model/isa/node.h"
#include "tb/scene/scene_ray.h"

namespace td::scene {

struct Camera {
  Vec3 eye{0, 0, 1};
  Vec3 look_at{0, 0, 0};
  Vec3 up{0, 1, 0};
  float vertical_fov_degrees = 45;
};

// A camera that sees all of `bounds`: it looks at the centre from the +z,
// +y, +x side (a three-quarter view), just far enough back that all eight
// corners of the box fit the vertical and horizontal field of view.
Camera frame_bounds(const Aabb& bounds, uint32_t width, uint32_t height, float vertical_fov_degrees = 45);

class PrimaryRays {
 public:
  // width, height >= 1 (std::invalid_argument otherwise).
  PrimaryRays(const Camera& camera, uint32_t width, uint32_t height);

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint64_t count() const { return uint64_t{width_} * height_; }

  // Through the centre of pixel (x, y), row 0 at the top; unit direction.
  SceneRay ray(uint32_t x, uint32_t y) const;
  // Ray `index` in row-major order (index < count()).
  SceneRay ray(uint64_t index) const { return ray(static_cast<uint32_t>(index % width_), static_cast<uint32_t>(index / width_)); }

  // Rays [first, first + n) in row-major order (clipped to count()).
  std::vector<SceneRay> rays(uint64_t first, uint64_t n) const;

 private:
  uint32_t width_, height_;
  Vec3 eye_, forward_, right_, down_;  // right_/down_ span one pixel
};

}  // namespace td::scene

// trace_picture.h — the picture ray-tracing engineers look at first: the
// primary hits shaded, beside a heat map of the intersection tests each
// pixel's ray cost (box + triangle tests), with the map's colour scale.
#pragma once

#include <cstdint>
#include <vector>

#include "tb/report/image.h"

namespace td::report {

struct PixelSample {
  bool hit = false;
  float shade = 0;     // 0..1: how lit the hit is (e.g. |cos| of the view angle)
  uint32_t tests = 0;  // box tests + triangle tests of this pixel's ray
};

// `samples` is width x height, row-major, top row first. The heat map's top
// colour is the largest count (labelled on the scale); empty or all-zero
// input draws an all-dark map.
Image render_trace_picture(uint32_t width, uint32_t height, const std::vector<PixelSample>& samples);

}  // namespace td::report

#include "tb/report/trace_picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace td::report {

namespace {

constexpr Rgb kBackground{24, 24, 28};
constexpr Rgb kMissColour{40, 44, 52};
constexpr Rgb kLabelColour{230, 230, 230};

Rgb shaded(const PixelSample& s) {
  if (!s.hit) return kMissColour;
  const double light = 0.15 + 0.85 * std::clamp(static_cast<double>(s.shade), 0.0, 1.0);
  return {static_cast<uint8_t>(std::lround(235 * light)), static_cast<uint8_t>(std::lround(215 * light)),
          static_cast<uint8_t>(std::lround(180 * light))};
}

}  // namespace

Image render_trace_picture(uint32_t width, uint32_t height, const std::vector<PixelSample>& samples) {
  if (samples.size() != size_t{width} * height) throw std::invalid_argument("render_trace_picture: size mismatch");
  const int scale = std::max<int>(1, static_cast<int>(height / 160));  // label size grows with the picture
  const uint32_t gap = 8 * scale, bar_width = 12 * scale;
  uint32_t most = 0;
  for (const PixelSample& s : samples) most = std::max(most, s.tests);
  const std::string top_label = fmt::format("{}", most);
  const uint32_t label_width = static_cast<uint32_t>(Image::text_width(top_label, scale));
  Image image(2 * width + 3 * gap + bar_width + gap + label_width + gap, height + 2 * gap, kBackground);

  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const PixelSample& s = samples[size_t{y} * width + x];
      image.set(gap + x, gap + y, shaded(s));
      image.set(2 * gap + width + x, gap + y, heat_colour(most ? static_cast<double>(s.tests) / most : 0.0));
    }
  // The colour scale: top = most tests, bottom = 0, labelled at both ends and the middle.
  const uint32_t bar_x = 3 * gap + 2 * width;
  for (uint32_t y = 0; y < height; ++y)
    image.fill_rect(bar_x, gap + y, bar_width, 1, heat_colour(1.0 - static_cast<double>(y) / std::max(1u, height - 1)));
  const int64_t label_x = bar_x + bar_width + gap / 2;
  image.draw_text(label_x, gap, top_label, kLabelColour, scale);
  image.draw_text(label_x, gap + height / 2 - Image::text_height(scale) / 2, fmt::format("{}", most / 2),
                  kLabelColour, scale);
  image.draw_text(label_x, gap + height - Image::text_height(scale), "0", kLabelColour, scale);
  return image;
}

}  // namespace td::report

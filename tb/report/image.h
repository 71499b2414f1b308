// image.h — an 8-bit RGB picture, what `tdsim run --image` draws into, and
// its PNG encoding (libpng). No SystemC.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace td::report {

using Rgb = std::array<uint8_t, 3>;

class Image {
 public:
  Image(uint32_t width, uint32_t height, Rgb background = {0, 0, 0});
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  // Pixels outside the picture are ignored (drawing may run off the edge).
  void set(int64_t x, int64_t y, Rgb colour);
  Rgb at(uint32_t x, uint32_t y) const;
  void fill_rect(int64_t x, int64_t y, int64_t w, int64_t h, Rgb colour);
  // Digits, '.', '-', '+', 'e', 'k', 'M', 'G', '%', ' ' in a 3x5 font
  // scaled by `scale`; other characters draw as a blank. Returns the width.
  int64_t draw_text(int64_t x, int64_t y, const std::string& text, Rgb colour, int scale);
  static int64_t text_width(const std::string& text, int scale) { return static_cast<int64_t>(text.size()) * 4 * scale; }
  static int64_t text_height(int scale) { return 5 * scale; }
  const std::vector<uint8_t>& rgb() const { return pixels_; }

 private:
  uint32_t width_, height_;
  std::vector<uint8_t> pixels_;  // row-major RGB
};

// The PNG file's bytes; throws std::runtime_error if libpng fails.
std::string encode_png(const Image& image);

// A perceptually ordered colour map (dark blue -> green -> yellow, like
// matplotlib's viridis), for heat maps; `fraction` is clamped to [0, 1].
Rgb heat_colour(double fraction);

}  // namespace td::report

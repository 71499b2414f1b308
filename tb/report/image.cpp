#include "tb/report/image.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace td::report {

Image::Image(uint32_t width, uint32_t height, Rgb background)
    : width_(width), height_(height), pixels_(size_t{width} * height * 3) {
  for (size_t i = 0; i < pixels_.size(); i += 3) std::copy(background.begin(), background.end(), pixels_.begin() + i);
}

void Image::set(int64_t x, int64_t y, Rgb colour) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  std::copy(colour.begin(), colour.end(), pixels_.begin() + (static_cast<size_t>(y) * width_ + x) * 3);
}

Rgb Image::at(uint32_t x, uint32_t y) const {
  const size_t i = (size_t{y} * width_ + x) * 3;
  return {pixels_[i], pixels_[i + 1], pixels_[i + 2]};
}

void Image::fill_rect(int64_t x, int64_t y, int64_t w, int64_t h, Rgb colour) {
  for (int64_t row = std::max<int64_t>(y, 0); row < std::min<int64_t>(y + h, height_); ++row)
    for (int64_t col = std::max<int64_t>(x, 0); col < std::min<int64_t>(x + w, width_); ++col) set(col, row, colour);
}

namespace {

// 3x5 glyphs, one row per 3 bits (bit 2 = left column).
struct Glyph {
  char c;
  uint8_t rows[5];
};
constexpr Glyph kGlyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'-', {0, 0, 7, 0, 0}},
    {'+', {0, 2, 7, 2, 0}}, {'e', {0, 7, 7, 4, 7}}, {'k', {4, 5, 6, 5, 5}}, {'M', {5, 7, 7, 5, 5}},
    {'G', {7, 4, 5, 5, 7}}, {'%', {5, 1, 2, 4, 5}},
};

const Glyph* glyph_of(char c) {
  for (const Glyph& g : kGlyphs)
    if (g.c == c) return &g;
  return nullptr;
}

}  // namespace

int64_t Image::draw_text(int64_t x, int64_t y, const std::string& text, Rgb colour, int scale) {
  int64_t pen = x;
  for (char c : text) {
    if (const Glyph* g = glyph_of(c))
      for (int row = 0; row < 5; ++row)
        for (int col = 0; col < 3; ++col)
          if (g->rows[row] & (4 >> col)) fill_rect(pen + col * scale, y + row * scale, scale, scale, colour);
    pen += 4 * scale;
  }
  return pen - x;
}

std::string encode_png(const Image& image) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("PNG: out of memory");
  }
  std::string bytes;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("PNG: encoding failed");
  }
  png_set_write_fn(
      png, &bytes,
      [](png_structp p, png_bytep data, png_size_t length) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(data), length);
      },
      [](png_structp) {});
  png_set_IHDR(png, info, image.width(), image.height(), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::vector<uint8_t>& rgb = image.rgb();
  for (uint32_t y = 0; y < image.height(); ++y)
    png_write_row(png, const_cast<png_bytep>(rgb.data() + size_t{y} * image.width() * 3));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return bytes;
}

Rgb heat_colour(double fraction) {
  // Viridis sampled at 9 points, interpolated linearly.
  static constexpr std::array<Rgb, 9> kStops{{{68, 1, 84},
                                              {71, 44, 122},
                                              {59, 81, 139},
                                              {44, 113, 142},
                                              {33, 144, 141},
                                              {39, 173, 129},
                                              {92, 200, 99},
                                              {170, 220, 50},
                                              {253, 231, 37}}};
  const double f = std::isnan(fraction) ? 0.0 : std::clamp(fraction, 0.0, 1.0);
  const double scaled = f * (kStops.size() - 1);
  const size_t i = std::min(static_cast<size_t>(scaled), kStops.size() - 2);
  const double w = scaled - static_cast<double>(i);
  Rgb out;
  for (int c = 0; c < 3; ++c)
    out[c] = static_cast<uint8_t>(std::lround(kStops[i][c] * (1 - w) + kStops[i + 1][c] * w));
  return out;
}

}  // namespace td::report

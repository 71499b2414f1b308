// vec_math.h — the few Vec3 operations ray generators need, in binary32.
#pragma once

#include <cmath>
#include <limits>

#include "model/isa/node.h"

namespace td::scene {

inline Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 scale(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
inline float dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline float length(const Vec3& a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalize(const Vec3& a) { return scale(a, 1.0f / length(a)); }

// The nearest float at or below / at or above a double: a box computed in
// double, rounded outward, still contains what it stands for.
inline float float_down(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}
inline float float_up(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

// Two unit vectors that make an orthonormal basis with the unit `n`
// (Duff et al. 2017, "Building an Orthonormal Basis, Revisited").
inline void orthonormal_basis(const Vec3& n, Vec3& t, Vec3& b) {
  const float sign = std::copysign(1.0f, n[2]);
  const float a = -1.0f / (sign + n[2]);
  const float c = n[0] * n[1] * a;
  t = {1.0f + sign * n[0] * n[0] * a, sign * c, -sign * n[0]};
  b = {c, sign + n[1] * n[1] * a, -n[1]};
}

}  // namespace td::scene

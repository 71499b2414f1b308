// ray_csv.h — rays from a CSV file (`--rays-in FILE`), read in chunks so a
// file of any size streams through a fixed amount of memory.
//
// Format: a header line `ox,oy,oz,dx,dy,dz,tmax`, then one ray per line,
// seven decimal numbers; `inf` (or `+inf`) may stand for tmax. Blank lines
// are skipped; CRLF line ends are accepted. A malformed line is an error
// naming the file, the line and the column: "rays.csv:12: dz: not a number
// ('abc')". Rules: origin finite, direction finite and not zero, tmax > 0
// and not NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "tb/scene/scene_ray.h"

namespace td::scene {

class RayCsvReader {
 public:
  // Opens the file and checks the header (SceneError on failure).
  explicit RayCsvReader(const std::string& path);

  // Appends up to `max_rays` rays to `out`; returns how many it appended
  // (0: the file is done). SceneError on a malformed line.
  size_t read(std::vector<SceneRay>& out, size_t max_rays);

  // One ray; false at the end of the file.
  bool next(SceneRay& ray);

  uint64_t line_number() const { return line_number_; }  // of the last line read
  const std::string& path() const { return path_; }

 private:
  SceneRay parse_line(const std::string& line) const;

  std::string path_;
  std::ifstream in_;
  std::string line_;
  uint64_t line_number_ = 0;
};

// The header the reader expects and a writer emits.
inline constexpr const char* kRayCsvHeader = "ox,oy,oz,dx,dy,dz,tmax";

// Writes rays in the reader's format, shortest round-trip decimals (reading
// the file back gives the same bits). SceneError when the file cannot be
// written.
void write_rays_csv(const std::string& path, const std::vector<SceneRay>& rays);

}  // namespace td::scene

// sweep_plan.h — the points of a sweep: each `--set KEY=V1,V2,...` is an
// axis, and the points are the cross product of the axes (or, with zip, the
// i-th value of every axis together). A `--set` with one value is fixed:
// every point has it. Points are numbered from 0 in a fixed order (the last
// axis varies fastest), so `--list`, `--point K`, a resumed run and a cluster
// job array all agree on what point K is.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace td::sweep {

struct Axis {
  std::string key;                  // "l1.mshrs"
  std::vector<std::string> values;  // as given: "32", "64"
};

struct Point {
  size_t index = 0;
  std::vector<std::pair<std::string, std::string>> values;  // every axis, swept and fixed, in --set order
  // The point's overrides, as a tdsim command line takes them: {"--set", "k=v", ...}.
  std::vector<std::string> set_arguments() const;
  // "k=v k=v" (the swept axes only; "(base)" when none is swept).
  std::string label(const std::vector<std::string>& swept) const;
};

struct SweepPlan {
  std::string command;                 // run or peak
  std::vector<std::string> arguments;  // the command's own flags
  std::string config;                  // --config as given
  std::vector<std::string> sets;       // --set as given
  bool zip = false;
  std::vector<Axis> axes;

  std::vector<std::string> swept_keys() const;  // axes with more than one value
  size_t point_count() const;
  Point point(size_t index) const;
  // The plan as JSON: the sweep's identity, kept in DIR/sweep.json.
  std::string to_json() const;
};

// Reads the --set texts into axes. Throws std::invalid_argument naming the
// --set: no '=', an empty value, a key given twice, axes of different
// lengths under zip, or more than kMaxPoints points.
constexpr size_t kMaxPoints = 100000;
std::vector<Axis> parse_axes(const std::vector<std::string>& sets, bool zip);

}  // namespace td::sweep

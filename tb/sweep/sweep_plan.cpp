#include "tb/sweep/sweep_plan.h"

#include <fmt/format.h>

#include <stdexcept>

#include "model/sim/json_writer.h"

namespace td::sweep {

std::vector<std::string> Point::set_arguments() const {
  std::vector<std::string> arguments;
  for (const auto& [key, value] : values) arguments.insert(arguments.end(), {"--set", key + "=" + value});
  return arguments;
}

std::string Point::label(const std::vector<std::string>& swept) const {
  std::string text;
  for (const auto& [key, value] : values)
    for (const std::string& name : swept)
      if (name == key) text += (text.empty() ? "" : " ") + key + "=" + value;
  return text.empty() ? std::string("(base)") : text;
}

std::vector<Axis> parse_axes(const std::vector<std::string>& sets, bool zip) {
  std::vector<Axis> axes;
  size_t swept_length = 0;
  double points = 1;
  for (const std::string& text : sets) {
    const size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument(fmt::format("--set {}: expected KEY=VALUE or KEY=V1,V2,...", text));
    Axis axis{text.substr(0, equals), {}};
    const std::string list = text.substr(equals + 1);
    for (size_t start = 0;;) {
      const size_t comma = list.find(',', start);
      const std::string value = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (value.empty()) throw std::invalid_argument(fmt::format("--set {}: an empty value", text));
      axis.values.push_back(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    for (const Axis& other : axes)
      if (other.key == axis.key) throw std::invalid_argument(fmt::format("--set {}: {} is set twice", text, axis.key));
    if (axis.values.size() > 1) {
      if (zip && swept_length && axis.values.size() != swept_length)
        throw std::invalid_argument(fmt::format(
            "--set {}: {} values, but --zip pairs values one to one and an earlier --set has {}", text,
            axis.values.size(), swept_length));
      swept_length = axis.values.size();
      points = zip ? static_cast<double>(swept_length) : points * static_cast<double>(axis.values.size());
      if (points > static_cast<double>(kMaxPoints))
        throw std::invalid_argument(fmt::format("--set {}: the sweep would have more than {} points", text, kMaxPoints));
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

std::vector<std::string> SweepPlan::swept_keys() const {
  std::vector<std::string> keys;
  for (const Axis& axis : axes)
    if (axis.values.size() > 1) keys.push_back(axis.key);
  return keys;
}

size_t SweepPlan::point_count() const {
  size_t count = 1;
  for (const Axis& axis : axes) {
    if (axis.values.size() <= 1) continue;
    count = zip ? axis.values.size() : count * axis.values.size();
  }
  return count;
}

Point SweepPlan::point(size_t index) const {
  Point point;
  point.index = index;
  point.values.resize(axes.size());
  // Mixed radix, the last axis fastest; fixed axes have one value.
  size_t rest = index;
  for (size_t a = axes.size(); a-- > 0;) {
    const Axis& axis = axes[a];
    const size_t n = axis.values.size();
    const size_t pick = zip ? (n > 1 ? index : 0) : rest % n;
    if (!zip) rest /= n;
    point.values[a] = {axis.key, axis.values[pick]};
  }
  return point;
}

std::string SweepPlan::to_json() const {
  sim::JsonWriter json;
  json.begin_object();
  json.key("command").value(command);
  json.key("arguments").begin_array();
  for (const std::string& argument : arguments) json.value(argument);
  json.end_array();
  json.key("config").value(config);
  json.key("sets").begin_array();
  for (const std::string& set : sets) json.value(set);
  json.end_array();
  json.key("zip").value(zip);
  json.key("points").value(uint64_t{point_count()});
  json.end_object();
  return json.text();
}

}  // namespace td::sweep

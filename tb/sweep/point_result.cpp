#include "tb/sweep/point_result.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <stdexcept>

#include "model/sim/json_writer.h"
#include "tb/common/atomic_file.h"
#include "tb/common/text_file.h"

namespace td::sweep {

namespace fs = std::filesystem;

std::string point_folder_name(size_t index) { return fmt::format("{:04}", index); }

void write_point_record(const fs::path& folder, const Point& point, int exit_code, double wall_s,
                        const std::string& output_tail) {
  sim::JsonWriter json;
  json.begin_object();
  json.key("point").value(uint64_t{point.index});
  json.key("values").begin_object();
  for (const auto& [key, value] : point.values) json.key(key).value(value);
  json.end_object();
  json.key("status").value(exit_code == 0 ? "ok" : "failed");
  json.key("exit_code").value(exit_code);
  json.key("wall_s").value(wall_s);
  if (exit_code != 0) json.key("error").value(output_tail);
  json.end_object();
  tb::write_file_atomically((folder / "point.json").string(), json.text());
}

std::string tail_lines(const std::string& text, size_t lines) {
  size_t start = text.size();
  if (start > 0 && text[start - 1] == '\n') --start;
  for (size_t seen = 0; start > 0; --start)
    if (text[start - 1] == '\n' && ++seen == lines) break;
  return text.substr(start);
}

namespace {

// JSON is YAML: yaml-cpp reads the files tdsim's JsonWriter wrote.
YAML::Node load_json(const std::string& text, const std::string& where) {
  try {
    YAML::Node node = YAML::Load(text);
    if (!node.IsMap()) throw std::runtime_error(fmt::format("{}: not a JSON object", where));
    return node;
  } catch (const YAML::Exception& error) {
    throw std::runtime_error(fmt::format("{}: not valid JSON ({})", where, error.what()));
  }
}

double number_or_nan(const YAML::Node& node) { return node && !node.IsNull() ? node.as<double>() : std::nan(""); }

// Runs `read`, turning yaml-cpp's complaints (a missing key, a wrong type) into one naming `where`.
template <typename Read>
void reading(const std::string& where, Read read) {
  try {
    read();
  } catch (const YAML::Exception& error) {
    throw std::runtime_error(fmt::format("{}: {}", where, error.what()));
  }
}

}  // namespace

void parse_point_record(const std::string& text, const std::string& where, PointResult& result) {
  const YAML::Node record = load_json(text, where);
  reading(where, [&] {
    result.index = record["point"].as<size_t>();
    for (const auto& entry : record["values"])
      result.values.emplace_back(entry.first.as<std::string>(), entry.second.as<std::string>());
    result.status = record["status"].as<std::string>();
    if (result.status != "ok" && result.status != "failed")
      throw std::runtime_error(fmt::format("{}: status '{}' (ok or failed)", where, result.status));
    result.exit_code = record["exit_code"].as<int>();
    result.wall_s = record["wall_s"].as<double>();
    if (record["error"]) result.error = record["error"].as<std::string>();
  });
}

void parse_report_headline(const std::string& text, const std::string& where, PointResult& result) {
  const YAML::Node report = load_json(text, where);
  reading(where, [&] {
    result.chip = report["chip"] ? report["chip"].as<std::string>() : "";
    result.workload = report["workload"] ? report["workload"].as<std::string>() : "peak microbenchmarks";
    const YAML::Node headline = report["headline"];
    if (!headline || !headline.IsMap()) throw std::runtime_error(fmt::format("{}: no headline", where));
    for (const YAML::Node& figure : headline["figures"])
      result.headline.figures.push_back(
          {figure["name"].as<std::string>(), figure["unit"].as<std::string>(), number_or_nan(figure["value"])});
    result.headline.limited_by = headline["limited_by"].as<std::string>();
    for (const auto& entry : headline["stalls"])
      result.headline.stalls.emplace_back(entry.first.as<std::string>(), number_or_nan(entry.second));
    for (const auto& entry : headline["hit_rates"])
      result.headline.hit_rates.emplace_back(entry.first.as<std::string>(), number_or_nan(entry.second));
  });
}

std::optional<PointResult> read_point_result(const fs::path& folder) {
  const fs::path record = folder / "point.json";
  if (!fs::exists(record)) return std::nullopt;
  PointResult result;
  parse_point_record(tb::read_text_file(record), record.string(), result);
  if (result.status == "ok") {
    const fs::path report = folder / "report.json";
    parse_report_headline(tb::read_text_file(report), report.string(), result);
  }
  return result;
}

}  // namespace td::sweep

#include "tb/sweep/sweep_results.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/sim/json_writer.h"

namespace td::sweep {

namespace fs = std::filesystem;

std::vector<PointResult> read_results(const SweepPlan& plan, const fs::path& dir) {
  std::vector<PointResult> results;
  for (size_t k = 0; k < plan.point_count(); ++k) {
    std::optional<PointResult> result = read_point_result(dir / "points" / point_folder_name(k));
    if (!result) {
      const Point point = plan.point(k);
      result.emplace();
      result->index = k;
      result->values = point.values;
    }
    results.push_back(std::move(*result));
  }
  return results;
}

namespace {

// Names in order of first appearance over the points.
template <typename Pick>
std::vector<std::string> union_of_names(const std::vector<PointResult>& results, Pick pick) {
  std::vector<std::string> names;
  for (const PointResult& r : results)
    for (const std::string& name : pick(r))
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

std::vector<std::string> figure_names(const std::vector<PointResult>& results) {
  return union_of_names(results, [](const PointResult& r) {
    std::vector<std::string> names;
    for (const report::HeadlineFigure& f : r.headline.figures) names.push_back(f.name);
    return names;
  });
}

template <typename Pairs>
std::vector<std::string> keys_of(const std::vector<PointResult>& results, Pairs pairs) {
  return union_of_names(results, [&](const PointResult& r) {
    std::vector<std::string> names;
    for (const auto& entry : pairs(r)) names.push_back(entry.first);
    return names;
  });
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string number_text(double value) { return std::isfinite(value) ? fmt::format("{}", value) : std::string(); }

std::string value_of(const std::vector<std::pair<std::string, std::string>>& values, const std::string& key) {
  for (const auto& [k, v] : values)
    if (k == key) return v;
  return "";
}

template <typename Pairs>
double lookup(const Pairs& pairs, const std::string& name) {
  for (const auto& [k, v] : pairs)
    if (k == name) return v;
  return std::nan("");
}

double figure_value(const PointResult& r, const std::string& name) {
  for (const report::HeadlineFigure& f : r.headline.figures)
    if (f.name == name) return f.value;
  return std::nan("");
}

// 44.28 M, 1.56 G: four significant digits and an SI prefix.
std::string si_text(double value) {
  const char* prefixes[] = {"", " k", " M", " G", " T"};
  size_t p = 0;
  while (p + 1 < std::size(prefixes) && std::fabs(value) >= 1000) {
    value /= 1000;
    ++p;
  }
  return fmt::format("{:.4g}{}", value, prefixes[p]);
}

const auto kStalls = [](const PointResult& r) { return r.headline.stalls; };
const auto kHitRates = [](const PointResult& r) { return r.headline.hit_rates; };

}  // namespace

std::string results_csv(const SweepPlan& plan, const std::vector<PointResult>& results) {
  const std::vector<std::string> swept = plan.swept_keys();
  const std::vector<std::string> figures = figure_names(results);
  const std::vector<std::string> stalls = keys_of(results, kStalls);
  const std::vector<std::string> levels = keys_of(results, kHitRates);
  std::vector<std::string> header{"point"};
  header.insert(header.end(), swept.begin(), swept.end());
  header.insert(header.end(), {"status", "exit_code"});
  header.insert(header.end(), figures.begin(), figures.end());
  header.push_back("limited_by");
  for (const std::string& cause : stalls) header.push_back("stall:" + cause);
  for (const std::string& level : levels) header.push_back("hit_rate:" + level);
  std::string out;
  const auto add_row = [&out](const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += "\n";
  };
  add_row(header);
  for (const PointResult& r : results) {
    std::vector<std::string> row{fmt::format("{}", r.index)};
    for (const std::string& key : swept) row.push_back(value_of(r.values, key));
    row.push_back(r.status);
    row.push_back(r.status == "not run" ? std::string() : fmt::format("{}", r.exit_code));
    for (const std::string& name : figures) row.push_back(number_text(figure_value(r, name)));
    row.push_back(r.headline.limited_by);
    for (const std::string& cause : stalls) row.push_back(number_text(lookup(r.headline.stalls, cause)));
    for (const std::string& level : levels) row.push_back(number_text(lookup(r.headline.hit_rates, level)));
    add_row(row);
  }
  return out;
}

std::string results_json(const SweepPlan& plan, const std::vector<PointResult>& results) {
  std::string chip, workload;
  for (const PointResult& r : results)
    if (r.status == "ok") {
      chip = r.chip;
      workload = r.workload;
      break;
    }
  sim::JsonWriter json;
  json.begin_object();
  json.key("command").value(plan.command);
  json.key("arguments").begin_array();
  for (const std::string& argument : plan.arguments) json.value(argument);
  json.end_array();
  json.key("config").value(plan.config);
  json.key("chip").value(chip);
  json.key("workload").value(workload);
  json.key("swept").begin_array();
  for (const std::string& key : plan.swept_keys()) json.value(key);
  json.end_array();
  json.key("fixed").begin_object();
  for (const Axis& axis : plan.axes)
    if (axis.values.size() == 1) json.key(axis.key).value(axis.values.front());
  json.end_object();
  json.key("zip").value(plan.zip);
  json.key("points").begin_array();
  for (const PointResult& r : results) {
    json.begin_object();
    json.key("point").value(uint64_t{r.index});
    json.key("values").begin_object();
    for (const auto& [key, value] : r.values) json.key(key).value(value);
    json.end_object();
    json.key("status").value(r.status);
    if (r.status != "not run") {
      json.key("exit_code").value(r.exit_code);
      json.key("wall_s").value(r.wall_s);
    }
    if (r.status == "failed") json.key("error").value(r.error);
    if (r.status == "ok") report::write_headline_fields(json, r.headline);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.text();
}

std::string results_table(const SweepPlan& plan, const std::vector<PointResult>& results, std::optional<size_t> base) {
  const std::vector<std::string> swept = plan.swept_keys();
  std::string primary, unit;
  for (const PointResult& r : results)
    if (r.status == "ok" && !r.headline.figures.empty()) {
      primary = r.headline.figures.front().name;
      unit = r.headline.figures.front().unit;
      break;
    }
  std::vector<size_t> widths;
  std::string out = fmt::format("{:>5}", "point");
  for (const std::string& key : swept) {
    widths.push_back(std::max<size_t>(key.size(), 6));
    out += fmt::format("  {:>{}}", key, widths.back());
  }
  const std::string rate_title = primary.empty() ? std::string("result") : fmt::format("{} ({})", primary, unit);
  const size_t rate_width = std::max<size_t>(rate_title.size(), 12);
  const size_t reference = base && *base < results.size() ? *base : 0;
  out += fmt::format("  {:>{}}  {:>7}  {}\n", rate_title, rate_width, base ? "vs base" : "vs #0", "limited by");
  const double base_value = results.empty() ? std::nan("") : figure_value(results[reference], primary);
  for (const PointResult& r : results) {
    out += fmt::format("{:>5}", r.index);
    for (size_t i = 0; i < swept.size(); ++i) out += fmt::format("  {:>{}}", value_of(r.values, swept[i]), widths[i]);
    if (r.status != "ok") {
      out += fmt::format("  {:>{}}\n", r.status == "failed" ? fmt::format("failed (exit {})", r.exit_code) : r.status,
                         rate_width);
      continue;
    }
    const double value = figure_value(r, primary);
    const std::string change =
        base && r.index == reference ? std::string("base")
        : std::isfinite(base_value) && base_value != 0 && std::isfinite(value)
            ? fmt::format("{:+.1f}%", 100.0 * (value / base_value - 1))
            : std::string("-");
    out += fmt::format("  {:>{}}  {:>7}  {}\n", si_text(value), rate_width, change, r.headline.limited_by);
  }
  return out;
}

}  // namespace td::sweep

#include "tb/regress/golden_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

namespace td::tb {
namespace {

// One CSV record's fields: quoted fields may hold commas and doubled quotes.
std::vector<std::string> split_csv_line(const std::string& line, const std::string& where) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error(where + ": a quoted field is not closed");
  return fields;
}

bool as_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

}  // namespace

std::vector<Statistic> read_stats_csv(const std::string& text, const std::string& source) {
  std::vector<Statistic> stats;
  size_t start = 0, line_number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::string where = fmt::format("{}:{}", source, line_number);
    if (line_number == 1) {
      if (line != "name,unit,value,description") throw std::runtime_error(where + ": not a tdsim stats CSV");
      continue;
    }
    const std::vector<std::string> fields = split_csv_line(line, where);
    if (fields.size() != 4 || fields[0].empty())
      throw std::runtime_error(fmt::format("{}: expected name,unit,value,description (got {} fields)", where,
                                           fields.size()));
    stats.push_back(Statistic{fields[0], fields[1], fields[2]});
  }
  if (line_number == 0) throw std::runtime_error(source + ": empty");
  return stats;
}

std::vector<StatChange> diff_stats(const std::vector<Statistic>& expected, const std::vector<Statistic>& actual) {
  std::unordered_map<std::string, const Statistic*> now;
  for (const Statistic& s : actual) now[s.name] = &s;
  std::unordered_map<std::string, bool> before;
  std::vector<StatChange> changes;
  for (const Statistic& old : expected) {
    before[old.name] = true;
    const auto it = now.find(old.name);
    if (it == now.end())
      changes.push_back(StatChange{old.name, old.unit, old.value, ""});
    else if (it->second->value != old.value)
      changes.push_back(StatChange{old.name, old.unit, old.value, it->second->value});
  }
  for (const Statistic& added : actual)
    if (!before.count(added.name)) changes.push_back(StatChange{added.name, added.unit, "", added.value});
  const auto depth = [](const StatChange& c) { return std::count(c.name.begin(), c.name.end(), '.'); };
  std::stable_sort(changes.begin(), changes.end(),
                   [&](const StatChange& a, const StatChange& b) { return depth(a) < depth(b); });
  return changes;
}

std::string format_change(const StatChange& c) {
  if (c.old_value.empty() && !c.new_value.empty()) return fmt::format("{}: {} {} (added)", c.name, c.new_value, c.unit);
  if (c.new_value.empty() && !c.old_value.empty())
    return fmt::format("{}: {} {} (removed)", c.name, c.old_value, c.unit);
  std::string out = fmt::format("{}: {} -> {} {}", c.name, c.old_value, c.new_value, c.unit);
  double before = 0, after = 0;
  if (as_number(c.old_value, before) && as_number(c.new_value, after)) {
    if (before != 0)
      out += fmt::format(" ({:+.3g}%)", 100.0 * (after - before) / std::fabs(before));
    else
      out += " (was 0)";
  }
  return out;
}

}  // namespace td::tb

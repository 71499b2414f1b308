#include "model/sim/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/sim/json.h"
#include "model/sim/json_writer.h"

namespace td::sim {

namespace {



// RFC 4180: a field holding a separator, quote or line break is quoted, quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// A spreadsheet reads an empty cell as "no value"; shortest round-trip digits otherwise.
std::string csv_double(double value) { return std::isfinite(value) ? fmt::format("{}", value) : ""; }

// People read six significant digits; large values keep every integer digit.
std::string table_double(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (std::fabs(value) >= 1e6) return fmt::format("{:.0f}", value);
  return fmt::format("{:.6g}", value);
}

// A line break inside a description would break the table's columns.
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }, ' ');
  return text;
}

std::string bucket_label(const Histogram& histogram, std::size_t bucket) {
  const std::vector<uint64_t>& bounds = histogram.bounds();
  const uint64_t lo = bucket == 0 ? 0 : bounds[bucket - 1];
  if (bucket == bounds.size()) return fmt::format("bucket[{},inf)", lo);
  return fmt::format("bucket[{},{})", lo, bounds[bucket]);
}

}  // namespace

Histogram::Histogram(std::vector<uint64_t> bounds) : bounds_(std::move(bounds)) {
  // Buckets are found by binary search, which needs strictly increasing bounds.
  for (std::size_t i = 1; i < bounds_.size(); ++i) {
    if (bounds_[i] <= bounds_[i - 1]) {
      throw std::invalid_argument(fmt::format("histogram bounds must be strictly increasing (bound {} is {} after {})",
                                              i, bounds_[i], bounds_[i - 1]));
    }
  }
  buckets_.assign(bounds_.size() + 1, 0);
  bound_count_ = static_cast<uint32_t>(bounds_.size());
  powers_of_two_ = true;
  for (std::size_t i = 0; i < bounds_.size(); ++i) powers_of_two_ = powers_of_two_ && bounds_[i] == uint64_t{1} << i;
}

void Histogram::sample(uint64_t value) {
  // A value equal to a bound belongs to the bucket that bound opens: the
  // bucket is the number of bounds <= value. With bounds 1, 2, 4, ... that
  // is the value's bit width (constant time, on every lane's latency).
  std::size_t bucket;
  if (powers_of_two_) {
    const auto width = static_cast<std::size_t>(value == 0 ? 0 : 64 - __builtin_clzll(value));
    bucket = std::min<std::size_t>(width, bound_count_);
  } else {
    bucket = static_cast<std::size_t>(std::upper_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin());
  }
  ++buckets_[bucket];
  ++count_;
  sum_ += value;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

void Histogram::reset() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = 0;
  sum_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
}

std::vector<uint64_t> power_of_two_bounds(uint64_t limit) {
  std::vector<uint64_t> bounds;
  for (uint64_t bound = 1; bound <= limit; bound *= 2) {
    bounds.push_back(bound);
    if (bound > UINT64_MAX / 2) break;  // the next power of two does not fit
  }
  return bounds;
}

void StatsRegistry::check_new_name(const std::string& name) const {
  if (name.empty()) throw std::invalid_argument("stats: empty stat name");
  if (index_.count(name)) throw std::logic_error(fmt::format("stats: '{}' registered twice", name));
}

void StatsRegistry::add_entry(Entry entry) {
  index_.emplace(entry.name, entries_.size());
  entries_.push_back(std::move(entry));
}

const StatsRegistry::Entry& StatsRegistry::find(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) throw std::out_of_range(fmt::format("stats: no stat named '{}'", name));
  return entries_[it->second];
}

Counter& StatsRegistry::counter(const std::string& name, const std::string& unit, const std::string& description) {
  check_new_name(name);
  Counter& counter = counters_.emplace_back();
  Entry entry{name, unit, description, Kind::kCounter, &counter, nullptr, {}};
  add_entry(std::move(entry));
  return counter;
}

void StatsRegistry::counter_in(const std::string& name, const std::string& unit, const std::string& description,
                               Counter& counter) {
  check_new_name(name);
  add_entry(Entry{name, unit, description, Kind::kCounter, &counter, nullptr, {}});
}

Histogram& StatsRegistry::histogram(const std::string& name, const std::string& unit, const std::string& description,
                                   std::vector<uint64_t> bounds) {
  check_new_name(name);
  Histogram& histogram = histograms_.emplace_back(std::move(bounds));
  Entry entry{name, unit, description, Kind::kHistogram, nullptr, &histogram, {}};
  add_entry(std::move(entry));
  return histogram;
}

void StatsRegistry::formula(const std::string& name, const std::string& unit, const std::string& description,
                            std::function<double()> compute) {
  check_new_name(name);
  // Caught here rather than as std::bad_function_call when a report is made.
  if (!compute) throw std::invalid_argument(fmt::format("stats: formula '{}' has no function", name));
  Entry entry{name, unit, description, Kind::kFormula, nullptr, nullptr, std::move(compute)};
  add_entry(std::move(entry));
}

void StatsRegistry::reset() {
  for (Entry& entry : entries_) {
    if (entry.counter) entry.counter->reset();
    if (entry.histogram) entry.histogram->reset();
  }
}

uint64_t StatsRegistry::value(const std::string& name) const {
  const Entry& entry = find(name);
  if (entry.kind != Kind::kCounter) throw std::out_of_range(fmt::format("stats: '{}' is not a counter", name));
  return entry.counter->value();
}

std::string StatsRegistry::to_json() const {
  JsonWriter json;
  json.begin_object();
  json.key("stats").begin_object();
  for (const Entry& entry : entries_) {
    json.key(entry.name).begin_object();
    json.key("unit").value(entry.unit);
    json.key("description").value(entry.description);
    json.key("value");
    switch (entry.kind) {
      case Kind::kCounter: json.value(entry.counter->value()); break;
      case Kind::kFormula: json.value(entry.compute()); break;
      case Kind::kHistogram: {
        const Histogram& h = *entry.histogram;
        json.begin_object();
        json.key("count").value(h.count());
        json.key("sum").value(h.sum());
        json.key("min").value(h.min());
        json.key("max").value(h.max());
        json.key("mean").value(h.mean());
        json.key("bounds").begin_array();
        for (uint64_t bound : h.bounds()) json.value(bound);
        json.end_array();
        json.key("buckets").begin_array();
        for (uint64_t count : h.buckets()) json.value(count);
        json.end_array();
        json.end_object();
        break;
      }
    }
    json.end_object();
  }
  json.end_object();
  json.end_object();
  return json.text();
}

std::vector<StatsRegistry::Row> StatsRegistry::rows(std::string (*format_double)(double)) const {
  std::vector<Row> out;
  for (const Entry& entry : entries_) {
    if (entry.kind == Kind::kCounter) {
      out.push_back({entry.name, entry.unit, std::to_string(entry.counter->value()), entry.description});
    } else if (entry.kind == Kind::kFormula) {
      out.push_back({entry.name, entry.unit, format_double(entry.compute()), entry.description});
    } else {
      const Histogram& h = *entry.histogram;
      out.push_back({entry.name + ".count", "samples", std::to_string(h.count()), entry.description});
      out.push_back({entry.name + ".mean", entry.unit, format_double(h.mean()), entry.description});
      out.push_back({entry.name + ".min", entry.unit, std::to_string(h.min()), entry.description});
      out.push_back({entry.name + ".max", entry.unit, std::to_string(h.max()), entry.description});
      for (std::size_t i = 0; i < h.buckets().size(); ++i) {
        out.push_back({entry.name + "." + bucket_label(h, i), "samples", std::to_string(h.buckets()[i]),
                        entry.description});
      }
    }
  }
  return out;
}

std::string StatsRegistry::to_csv() const {
  std::string out = "name,unit,value,description\n";
  for (const Row& row : rows(csv_double)) {
    out += fmt::format("{},{},{},{}\n", csv_field(row.name), csv_field(row.unit), csv_field(row.value),
                       csv_field(row.description));
  }
  return out;
}

std::string StatsRegistry::to_table() const {
  const std::vector<Row> table = rows(table_double);
  std::size_t name_width = 0, value_width = 0, unit_width = 0;
  for (const Row& row : table) {
    name_width = std::max(name_width, row.name.size());
    value_width = std::max(value_width, row.value.size());
    unit_width = std::max(unit_width, row.unit.size());
  }
  // Padded by bytes (fmt would count display width): names are ASCII, and
  // bytes keep the columns consistent with the widths measured above.
  std::string out;
  for (const Row& row : table) {
    std::string line = one_line(row.name);
    line.append(name_width - row.name.size() + 2 + value_width - row.value.size(), ' ');
    line += row.value + "  " + one_line(row.unit);
    if (row.description.empty()) {
      line.erase(line.find_last_not_of(' ') + 1);  // no trailing blanks
    } else {
      line.append(unit_width - row.unit.size(), ' ');
      line += "  # " + one_line(row.description);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace td::sim

// stats.h — gem5-like statistics: every stat has a hierarchical name
// (`chip.wgp3.td1.box_tests`), a unit and a one-line description, and is
// registered once. Counters are plain integers incremented inline on the hot
// path; reports (JSON for tools, CSV for spreadsheets, an aligned table for
// people) are produced from the registry at the end of a run.
// No SystemC: the timing model and tools share this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace td::sim {

class Counter {
 public:
  void add(uint64_t n = 1) { value_ += n; }
  Counter& operator++() {
    ++value_;
    return *this;
  }
  uint64_t value() const { return value_; }
  void reset() { value_ = 0; }

 private:
  uint64_t value_ = 0;
};

// Fixed buckets: [bounds[i-1], bounds[i]) with an underflow bucket below
// bounds[0] and an overflow bucket at or above bounds.back().
// What sample() reads and writes shares one cache line (a TD samples a
// histogram for every lane it fetches, and 52 TDs' state does not stay in
// the host's first-level cache between one TD's clocks).
class alignas(64) Histogram {
 public:
  explicit Histogram(std::vector<uint64_t> bounds);
  void sample(uint64_t value);
  uint64_t count() const { return count_; }
  uint64_t sum() const { return sum_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
  const std::vector<uint64_t>& bounds() const { return bounds_; }
  // bounds().size() + 1 buckets: underflow, one per bound interval, overflow.
  const std::vector<uint64_t>& buckets() const { return buckets_; }
  void reset();

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, sum_ = 0, min_ = UINT64_MAX, max_ = 0;
  uint32_t bound_count_ = 0;    // bounds_.size()
  bool powers_of_two_ = false;  // bounds are 1, 2, 4, ...: the bucket is a bit width
  std::vector<uint64_t> bounds_;
};

// Powers of two 1, 2, 4, ... up to `limit` (for latency histograms).
std::vector<uint64_t> power_of_two_bounds(uint64_t limit);

class StatsRegistry {
 public:
  // References stay valid for the registry's lifetime. A name registered
  // twice is a programming error: std::logic_error.
  Counter& counter(const std::string& name, const std::string& unit, const std::string& description);
  Histogram& histogram(const std::string& name, const std::string& unit, const std::string& description,
                       std::vector<uint64_t> bounds);
  // A value computed from other stats when a report is made (rates, % of peak).
  void formula(const std::string& name, const std::string& unit, const std::string& description,
               std::function<double()> compute);

  // A struct of counters the registry owns, built with `args`, which
  // registers its members with counter_in() as it is built: a component
  // that updates several counters every clock keeps them side by side
  // (one reference, a line or two) instead of behind a reference each.
  template <typename Block, typename... Args>
  Block& block(Args&&... args) {
    auto owned = std::make_shared<Block>(std::forward<Args>(args)...);
    Block& built = *owned;
    blocks_.push_back(std::move(owned));
    return built;
  }
  // Registers `counter`, a member of a block() under construction.
  void counter_in(const std::string& name, const std::string& unit, const std::string& description, Counter& counter);

  void reset();  // counters and histograms to zero (formulas recompute)

  // Looks up a counter's value by full name; throws std::out_of_range.
  uint64_t value(const std::string& name) const;
  // Whether a stat of that full name is registered.
  bool has(const std::string& name) const { return index_.count(name) != 0; }

  // Reports, stats in registration order.
  // JSON: {"stats": {"<name>": {"unit": ..., "description": ..., "value": ...}}}
  //       histograms: "value": {"count","sum","min","max","mean","bounds":[...],"buckets":[...]}
  std::string to_json() const;
  // CSV: header `name,unit,value,description`; histograms as rows
  // `<name>.count`, `.mean`, `.min`, `.max`, and `<name>.bucket[lo,hi)`.
  std::string to_csv() const;
  // Aligned `name  value  unit  # description` lines.
  std::string to_table() const;

 private:
  enum class Kind { kCounter, kHistogram, kFormula };
  struct Entry {
    std::string name, unit, description;
    Kind kind;
    Counter* counter = nullptr;
    Histogram* histogram = nullptr;
    std::function<double()> compute;
  };
  // One line of the CSV and table reports; a histogram expands to several.
  struct Row {
    std::string name, unit, value, description;
  };
  std::vector<Row> rows(std::string (*format_double)(double)) const;
  void check_new_name(const std::string& name) const;
  void add_entry(Entry entry);
  const Entry& find(const std::string& name) const;

  std::deque<Counter> counters_;
  std::deque<Histogram> histograms_;
  std::vector<std::shared_ptr<void>> blocks_;  // block()s: their counters are registered too
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> index_;  // name -> entries_ position
};

// A prefix into a registry: StatGroup(stats, "chip.wgp3.td1").counter("box_tests", ...)
// registers "chip.wgp3.td1.box_tests".
class StatGroup {
 public:
  StatGroup(StatsRegistry& registry, std::string prefix) : registry_(&registry), prefix_(std::move(prefix)) {}
  StatGroup child(const std::string& name) const { return StatGroup(*registry_, prefix_ + "." + name); }
  Counter& counter(const std::string& name, const std::string& unit, const std::string& description) const {
    return registry_->counter(prefix_ + "." + name, unit, description);
  }
  void counter_in(const std::string& name, const std::string& unit, const std::string& description,
                  Counter& counter) const {
    registry_->counter_in(prefix_ + "." + name, unit, description, counter);
  }
  Histogram& histogram(const std::string& name, const std::string& unit, const std::string& description,
                       std::vector<uint64_t> bounds) const {
    return registry_->histogram(prefix_ + "." + name, unit, description, std::move(bounds));
  }
  void formula(const std::string& name, const std::string& unit, const std::string& description,
               std::function<double()> compute) const {
    registry_->formula(prefix_ + "." + name, unit, description, std::move(compute));
  }
  const std::string& prefix() const { return prefix_; }
  StatsRegistry& registry() const { return *registry_; }

 private:
  StatsRegistry* registry_;
  std::string prefix_;
};

}  // namespace td::sim

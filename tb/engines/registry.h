// registry.h — implementations chosen by name (Ramulator2's pattern): each
// is registered once under a name with a one-line description and a
// factory; a command's --engine picks one, its --help lists them, and an
// unknown name is refused with the list. Adding an engine (`rtl`) is one
// registration, not another branch at every call site.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace td::tb {

template <typename Product, typename Setup>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const Setup&)>;
  struct Entry {
    std::string name;
    std::string description;  // one line, for --help
    bool timed = false;       // simulates a chip: --config, --stats, --trace and the like apply
    Factory make;
    std::string datapath;     // a timed engine's td.datapath, whatever --config says ("": the config's)
  };

  Registry& add(Entry entry) {
    entries_.push_back(std::move(entry));
    return *this;
  }
  // nullptr when no implementation has that name.
  const Entry* find(const std::string& name) const {
    for (const Entry& entry : entries_)
      if (entry.name == name) return &entry;
    return nullptr;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& entry : entries_) out.push_back(entry.name);
    return out;
  }
  // "a (what a does), b (what b does)": for --help and error messages.
  std::string describe() const {
    std::string out;
    for (const Entry& entry : entries_) {
      if (!out.empty()) out += ", ";
      out += entry.name + " (" + entry.description + ")";
    }
    return out;
  }

 private:
  std::vector<Entry> entries_;  // in registration order
};

}  // namespace td::tb

// registry.h — implementations chosen by name (Ramulator2's pattern): each
// is registered once under a name (and any aliases users may type) with a
// one-line description; a command's --engine picks one, its --help lists
// them, and an unknown name is refused with the list. `Entry` has `name`,
// `aliases` and `description`, and whatever the callers need of it (its
// factories).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace td::tb {

template <typename Entry>
class Registry {
 public:
  Registry& add(Entry entry) {
    entries_.push_back(std::move(entry));
    return *this;
  }
  // The entry of that name or alias; nullptr when none.
  const Entry* find(const std::string& name) const {
    for (const Entry& entry : entries_) {
      if (entry.name == name) return &entry;
      for (const std::string& alias : entry.aliases)
        if (alias == name) return &entry;
    }
    return nullptr;
  }
  // Every name and alias a user may give.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& entry : entries_) {
      out.push_back(entry.name);
      out.insert(out.end(), entry.aliases.begin(), entry.aliases.end());
    }
    return out;
  }
  // "a (what a does; also b), c (what c does)": for --help and error messages.
  std::string describe() const {
    std::string out;
    for (const Entry& entry : entries_) {
      if (!out.empty()) out += ", ";
      out += entry.name + " (" + entry.description;
      for (const std::string& alias : entry.aliases) out += "; also " + alias;
      out += ")";
    }
    return out;
  }

 private:
  std::vector<Entry> entries_;  // in registration order
};

}  // namespace td::tb

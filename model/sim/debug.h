// debug.h — debug tracing selected by name at run time (`--debug td,mem`):
// one line per event, prefixed with the cycle and the hierarchical name of
// the component that printed it, on stderr. Off by default; a disabled
// category costs one load and branch at each site.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace td::sim {

enum class DebugCategory : unsigned { kTd = 0, kMem = 1, kChip = 2, kCount };

struct DebugFlags {
  bool enabled[static_cast<unsigned>(DebugCategory::kCount)] = {};
  bool any() const {
    for (bool on : enabled)
      if (on) return true;
    return false;
  }
};

inline DebugFlags& debug_flags() {
  static DebugFlags flags;
  return flags;
}

inline bool debug_enabled(DebugCategory category) {
  return debug_flags().enabled[static_cast<unsigned>(category)];
}

// Enables the comma-separated categories ("td,mem", "all"); returns the
// first unknown name, or an empty string when all were known.
std::string enable_debug(std::string_view names);

// Names accepted by enable_debug, for --help and errors.
const char* debug_category_names();

template <typename... Args>
void debug_print(uint64_t cycle, std::string_view who, fmt::format_string<Args...> format, Args&&... args) {
  std::string line = fmt::format("{:>10} {}: ", cycle, who);
  line += fmt::format(format, std::forward<Args>(args)...);
  line += '\n';
  std::fputs(line.c_str(), stderr);
}

}  // namespace td::sim

// TD_DEBUG(kTd, cycle, name(), "lane {} fetched", lane): formats only when enabled.
#define TD_DEBUG(category, cycle, who, ...)                                           \
  do {                                                                                \
    if (::td::sim::debug_enabled(::td::sim::DebugCategory::category))                 \
      ::td::sim::debug_print((cycle), (who), __VA_ARGS__);                            \
  } while (0)

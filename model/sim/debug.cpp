#include "model/sim/debug.h"

namespace td::sim {

namespace {

constexpr const char* kNames[] = {"td", "mem", "chip"};

}  // namespace

const char* debug_category_names() { return "td, mem, chip, all"; }

std::string enable_debug(std::string_view names) {
  while (!names.empty()) {
    const size_t comma = names.find(',');
    const std::string_view name = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    if (name.empty()) continue;
    bool known = false;
    for (unsigned i = 0; i < static_cast<unsigned>(DebugCategory::kCount); ++i) {
      if (name == kNames[i] || name == "all") {
        debug_flags().enabled[i] = true;
        known = true;
      }
    }
    if (!known) return std::string(name);
  }
  return {};
}

}  // namespace td::sim

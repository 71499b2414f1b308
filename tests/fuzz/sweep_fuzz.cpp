// Fuzz target for the sweep's parsers: any byte string, read as `--set`
// texts (one per line), as a point's point.json and as a report's headline,
// must give a result or std::invalid_argument / std::runtime_error naming
// what it read — never a crash, a hang or another exception. A grid that
// parses must number its points consistently.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/sweep/point_result.h"
#include "tb/sweep/sweep_plan.h"

namespace {

void fuzz_axes(const std::string& text) {
  std::vector<std::string> sets;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    sets.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  td::sweep::SweepPlan plan;
  plan.sets = sets;
  plan.zip = !text.empty() && (text[0] & 1);
  try {
    plan.axes = td::sweep::parse_axes(sets, plan.zip);
  } catch (const std::invalid_argument& error) {
    if (std::string(error.what()).rfind("--set ", 0) != 0) std::abort();
    return;
  }
  const size_t count = plan.point_count();
  if (count == 0 || count > td::sweep::kMaxPoints) std::abort();
  for (size_t k = 0; k < count && k < 64; ++k) {
    const td::sweep::Point point = plan.point(k);
    if (point.index != k || point.values.size() != plan.axes.size()) std::abort();
    for (size_t a = 0; a < plan.axes.size(); ++a)
      if (point.values[a].first != plan.axes[a].key || point.values[a].second.empty()) std::abort();
  }
}

template <typename Parse>
void fuzz_file(Parse parse) {
  td::sweep::PointResult result;
  try {
    parse(result);
  } catch (const std::runtime_error& error) {
    if (std::string(error.what()).rfind("fuzz.json", 0) != 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz_axes(text);
  fuzz_file([&](td::sweep::PointResult& r) { td::sweep::parse_point_record(text, "fuzz.json", r); });
  fuzz_file([&](td::sweep::PointResult& r) { td::sweep::parse_report_headline(text, "fuzz.json", r); });
  return 0;
}

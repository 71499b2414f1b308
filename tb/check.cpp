#include "tb/check.h"

#include <fmt/format.h>

#include <ostream>

namespace td::tb {

std::string format_result(const LaneResult& result) {
  if (!result.written) return "none";
  return fmt::format("{:08x},{:08x},{:08x},{:08x}", result.dwords[0], result.dwords[1], result.dwords[2],
                     result.dwords[3]);
}

CheckSummary check_files(const std::vector<TdvFile>& files, Engine& engine, std::ostream& out) {
  CheckSummary summary;
  for (const TdvFile& file : files) {
    std::vector<const TdvCase*> cases;
    cases.reserve(file.cases.size());
    for (const TdvCase& c : file.cases) cases.push_back(&c);
    const std::vector<LaneResult> results = engine.run(cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      const LaneResult expected = cases[i]->expected();
      if (results[i].same_value(expected)) {
        ++summary.passed;
        continue;
      }
      ++summary.failed;
      out << fmt::format("{}:{}: {}: expected {} got {}\n", file.path, cases[i]->line, cases[i]->name,
                         format_result(expected), format_result(results[i]));
    }
  }
  return summary;
}

}  // namespace td::tb

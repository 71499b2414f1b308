#include "tb/check.h"

#include <fmt/format.h>

#include <ostream>

#include "model/ref/intersect.h"

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
    const bool against_reference = engine.name() != "ref";
    for (size_t i = 0; i < cases.size(); ++i) {
      const TdvCase& c = *cases[i];
      const LaneResult expected = c.expected();
      const LaneResult reference =
          against_reference ? ref::intersect(Descriptor::unpack(c.desc), c.lane, c.memory()) : expected;
      if (results[i].same_value(expected) && results[i].same_value(reference)) {
        ++summary.passed;
        continue;
      }
      ++summary.failed;
      out << fmt::format("{}:{}: {}: expected {} got {}{}\n", file.path, c.line, c.name, format_result(expected),
                         format_result(results[i]),
                         against_reference ? fmt::format(" (reference {})", format_result(reference)) : "");
    }
  }
  return summary;
}

}  // namespace td::tb

#include "tb/vectors/check.h"

#include <fmt/format.h>

#include <ostream>

#include "model/ref/intersect.h"
#include "model/sim/interrupt.h"
#include "tb/vectors/case_waves.h"

namespace td::tb {

namespace {

void check_chunk(const std::string& path, const std::vector<TdvCase>& chunk, Engine& engine, uint32_t lanes_per_wave,
                 ContractCoverage* coverage, std::ostream& out, CheckSummary& summary) {
  std::vector<const TdvCase*> cases;
  cases.reserve(chunk.size());
  for (const TdvCase& c : chunk) cases.push_back(&c);
  std::vector<LaneResult> results(cases.size());
  for_each_case_batch(cases, lanes_per_wave, [&](const CaseWaves& waves) {
    const std::vector<WaveResult> executed = engine.execute(waves.batch);
    for (size_t w = 0; w < executed.size(); ++w)
      for (size_t lane = 0; lane < waves.lane_cases[w].size(); ++lane)
        results[waves.lane_cases[w][lane]] = executed[w].lanes.at(lane);
  });
  // The reference also runs each case on its own memory, as the file gives it.
  const bool against_reference = engine.name() != kReferenceEngineName;
  for (size_t i = 0; i < cases.size(); ++i) {
    const TdvCase& c = *cases[i];
    if (coverage) coverage->sample(c);
    const LaneResult expected = c.expected();
    const LaneResult reference =
        against_reference ? ref::intersect(Descriptor::unpack(c.desc), c.lane, c.memory()) : expected;
    const bool matches_reference = !against_reference || results[i].same_value(reference);
    if (results[i].same_value(expected) && matches_reference) {
      ++summary.passed;
      continue;
    }
    ++summary.failed;
    out << fmt::format("{}:{}: {}: expected {} got {}{}\n", path, c.line, c.name, format_result(expected),
                       format_result(results[i]),
                       matches_reference ? "" : fmt::format(" (reference {})", format_result(reference)));
  }
}

}  // namespace

CheckSummary check_files(const std::vector<std::string>& paths, Engine& engine, std::ostream& out,
                         const CheckOptions& options) {
  const size_t chunk_cases = options.chunk_cases;
  CheckSummary summary;
  std::vector<TdvCase> chunk;
  chunk.reserve(chunk_cases);
  try {
    for (const std::string& path : paths) {
      TdvReader reader(path);
      TdvCase tdv_case;
      bool more = true;
      while (more) {
        more = reader.next(tdv_case);
        if (more) chunk.push_back(std::move(tdv_case));
        if (chunk.size() == chunk_cases || (!more && !chunk.empty())) {
          sim::throw_if_interrupted();
          check_chunk(path, chunk, engine, options.lanes_per_wave, options.coverage, out, summary);
          chunk.clear();
        }
      }
    }
  } catch (const sim::Interrupted&) {
    summary.interrupted = true;
  }
  return summary;
}

}  // namespace td::tb

#include "tb/microbench/check_speed.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tb/common/self_process.h"
#include "tb/engines/engine.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace td::tb {
namespace {

namespace fs = std::filesystem;

// Runs this executable with `arguments`; throws naming them if it fails.
SelfRun run_checked(const std::vector<std::string>& arguments, const fs::path& log) {
  const SelfRun run = run_self(arguments, log.string());
  if (run.exit_code != 0)
    throw std::runtime_error(fmt::format("tdsim bench: 'tdsim {}' failed (exit {}):\n{}", fmt::join(arguments, " "),
                                         run.exit_code, run.output));
  return run;
}

}  // namespace

CheckSpeed measure_check_speed(const cfg::Config& config, uint64_t cases, unsigned threads) {
  const ScratchFolder scratch("tdsim-bench");
  const fs::path vectors = scratch.path() / "random.tdv", chip = scratch.path() / "chip.yaml";
  {
    std::ofstream out(vectors);
    out << format_tdv_header({fmt::format("tdsim bench: {} random cases, seed 1", cases)});
    RandomVectorStream stream(1, cases);
    for (TdvCase c; stream.next(c);) out << format_case(c) << '\n';
    std::ofstream(chip) << cfg::to_yaml(config);
  }
  CheckSpeed speed;
  speed.cases = cases;
  const fs::path log = scratch.path() / "check.log";
  const SelfRun model = run_checked({"check", vectors.string(), "--engine", "model", "--config", chip.string(),
                                   "--threads", std::to_string(threads)},
                                  log);
  const SelfRun reference = run_checked({"check", vectors.string(), "--engine", kReferenceEngineName}, log);
  speed.model_wall_s = model.wall_s;
  speed.model_rss_kib = model.rss_kib;
  speed.reference_wall_s = reference.wall_s;
  speed.reference_rss_kib = reference.rss_kib;
  return speed;
}

}  // namespace td::tb

// check_speed.h — `tdsim bench`'s check path: `tdsim check` on a file of
// seeded random vector cases, with the timing model and with the golden
// reference, each in a process of its own (SystemC elaborates once per
// process, and a process's peak memory is its own), timed from start to
// exit: what a user waiting for `tdsim check` sees.
#pragma once

#include <cstdint>
#include <string>

#include "model/config/config.h"

namespace td::tb {

struct CheckSpeed {
  uint64_t cases = 0;
  double model_wall_s = 0, reference_wall_s = 0;
  long model_rss_kib = 0, reference_rss_kib = 0;  // peak resident memory
};

// Writes `cases` random cases (seed 1) and `config` into a temporary folder,
// runs this executable's `check` on them with --engine model (its chip on
// `threads`) and --engine functional, and removes the folder. Throws
// std::runtime_error when a run fails (its exit code and output named).
CheckSpeed measure_check_speed(const cfg::Config& config, uint64_t cases, unsigned threads);

}  // namespace td::tb

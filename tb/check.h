// check.h — `tdsim check`: every case of every file through one engine,
// compared with the file's expectation.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "tb/engine.h"
#include "tb/tdv.h"

namespace td::tb {

struct CheckSummary {
  size_t passed = 0;
  size_t failed = 0;
};

// "none" or "r0,r1,r2,r3" in the tdv spelling.
std::string format_result(const LaneResult& result);

// Runs the parsed files' cases through `engine` and prints one line per
// mismatch to `out`: `file:line: name: expected X got Y`. An engine other
// than the reference is also compared with the reference on every case; a
// disagreement fails the case and the line adds `(reference R)`.
CheckSummary check_files(const std::vector<TdvFile>& files, Engine& engine, std::ostream& out);

}  // namespace td::tb

// check.h — `tdsim check`: every case of every file through one engine,
// compared with the file's expectation. Cases stream through the engine in
// chunks, so memory stays bounded however long the files are.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "tb/engines/engine.h"
#include "tb/vectors/coverage.h"
#include "tb/vectors/tdv.h"

namespace td::tb {

struct CheckSummary {
  size_t passed = 0;
  size_t failed = 0;
  bool interrupted = false;  // a signal stopped the run: the counts cover what finished
};

// Cases handed to the engine at once: enough to fill every TD of a large
// chip (52 TDs x 64 lanes) with work, small enough that what a chunk holds
// (batches, memory images, instructions in flight) stays a few MB.
constexpr size_t kCheckChunkCases = 4096;

struct CheckOptions {
  uint32_t lanes_per_wave = 64;  // 32 or 64: cases batched into instructions this wide (case_waves.h)
  size_t chunk_cases = kCheckChunkCases;
  ContractCoverage* coverage = nullptr;  // given: every case checked is sampled into it
};

// Streams the cases of `paths` (each already validated with
// validate_tdv_file), batched into wave instructions (case_waves.h),
// through `engine` and prints one line per mismatch to
// `out`: `file:line: name: expected X got Y`. An engine other than the
// reference is also compared with the reference on every case; a case it
// gets right by the file but not by the reference (or the other way round)
// fails, and then the line adds `(reference R)`. On SIGINT/SIGTERM the run
// stops between chunks (or at the engine's next clock boundary) and the
// summary says so.
CheckSummary check_files(const std::vector<std::string>& paths, Engine& engine, std::ostream& out,
                         const CheckOptions& options = {});

}  // namespace td::tb

// gen_vectors_command.h — `tdsim gen-vectors --kind edge|random -o FILE`:
// writes a vector file whose expectations come from the golden reference.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace td::tb {

struct GenVectorsOptions {
  std::string kind;
  uint64_t seed = 1;
  size_t count = 1000;
  std::string output;
};

CLI::App* add_gen_vectors_command(CLI::App& app, GenVectorsOptions& options);
int run_gen_vectors_command(const CLI::App* command, const GenVectorsOptions& options);

}  // namespace td::tb

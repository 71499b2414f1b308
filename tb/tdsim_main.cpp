// tdsim — command-line front end. Exit codes: 0 success, 1 a check failed,
// 2 bad input (flag, config, vector file) with an error naming it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/atomic_file.h"
#include "tb/check.h"
#include "tb/engine.h"
#include "tb/tdv.h"
#include "tb/vector_gen.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;

struct CheckOptions {
  std::vector<std::string> files;
  std::string engine = "ref";
};

int run_check(const CheckOptions& options) {
  // Read and validate everything first: a malformed file runs nothing.
  std::vector<td::tb::TdvFile> files;
  bool malformed = false;
  for (const std::string& path : options.files) {
    td::tb::TdvParse parse = td::tb::read_tdv_file(path);
    for (const td::tb::TdvError& error : parse.errors) std::cerr << "error: " << error.to_string() << "\n";
    malformed = malformed || !parse.ok();
    files.push_back(std::move(parse.file));
  }
  if (malformed) return kExitBadInput;

  auto engine = td::tb::make_engine(options.engine);
  if (!engine) {
    std::cerr << fmt::format("error: --engine: unknown engine '{}'\n", options.engine);
    return kExitBadInput;
  }
  const td::tb::CheckSummary summary = td::tb::check_files(files, *engine, std::cout);
  std::cout << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
  return summary.failed == 0 ? kExitOk : kExitCheckFailed;
}

struct GenOptions {
  std::string kind;
  uint64_t seed = 1;
  size_t count = 1000;
  std::string output;
};

int run_gen_vectors(const GenOptions& options) {
  std::vector<td::tb::TdvCase> cases = options.kind == "edge" ? td::tb::edge_vectors()
                                                             : td::tb::random_vectors(options.seed, options.count);
  std::vector<std::string> comments{
      options.kind == "edge"
          ? std::string("tdsim gen-vectors --kind edge: one case per rule of contract v1 and its boundaries")
          : fmt::format("tdsim gen-vectors --kind random --seed {} --count {}", options.seed, options.count),
      "expectations from tdsim's golden reference (model/ref)"};
  td::tb::write_file_atomically(options.output, td::tb::format_tdv(cases, comments));
  std::cerr << fmt::format("wrote {} cases to {}\n", cases.size(), options.output);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tdsim: cycle-level model of the RDNA2 TD ray-intersection hardware"};
  app.require_subcommand(1);

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Run reference-vector files through an engine; one line per mismatch, then 'N passed, M failed'");
  check_cmd->add_option("files", check.files, "Vector files (.tdv)")->required();
  check_cmd->add_option("--engine", check.engine, "Engine to check: ref")
      ->check(CLI::IsMember(td::tb::engine_names()))
      ->capture_default_str();

  GenOptions gen;
  CLI::App* gen_cmd =
      app.add_subcommand("gen-vectors", "Write reference vectors with expectations from the golden reference");
  gen_cmd->add_option("--kind", gen.kind, "edge: one case per contract rule; random: seeded random cases")
      ->required()
      ->check(CLI::IsMember({"edge", "random"}));
  gen_cmd->add_option("--seed", gen.seed, "Random seed (kind random)")->capture_default_str();
  gen_cmd->add_option("--count", gen.count, "Number of cases (kind random)")
      ->check(CLI::Range(size_t{1}, size_t{10000000}))
      ->capture_default_str();
  gen_cmd->add_option("-o,--output", gen.output, "Output .tdv file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*check_cmd) return run_check(check);
    if (*gen_cmd) return run_gen_vectors(gen);
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return kExitBadInput;
  }
  return kExitBadInput;
}

#include "tb/cli/gen_vectors_command.h"

#include <fmt/format.h>

#include <iostream>

#include "model/sim/interrupt.h"
#include "model/sim/output_file.h"
#include "tb/cli/common_options.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/unsigned_option.h"
#include "tb/vectors/tdv.h"
#include "tb/vectors/vector_gen.h"

namespace td::tb {

using namespace cli;

CLI::App* add_gen_vectors_command(CLI::App& app, GenVectorsOptions& options) {
  CLI::App* gen_cmd =
      app.add_subcommand("gen-vectors", "Write reference vectors with expectations from the golden reference");
  gen_cmd->add_option("--kind", options.kind, "edge: one case per contract rule; random: seeded random cases")
      ->required()
      ->check(CLI::IsMember({"edge", "random"}));
  gen_cmd->add_option("--seed", options.seed, "Random seed (kind random)")
      ->check(unsigned_in(0, UINT64_MAX))
      ->capture_default_str();
  gen_cmd->add_option("--count", options.count, "Number of cases (kind random)")
      ->check(unsigned_in(1, 10000000))
      ->capture_default_str();
  gen_cmd->add_option("-o,--output", options.output, "Output .tdv file")->required();
  return gen_cmd;
}

int run_gen_vectors_command(const CLI::App* command, const GenVectorsOptions& options) {
  if (options.kind == "edge") {
    const std::string why = "with --kind edge (the edge set is fixed: one case per rule)";
    refuse_if_given(command, "--seed", why);
    refuse_if_given(command, "--count", why);
  }
  OutputPaths outputs;
  outputs.add("--output", options.output);
  outputs.prepare();
  const std::vector<std::string> comments{
      options.kind == "edge"
          ? std::string("tdsim gen-vectors --kind edge: one case per rule of contract v1 and its boundaries")
          : fmt::format("tdsim gen-vectors --kind random --seed {} --count {}", options.seed, options.count),
      "expectations from tdsim's golden reference (model/ref)"};
  // Written as made, through a temporary file: millions of cases never sit
  // in memory, and an interrupted run leaves nothing.
  sim::OutputFile file(options.output);
  std::string text = format_tdv_header(comments);
  size_t written = 0;
  const auto add = [&](const TdvCase& c) {
    text += format_case(c);
    text += '\n';
    ++written;
    if (text.size() < (size_t{1} << 20)) return;
    sim::throw_if_interrupted();
    file.write(text);
    text.clear();
  };
  if (options.kind == "edge") {
    for (const TdvCase& c : edge_vectors()) add(c);
  } else {
    RandomVectorStream stream(options.seed, options.count);
    for (TdvCase c; stream.next(c);) add(c);
  }
  file.write(text);
  file.commit();
  std::cerr << fmt::format("wrote {} cases to {}\n", written, options.output);
  return kExitOk;
}

}  // namespace td::tb

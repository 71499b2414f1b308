// The console examples of the README and of every page under docs/ (the
// manual, the answers) run exactly as printed: each `$ build/tdsim ...`
// line is run by the shell in a fresh folder laid out like a checkout
// (build/tdsim, configs/, tests/, scripts/, and the two small files the
// examples name: broken.tdv and one.tdv), and every output line the page
// shows must appear in the real output, in order. A line "..." stands for
// any number of lines; a line "[exit N]" gives the exit code the example
// ends with (otherwise 0, 1 for broken.tdv, 2 when it shows an "error:").
// So the README cannot drift from the program.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using Readme = CliTest;

struct Example {
  std::string file;                  // README.md, or a page under docs/
  int line = 0;                      // of the `$` line in it
  std::string command;               // after "$ "
  std::vector<std::string> output;   // the lines shown below it
  int exit_code = -1;                // from an "[exit N]" line; -1: none shown
};

std::vector<Example> console_examples(const std::string& file, const std::string& text) {
  std::vector<Example> examples;
  std::istringstream lines(text);
  std::string line;
  bool in_console = false;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      in_console = line == "```console";
      continue;
    }
    if (!in_console) continue;
    if (line.rfind("$ ", 0) == 0)
      examples.push_back({file, number, line.substr(2), {}, -1});
    else if (!examples.empty() && line.rfind("[exit ", 0) == 0)
      examples.back().exit_code = std::stoi(line.substr(6));
    else if (!examples.empty())
      examples.back().output.push_back(line);
  }
  return examples;
}

// Every shown line appears in `actual`, in order; "..." skips freely.
std::string missing_line(const std::vector<std::string>& shown, const std::string& actual) {
  std::vector<std::string> real;
  std::istringstream lines(actual);
  for (std::string line; std::getline(lines, line);) real.push_back(line);
  size_t at = 0;
  for (const std::string& want : shown) {
    if (want == "..." || want.empty()) continue;
    while (at < real.size() && real[at] != want) ++at;
    if (at == real.size()) return want;
    ++at;
  }
  return {};
}

TEST_F(Readme, ConsoleExamplesRunAsPrinted) {
  const std::string source = TDSIM_SOURCE_DIR;
  fs::create_directories(dir_ / "build");
  fs::create_symlink(TDSIM_BINARY, dir_ / "build" / "tdsim");
#ifdef TDSIM_DPI_TB_BINARY
  // The SystemVerilog testbench of the DPI-C example.
  fs::create_directories(dir_ / "build" / "tests" / "rtl");
  fs::create_symlink(TDSIM_DPI_TB_BINARY, dir_ / "build" / "tests" / "rtl" / "td_dpi_tb");
#endif
  fs::create_directory_symlink(source + "/configs", dir_ / "configs");
  fs::create_directory_symlink(source + "/tests", dir_ / "tests");
  fs::create_directory_symlink(source + "/scripts", dir_ / "scripts");
  // The files the examples name: the contract's example case, once with a
  // wrong expectation on line 3 and once as it should be.
  write("broken.tdv", "tdv 1\n# wrong on purpose\n" + kGoodCase + "expect=00000010,00000040,00000020,ffffffff\n");
  write("one.tdv", "tdv 1\n" + kGoodCase + kGoodExpect);

  std::vector<Example> examples = console_examples("README.md", read_file(source + "/README.md"));
  ASSERT_GE(examples.size(), 4u);
  std::vector<fs::path> pages;
  for (const auto& entry : fs::recursive_directory_iterator(source + "/docs"))
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  std::sort(pages.begin(), pages.end());
  for (const fs::path& page : pages) {
    const std::vector<Example> more =
        console_examples(fs::relative(page, source).string(), read_file(page.string()));
    examples.insert(examples.end(), more.begin(), more.end());
  }
  for (const Example& example : examples) {
    RunOptions options;
    options.cwd = dir_.string();
    const RunResult result = run_command(example.command, options);
    // A check that fails exits 1; an example that shows an error, 2.
    const bool a_check_that_fails = example.command.find("broken.tdv") != std::string::npos;
    const bool shows_an_error = !example.output.empty() && example.output.front().rfind("error: ", 0) == 0;
    const int expected = example.exit_code >= 0 ? example.exit_code : a_check_that_fails ? 1 : shows_an_error ? 2 : 0;
    EXPECT_EQ(result.exit_code, expected)
        << example.file << ":" << example.line << ": " << example.command << "\n" << result.output;
    const std::string missing = missing_line(example.output, result.output);
    EXPECT_TRUE(missing.empty()) << example.file << ":" << example.line << ": " << example.command
                                 << "\nshows a line the program does not print:\n" << missing << "\nactual:\n"
                                 << result.output;
  }
}

}  // namespace

namespace {

TEST(Architecture, EveryFileTheMapNamesExists) {
  // docs/architecture.md walks a newcomer through the files it names: each
  // one must be there (a rename that forgets the map fails here).
  const std::string source = TDSIM_SOURCE_DIR;
  const std::string text = read_file(source + "/docs/architecture.md");
  const std::regex path(R"(\b((model|tb|tests|configs|docs|rtl)/[A-Za-z0-9_/.-]+\.(h|cpp|md|yaml|sv)))");
  size_t named = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), path); it != std::sregex_iterator(); ++it) {
    ++named;
    EXPECT_TRUE(fs::exists(source + "/" + (*it)[1].str())) << (*it)[1].str();
  }
  EXPECT_GT(named, 40u);
}

}  // namespace

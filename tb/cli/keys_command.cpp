#include "tb/cli/keys_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "model/config/config.h"

namespace td::tb {

namespace {

// One column each: key, what it takes, what it is.
std::string plain_table(const std::vector<cfg::KeyInfo>& keys) {
  size_t key_width = 3, takes_width = 5;
  for (const cfg::KeyInfo& k : keys) {
    key_width = std::max(key_width, k.path.size());
    takes_width = std::max(takes_width, k.range.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {}\n", "key", key_width, "takes", takes_width, "what");
  for (const cfg::KeyInfo& k : keys)
    out += fmt::format("{:<{}}  {:<{}}  {}\n", k.path, key_width, k.range, takes_width, k.what);
  return out;
}

std::string markdown_page(const std::vector<cfg::KeyInfo>& keys) {
  std::string out =
      "# Configuration keys\n"
      "\n"
      "<!-- Made by `build/tdsim keys --markdown > docs/configuration.md`; a test holds it to the table. -->\n"
      "\n"
      "Every key of a configuration file, in the file's order, with what it takes\n"
      "and what it is: the key table in `model/config/config.cpp` (`cfg::keys()`), which\n"
      "also reads, checks and writes configurations. Every key is required. The\n"
      "shipped files in `configs/` give each key's value and, in its comment, the\n"
      "value's source; `--set KEY=VALUE` gives a key another value for one run.\n"
      "`l0` is the vector L0 of each TD, `l1` the L1 of each shader array, `l2.slice`\n"
      "one L2 slice.\n"
      "\n"
      "| key | takes | what |\n"
      "|---|---|---|\n";
  for (const cfg::KeyInfo& k : keys) out += fmt::format("| `{}` | {} | {} |\n", k.path, k.range, k.what);
  return out;
}

}  // namespace

CLI::App* add_keys_command(CLI::App& app, KeysOptions& options) {
  CLI::App* keys_cmd = app.add_subcommand("keys", "Every configuration key: what it takes and what it is");
  keys_cmd->add_flag("--markdown", options.markdown, "As docs/configuration.md: a Markdown page with the table");
  return keys_cmd;
}

int run_keys_command(const KeysOptions& options) {
  std::cout << (options.markdown ? markdown_page(cfg::keys()) : plain_table(cfg::keys()));
  return 0;
}

}  // namespace td::tb

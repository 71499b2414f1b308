// keys_command.h — `tdsim keys [--markdown]`: every configuration key, what
// it takes and what it is, as the key table declares them (cfg::keys()).
// docs/configuration.md is this command's --markdown output.
#pragma once

#include <CLI/CLI.hpp>

namespace td::tb {

struct KeysOptions {
  bool markdown = false;
};

CLI::App* add_keys_command(CLI::App& app, KeysOptions& options);
int run_keys_command(const KeysOptions& options);

}  // namespace td::tb

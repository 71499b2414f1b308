// regress_command.h — `tdsim regress [--dir DIR] [--update] [--set K=V]`:
// runs every fixed workload of DIR (NAME.args: the tdsim arguments, one
// line) in a process of its own, compares every statistic with NAME.csv and
// prints each one that changed (name, old, new, relative change). Exit 0
// when none did, 1 when any did; --update writes the new statistics
// instead. --set is passed to every workload (to see what a change moves).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace td::tb {

struct RegressOptions {
  std::string dir;
  bool update = false;
  std::vector<std::string> sets;
};

CLI::App* add_regress_command(CLI::App& app, RegressOptions& options, const std::string& default_dir);
int run_regress_command(const CLI::App* command, const RegressOptions& options);

}  // namespace td::tb

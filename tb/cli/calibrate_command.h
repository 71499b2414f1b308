// calibrate_command.h — `tdsim calibrate [--config FILE] [--set K=V]
// [--json FILE] [--markdown FILE]`: the chip against public RDNA2
// measurements, side by side. Runs fixed workloads, each in a process of
// its own (tdsim peak's one-lane latencies; tdsim run passes standing for
// a game's ray-tracing pass, a path tracer and the 3DMark DXR feature
// test), and prints one row per published figure: what was measured and
// where, the published value or band, the model's value, how far outside
// the band it is, and whether it is in. The rows and their sources are
// calibration.h's table (shared/research/rdna2-measurements.md).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace td::tb {

struct CalibrateOptions {
  std::string config;
  std::vector<std::string> sets;
  std::string json;      // {"rows": [{"figure", "source", "measured", "model", "error", "in_band"}, ...]}
  std::string markdown;  // the table as docs/calibration.md's
};

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options, const std::string& default_config);
int run_calibrate_command(const CLI::App* command, const CalibrateOptions& options);

}  // namespace td::tb

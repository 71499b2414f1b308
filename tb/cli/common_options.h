// common_options.h — the flags and rules every tdsim command shares: the one
// rule for flags that would have no effect, --stats files, --trace with its
// window, --debug. Errors are UsageError (exit 2), one line naming the flag.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/sim/stats.h"
#include "tb/cli/trace_output.h"

namespace td::tb::cli {

// Every command's exit codes (signals: sim::interrupt_exit_code()).
constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  // a check, point or workload failed
constexpr int kExitBadInput = 2;     // a flag, config or input file refused, with a one-line error

// A flag combination that cannot mean what the user wants.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

bool ends_with(const std::string& text, const std::string& suffix);

// The one rule for flags that would do nothing: refuse them, saying why
// ("--config has no effect with --engine functional (...)").
void refuse_if_given(const CLI::App* command, const std::string& flag, const std::string& reason);

// --stats FILE.json|FILE.csv (repeatable).
void add_stats_option(CLI::App* command, std::vector<std::string>& stats, const std::string& what);
void check_stats_names(const std::vector<std::string>& stats);
void write_stats(const std::vector<std::string>& paths, const sim::StatsRegistry& stats);

// --trace FILE.vcd|FILE.fst [--trace-start N] [--trace-cycles N|all].
struct TraceOptions {
  std::string path;
  uint64_t start = 0;
  std::string cycles;  // "all" or N; empty: kDefaultTraceCycles
};
void add_trace_options(CLI::App* command, TraceOptions& trace);
void check_trace_options(const CLI::App* command, const TraceOptions& trace);
// The trace file (nullptr without --trace); says on stderr which cycles it records.
std::unique_ptr<TraceOutput> open_trace(const TraceOptions& trace, uint64_t period_ps);

// --debug td,mem,chip: named debug lines on stderr (model/sim/debug.h).
void add_debug_option(CLI::App* command);

// --config FILE|NAME and --set KEY=VALUE (repeatable): the chip
// configuration a command runs. NAME is a shipped configuration
// (configs/NAME.yaml: small, xbox_series_s, xbox_series_x); each --set
// gives one key of it another value (cfg::Override). Throws ConfigError.
void add_set_option(CLI::App* command, std::vector<std::string>& sets);
// --config FILE|NAME, `what` naming what it is ("Chip configuration").
void add_config_option(CLI::App* command, std::string& config, const std::string& what = "Chip configuration");
std::string resolve_config(const std::string& file_or_name);
std::vector<cfg::Override> overrides_of(const std::vector<std::string>& sets);
cfg::Config load_chip_config(const std::string& file_or_name, const std::vector<std::string>& sets);

// --scoreboard all|off|sample:N: "all" -> 1, "off" -> 0, "sample:N" -> N
// (N >= 1: every Nth instruction is checked).
uint64_t parse_scoreboard(const std::string& text);

// --threads N: threads that tick the chip's TDs within a clock (default 1);
// any N gives the same bits. The rtl datapaths run on one thread: N > 1
// with td.datapath: rtl is refused.
constexpr unsigned kMaxChipThreads = 256;
void add_chip_threads_option(CLI::App* command, unsigned& threads);
void check_chip_threads(unsigned threads, const cfg::Config& config);

}  // namespace td::tb::cli

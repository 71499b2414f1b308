// point_result.h — one finished point of a sweep, as its folder holds it:
// DIR/points/NNNN/ has point.json (values, status, exit code, wall time,
// the tail of the output when it failed) and, when it ran to the end, the
// command's report.json (its "headline"), stats.csv, config.yaml (the
// effective configuration) and output.txt.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tb/report/headline.h"
#include "tb/sweep/sweep_plan.h"

namespace td::sweep {

struct PointResult {
  size_t index = 0;
  std::vector<std::pair<std::string, std::string>> values;
  std::string status = "not run";  // ok, failed, not run
  int exit_code = -1;
  double wall_s = 0;
  std::string error;               // failed: the last lines of its output
  std::string chip, workload;      // from the report
  report::Headline headline;       // from the report (ok points)
};

// "0007": every point folder's name has the same width, so they sort.
std::string point_folder_name(size_t index);

// Writes point.json into `folder`.
void write_point_record(const std::filesystem::path& folder, const Point& point, int exit_code, double wall_s,
                        const std::string& output_tail);

// Reads a point's folder; std::nullopt when it has no point.json (never
// finished). Throws std::runtime_error naming the file when a file is there
// but unreadable.
std::optional<PointResult> read_point_result(const std::filesystem::path& folder);

// The two files' parsers (JSON, read with yaml-cpp): point.json's fields
// into `result`, and a report's chip, workload and headline. Throw
// std::runtime_error naming `where` for text that is not such a file.
void parse_point_record(const std::string& text, const std::string& where, PointResult& result);
void parse_report_headline(const std::string& text, const std::string& where, PointResult& result);

// The last `lines` lines of `text`.
std::string tail_lines(const std::string& text, size_t lines);

}  // namespace td::sweep

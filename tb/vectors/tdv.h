// tdv.h — reader and writer of the reference-vector format (.tdv v1, see
// docs/tdv-format.md). Files are streamed line by line (a file of millions
// of cases never sits in memory whole): `validate_tdv_file` reads a file
// once to find every error before anything runs, and `TdvReader` then hands
// out its cases one at a time. Every error carries the file name and line.
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/isa/descriptor.h"
#include "model/isa/lane.h"
#include "model/isa/memory_image.h"

namespace td::tb {

struct TdvCase {
  std::string name;
  int line = 0;  // 1-based line in the source file
  DescriptorWords desc{};
  LaneInput lane;
  std::vector<uint8_t> mem;                         // empty, 64 or 128 bytes
  std::optional<std::array<uint32_t, 4>> expect;    // nullopt: `expect=none`

  // The lane result the file expects (written or not).
  LaneResult expected() const;
  // Byte address of `mem`, from desc and ptr as the contract computes it.
  uint64_t mem_address() const;
  // A memory holding `mem` at its address, zero elsewhere.
  MemoryImage memory() const;
};

struct TdvError {
  std::string file;
  int line = 0;  // 0: the file as a whole (unreadable)
  std::string message;
  std::string to_string() const;
};

struct TdvFile {
  std::string path;
  std::vector<TdvCase> cases;
};

struct TdvParse {
  TdvFile file;
  std::vector<TdvError> errors;  // non-empty: the file must not be run
  bool ok() const { return errors.empty(); }
};

// One line at a time, in order: the header, comments, blank lines, cases.
// Knows nothing of where the lines come from (text in memory, a stream).
class TdvLineParser {
 public:
  enum class Outcome { kNothing, kCase, kError };
  // A UTF-8 byte-order mark before the first line is skipped. After an
  // error in the header the rest of the file is ignored (kNothing).
  Outcome feed(std::string_view raw_line, int line_number, TdvCase& out, std::string& error);
  // At the end of the input: an error if there was no header, else empty.
  std::string finish() const;

 private:
  bool seen_header_ = false;
  bool bad_header_ = false;
};

// Parses `text` whole, cases kept in memory (tests, fuzzing, small files);
// `path` only names the source in errors. At most `max_errors` errors.
TdvParse parse_tdv(std::string_view text, const std::string& path, size_t max_errors = 20);
// read_tdv_file = validate, then read every case into memory.
TdvParse read_tdv_file(const std::string& path, size_t max_errors = 20);

// The errors of a file and its number of cases, streaming (memory: 8 bytes
// per case name, for the duplicate-name check). A directory, an unreadable
// file or an interrupted read is an error naming the file.
struct TdvValidation {
  std::vector<TdvError> errors;  // sorted by line; at most max_errors
  size_t case_count = 0;
  bool ok() const { return errors.empty(); }
};
TdvValidation validate_tdv_file(const std::string& path, size_t max_errors = 20);

// Streams the cases of a file already validated. next() skips nothing and
// throws std::runtime_error if the file changed underneath (a line no longer
// parses).
class TdvReader {
 public:
  explicit TdvReader(const std::string& path);  // throws std::runtime_error naming the file
  bool next(TdvCase& out);                      // false at the end of the file
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ifstream in_;
  std::string line_;
  int line_number_ = 0;
  TdvLineParser parser_;
};

// One case as a single canonical line (lower-case hex, fixed key order).
std::string format_case(const TdvCase& tdv_case);
// `tdv 1` and the comment lines (each prefixed with "# "): a file's start.
std::string format_tdv_header(const std::vector<std::string>& comments);
// The header, then the cases.
std::string format_tdv(const std::vector<TdvCase>& cases, const std::vector<std::string>& comments);

}  // namespace td::tb

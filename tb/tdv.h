// tdv.h — reader and writer of the reference-vector format (.tdv v1, see
// docs/tdv-format.md). A file is read whole and validated before anything
// runs: every error carries the file name and line number.
#pragma once

#include <array>
#include <cstdint>
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

// Parses `text`; `path` only names the source in errors. At most
// `max_errors` errors are collected.
TdvParse parse_tdv(std::string_view text, const std::string& path, size_t max_errors = 20);
TdvParse read_tdv_file(const std::string& path, size_t max_errors = 20);

// One case as a single canonical line (lower-case hex, fixed key order).
std::string format_case(const TdvCase& tdv_case);
// `tdv 1`, the comment lines (each prefixed with "# "), then the cases.
std::string format_tdv(const std::vector<TdvCase>& cases, const std::vector<std::string>& comments);

}  // namespace td::tb

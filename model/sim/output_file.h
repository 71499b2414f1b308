// output_file.h — an output written to `<path>.tmp.<pid>` and renamed onto
// `path` only when complete, so a failed or interrupted run never leaves a
// truncated report, vector file or trace. Every error names the file the
// user asked for. The temporary file is registered with model/sim/interrupt
// so that even a second, immediate signal removes it.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace td::sim {

class OutputFile {
 public:
  // Creates the temporary file; throws std::runtime_error naming it.
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless commit() succeeded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends; throws std::runtime_error on a failed write.
  void write(std::string_view bytes);
  // Closes and renames into place; throws std::runtime_error (and removes
  // the temporary file) if anything failed along the way.
  void commit();
  // Closes and removes the temporary file (nothing replaces `path`).
  void discard();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_, temp_path_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
  int interrupt_slot_ = -1;
};

}  // namespace td::sim

// text_file.h — a whole (small) file read into a string: the reports,
// statistics and records that regress and sweep read back.
#pragma once

#include <filesystem>
#include <string>

namespace td::tb {

// Throws std::runtime_error naming the path when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace td::tb

// atomic_file.h — outputs are written to a temporary file beside the target
// and renamed over it, so a failed or interrupted run never leaves a
// truncated report, vector file or trace behind.
#pragma once

#include <string>
#include <string_view>

namespace td::tb {

// Throws std::runtime_error naming the path on any failure.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace td::tb

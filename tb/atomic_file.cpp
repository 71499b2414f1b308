#include "tb/atomic_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace td::tb {

void write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string temp = fmt::format("{}.tmp.{}", path, static_cast<long>(getpid()));
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (!file) throw std::runtime_error(fmt::format("{}: cannot create ({})", temp, std::strerror(errno)));
  const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    throw std::runtime_error(fmt::format("{}: write failed", temp));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    throw std::runtime_error(fmt::format("{}: cannot rename into place ({})", path, reason));
  }
}

}  // namespace td::tb

#include "model/sim/output_file.h"

#include "model/sim/interrupt.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace td::sim {

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), temp_path_(fmt::format("{}.tmp.{}", path_, static_cast<long>(getpid()))) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (!file_) throw std::runtime_error(fmt::format("{}: cannot create ({})", path_, std::strerror(errno)));
  interrupt_slot_ = register_temp_file(temp_path_);
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (!file_ || std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    failed_ = true;
    throw std::runtime_error(fmt::format("{}: write failed ({})", path_, std::strerror(errno)));
  }
}

void OutputFile::commit() {
  if (!file_) throw std::runtime_error(fmt::format("{}: already closed", path_));
  const bool written = !failed_ && !std::ferror(file_);
  const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
  if (!written || !closed) {
    std::remove(temp_path_.c_str());
    unregister_temp_file(interrupt_slot_);
    throw std::runtime_error(fmt::format("{}: write failed, not saved", path_));
  }
  const bool renamed = std::rename(temp_path_.c_str(), path_.c_str()) == 0;
  const std::string reason = renamed ? "" : std::strerror(errno);
  if (!renamed) std::remove(temp_path_.c_str());
  unregister_temp_file(interrupt_slot_);
  if (!renamed) throw std::runtime_error(fmt::format("{}: cannot rename into place ({})", path_, reason));
}

void OutputFile::discard() {
  if (!file_) return;
  std::fclose(std::exchange(file_, nullptr));
  std::remove(temp_path_.c_str());
  unregister_temp_file(interrupt_slot_);
}

}  // namespace td::sim

#include "tb/cli/output_paths.h"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "model/sim/output_file.h"

namespace td::tb {

namespace fs = std::filesystem;

void OutputPaths::add(const std::string& flag, const std::string& path) {
  if (!path.empty()) outputs_.push_back({flag, path});
}

namespace {

// The same file however it is spelled (relative, absolute, via "..").
fs::path identity_of(const std::string& path) {
  std::error_code error;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(path), error);
  return error ? fs::absolute(path).lexically_normal() : canonical;
}

void prepare_one(const std::string& flag, const std::string& path) {
  const fs::path target(path);
  std::error_code error;
  if (fs::is_directory(target, error))
    throw std::invalid_argument(fmt::format("{} {}: is a directory, not a file", flag, path));
  const fs::path parent = target.parent_path();
  if (!parent.empty() && !fs::is_directory(parent, error)) {
    fs::create_directories(parent, error);
    if (error)
      throw std::invalid_argument(
          fmt::format("{} {}: cannot create directory {} ({})", flag, path, parent.string(), error.message()));
  }
  try {
    sim::OutputFile probe(path);  // creates <path>.tmp.<pid> beside it...
    probe.discard();              // ...and removes it: the real write renames such a file into place
  } catch (const std::runtime_error& failure) {
    throw std::invalid_argument(fmt::format("{} {}", flag, failure.what()));
  }
}

}  // namespace

void OutputPaths::prepare() const {
  for (size_t i = 0; i < outputs_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (identity_of(outputs_[i].path) == identity_of(outputs_[j].path))
        throw std::invalid_argument(fmt::format("{} {} and {} {} name the same file: give each output its own path",
                                                outputs_[j].flag, outputs_[j].path, outputs_[i].flag,
                                                outputs_[i].path));
  for (const Output& output : outputs_) prepare_one(output.flag, output.path);
}

}  // namespace td::tb

// output_paths.h — every file a command will write, gathered from its flags
// and checked before any work starts, so that a long run never ends in
// "cannot create": the same file named by two flags is refused, missing
// parent directories are made (like `mkdir -p`), and each file's directory
// is proved writable by creating and removing a probe file there. Errors
// name the flag and the path the user gave.
#pragma once

#include <string>
#include <vector>

namespace td::tb {

class OutputPaths {
 public:
  // Records that `flag` writes `path` (an empty path is ignored).
  void add(const std::string& flag, const std::string& path);
  // Throws std::invalid_argument (exit 2) naming the flag and the path.
  void prepare() const;

 private:
  struct Output {
    std::string flag;
    std::string path;
  };
  std::vector<Output> outputs_;
};

}  // namespace td::tb

// scene_error.h — bad scene input: a mesh that cannot be read or has nothing
// to trace, a ray file with a malformed line. what() is one line naming the
// file (and the line where there is one); the CLI maps it to exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace td::scene {

class SceneError : public std::runtime_error {
 public:
  explicit SceneError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace td::scene

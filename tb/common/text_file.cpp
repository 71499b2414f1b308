#include "tb/common/text_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace td::tb {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace td::tb

#include "tb/common/atomic_file.h"

#include "model/sim/output_file.h"

namespace td::tb {

void write_file_atomically(const std::string& path, std::string_view contents) {
  sim::OutputFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace td::tb

// vcd_merge.h — one VCD file from two: the model's trace and another
// writer's trace of parts of the same design (Verilator's, of the RTL units
// inside the TD's stages). Their scope trees are joined (a scope name with
// dots, as Verilator writes a model's name, nests like the model's own), the
// other file's identifier codes renumbered after the first's, and their
// value changes interleaved by time. Both must use the same time unit.
// Streams both files: memory does not grow with their length. No SystemC.
#pragma once

#include <cstddef>
#include <string>

namespace td::sim {

// The VCD identifier code of the index-th signal (base 94 over '!'..'~'):
// what VcdWriter gives its signals, and the merge the other file's.
std::string vcd_identifier_code(std::size_t index);

// Writes `main_path` joined with `extra_path` to `out_path` (through a
// temporary file renamed into place; `out_path` may be `main_path`).
// Throws std::runtime_error naming the file that cannot be read or parsed.
void merge_vcd(const std::string& main_path, const std::string& extra_path, const std::string& out_path);

}  // namespace td::sim

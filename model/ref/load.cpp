#include "model/ref/load.h"

#include <fmt/format.h>

#include <array>
#include <cassert>
#include <stdexcept>

namespace td::ref {

bool load_lane_ok(const LaneInput& lane) {
  if (!lane.exec) return true;
  if (lane.load_dwords < 1 || lane.load_dwords > kLoadMaxDwords) return false;
  return lane.load_address() % kLoadUnitBytes + lane.load_bytes() <= kLoadUnitBytes;
}

std::string load_lane_error(const LaneInput& lane) {
  if (load_lane_ok(lane)) return "";
  if (lane.load_dwords < 1 || lane.load_dwords > kLoadMaxDwords)
    return fmt::format("load of {} dwords (must be 1 to {})", static_cast<unsigned>(lane.load_dwords), kLoadMaxDwords);
  const uint64_t offset = lane.load_address() % kLoadUnitBytes;
  if (offset + lane.load_bytes() > kLoadUnitBytes)
    return fmt::format("load of {} bytes at {:#x} crosses a {}-byte unit", lane.load_bytes(), lane.load_address(),
                       kLoadUnitBytes);
  return "";
}

LaneResult load_result(const uint8_t* bytes, uint32_t dwords) {
  assert(dwords >= 1 && dwords <= kLoadMaxDwords);
  LaneResult result;
  result.written = true;
  result.outcome = LaneOutcome::kLoad;
  for (uint32_t d = 0; d < dwords; ++d)
    result.dwords[d] = static_cast<uint32_t>(bytes[4 * d]) | static_cast<uint32_t>(bytes[4 * d + 1]) << 8 |
                       static_cast<uint32_t>(bytes[4 * d + 2]) << 16 | static_cast<uint32_t>(bytes[4 * d + 3]) << 24;
  return result;
}

LaneResult load(const LaneInput& lane, const MemoryImage& memory) {
  if (!lane.exec) return LaneResult::no_write();
  const std::string error = load_lane_error(lane);
  if (!error.empty()) throw std::invalid_argument(error);
  std::array<uint8_t, 4 * kLoadMaxDwords> scratch{};
  return load_result(memory.view(lane.load_address(), lane.load_bytes(), scratch.data()), lane.load_dwords);
}

}  // namespace td::ref

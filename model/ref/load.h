// load.h — the golden reference of a vector memory load (buffer_load_dword,
// _dwordx2, _dwordx3, _dwordx4; global_load_dword*): one lane, no timing.
// A lane reads load_dwords dwords, little-endian, from its byte address; the
// read stays inside one 64-byte unit (the wave client keeps it there), so
// the TD fetches it with one request, as it fetches a node.
#pragma once

#include <cstdint>
#include <string>

#include "model/isa/lane.h"
#include "model/isa/memory_image.h"

namespace td::ref {

constexpr uint32_t kLoadMaxDwords = 4;
constexpr uint32_t kLoadUnitBytes = 64;  // a load's bytes lie within one such aligned unit

// Why an active load lane is not one the TD takes (a dword count outside
// 1..4, or bytes past the end of their 64-byte unit); "" when it is. An
// inactive lane's operands are not read: always "".
std::string load_lane_error(const LaneInput& lane);
// The same question without the words: true when load_lane_error() is "".
bool load_lane_ok(const LaneInput& lane);

// The lane's result: EXEC off writes nothing; otherwise dwords[0..n-1] are
// the n dwords at load_address(), the rest 0, outcome kLoad. An active lane
// the TD would refuse throws std::invalid_argument (load_lane_error()).
LaneResult load(const LaneInput& lane, const MemoryImage& memory);

// An active load lane's result from the `dwords` dwords it read, at `bytes`.
LaneResult load_result(const uint8_t* bytes, uint32_t dwords);

}  // namespace td::ref

// scoreboard.h — the golden reference's check on the timing model: every
// lane of every completed instruction is compared with the reference on the
// same inputs and the same memory: ref::intersect() for an intersect's
// lanes, ref::load() for a load's. The timing model only reports what it
// completed; the scoreboard decides whether it was right.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/isa/memory_image.h"
#include "model/isa/wave.h"

namespace td::tb {

// Checks may run on several threads, each with a scoreboard of its own:
// `order` numbers the instructions as they returned, and merge() keeps the
// first reports in that order, so what is reported does not depend on
// which thread checked what.
class Scoreboard {
 public:
  // Compares each lane; returns the number of mismatching lanes.
  uint32_t check(const WaveInstr& instr, const WaveResult& result, const MemoryImage& memory, uint64_t order = 0);
  // Compares one lane (lane `lane_index` of wave `wave_id`, an instruction
  // of `kind`; `descriptor` is an intersect's); true if it matches.
  bool check_lane(InstrKind kind, const Descriptor& descriptor, const LaneInput& input, const LaneResult& result,
                  const MemoryImage& memory, uint64_t wave_id, size_t lane_index, uint64_t order = 0);

  // A returned instruction that was never issued (or returned twice).
  void report_unknown(uint64_t wave_id, uint64_t order = 0);

  // Adds another scoreboard's counts and reports.
  void merge(const Scoreboard& other);
  void clear() { *this = Scoreboard(); }

  uint64_t lanes_checked() const { return lanes_checked_; }
  // Of those, lanes with EXEC clear (checked to write nothing; no test ran).
  uint64_t inactive_lanes_checked() const { return inactive_lanes_checked_; }
  // Of those, lanes of load instructions (active or not).
  uint64_t load_lanes_checked() const { return load_lanes_checked_; }
  uint64_t mismatches() const { return mismatches_; }
  // The first few mismatches, described for people.
  const std::vector<std::string>& reports() const { return reports_; }

 private:
  static constexpr size_t kMaxReports = 20;
  void report(uint64_t order, std::string text);
  std::vector<uint64_t> report_orders_;  // reports_[i] is of instruction report_orders_[i]
  uint64_t lanes_checked_ = 0;
  uint64_t inactive_lanes_checked_ = 0;
  uint64_t load_lanes_checked_ = 0;
  uint64_t mismatches_ = 0;
  std::vector<std::string> reports_;
};

}  // namespace td::tb

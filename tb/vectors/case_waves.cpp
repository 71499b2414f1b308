#include "tb/vectors/case_waves.h"

#include <array>
#include <map>
#include <stdexcept>
#include <utility>

#include "model/ref/intersect.h"

namespace td::tb {

namespace {

using Unit = std::array<uint8_t, kNodeUnitBytes>;
using Reads = std::vector<std::pair<uint64_t, Unit>>;

// The units a case reads, with their content (its mem bytes, zero past them).
Reads reads_of(const TdvCase& c) {
  Reads reads;
  const ref::LanePlan plan = ref::plan_lane(Descriptor::unpack(c.desc), c.lane);
  if (!plan.needs_fetch()) return reads;
  for (uint32_t offset = 0; offset < plan.bytes; offset += kNodeUnitBytes) {
    Unit unit{};
    for (uint32_t i = 0; i < kNodeUnitBytes && offset + i < c.mem.size(); ++i) unit[i] = c.mem[offset + i];
    reads.emplace_back(plan.address + offset, unit);
  }
  return reads;
}

// Cases that can share one memory image.
struct Batch {
  std::vector<size_t> cases;       // indices into the list
  std::map<uint64_t, Unit> units;  // address -> content read there

  bool fits(const Reads& reads) const {
    for (const auto& [address, content] : reads) {
      const auto it = units.find(address);
      if (it != units.end() && it->second != content) return false;
    }
    return true;
  }
  void add(size_t index, const Reads& reads) {
    cases.push_back(index);
    for (const auto& [address, content] : reads) units.emplace(address, content);
  }
};

CaseWaves waves_of(const Batch& batch, const std::vector<const TdvCase*>& cases, uint32_t lanes_per_wave) {
  CaseWaves out;
  for (const auto& [address, content] : batch.units) out.batch.memory.write(address, content.data(), content.size());
  // Lanes of one instruction share a descriptor: group in file order.
  std::map<DescriptorWords, std::vector<size_t>> by_descriptor;
  for (size_t index : batch.cases) by_descriptor[cases[index]->desc].push_back(index);
  for (const auto& [words, members] : by_descriptor) {
    for (size_t first = 0; first < members.size(); first += lanes_per_wave) {
      WaveInstr instr;
      instr.descriptor = Descriptor::unpack(words);
      std::vector<size_t> lane_cases;
      for (size_t k = first; k < members.size() && k < first + lanes_per_wave; ++k) {
        instr.lanes.push_back(cases[members[k]]->lane);
        lane_cases.push_back(members[k]);
      }
      out.batch.waves.push_back(std::move(instr));
      out.lane_cases.push_back(std::move(lane_cases));
    }
  }
  return out;
}

}  // namespace

void for_each_case_batch(const std::vector<const TdvCase*>& cases, uint32_t lanes_per_wave,
                         const std::function<void(const CaseWaves&)>& execute) {
  if (lanes_per_wave != 32 && lanes_per_wave != 64) throw std::invalid_argument("lanes per wave must be 32 or 64");
  Batch batch;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Reads reads = reads_of(*cases[i]);
    if (!batch.fits(reads)) {
      execute(waves_of(batch, cases, lanes_per_wave));
      batch = Batch{};
    }
    batch.add(i, reads);
  }
  if (!batch.cases.empty()) execute(waves_of(batch, cases, lanes_per_wave));
}

}  // namespace td::tb

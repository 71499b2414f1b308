// coverage.h — functional coverage of the contract (docs/semantics.md, the
// project's copy of td-semantics v1, whose section and step numbers the
// bins cite): which of its rules a set of vector cases exercises. Each bin
// names one case of one rule (a descriptor field that faults, an ulp_up
// grow class, a triangle selector, a return mode with a hit, ...); sampling
// a case counts, once, every bin its lane exercises, found by following the
// contract's steps on the case's own operands and node bytes (model/ref's
// plan, slab distances and tests, the node's decode), not by reading the
// engine's result. So coverage says what the stimulus reaches, whatever
// engine ran it, and a bin's hits are the cases that reached it.
//
// The bins are one table (contract_bins()): their names, the contract
// section each belongs to and what it means; `tdsim check --coverage`
// writes the counts as JSON and prints the bins never hit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tb/vectors/tdv.h"

namespace td::tb {

struct CoverageBin {
  const char* name;  // "group.case", e.g. "descriptor.type_not_8"
  const char* rule;  // the contract's section (and step), e.g. "§4", "§6 step 5"
  const char* what;  // one line
};

// Every bin, in the contract's order.
const std::vector<CoverageBin>& contract_bins();

class ContractCoverage {
 public:
  ContractCoverage();

  // Counts each bin the case's lane exercises, once.
  void sample(const TdvCase& tdv_case);

  // Cases that reached bin i (contract_bins()[i]); cases sampled.
  uint64_t count(size_t bin) const { return counts_[bin]; }
  uint64_t cases() const { return cases_; }
  size_t bins_hit() const;
  // The names of the bins never hit, in table order.
  std::vector<std::string> empty_bins() const;
  // {"cases": N, "bins": B, "bins_hit": H, "coverage": [{"bin", "rule", "what", "hits"}, ...]}
  std::string to_json() const;
  // "coverage: H of B bins hit" and, if any, a line naming the bins never hit.
  std::string summary() const;

 private:
  void mark(const TdvCase& tdv_case);  // sets marks_ of the bins the case reaches

  std::vector<uint64_t> counts_;
  std::vector<uint8_t> marks_;  // the case being sampled
  uint64_t cases_ = 0;
};

}  // namespace td::tb

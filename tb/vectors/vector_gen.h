// vector_gen.h — `tdsim gen-vectors`: reference vectors whose expectations come
// from the golden reference. `edge`: one directed case per rule of the
// contract and per boundary of each rule; `random`: seeded random cases over
// every node type, descriptor option and input form.
#pragma once

#include <cstdint>
#include <vector>

#include "tb/common/rng.h"
#include "tb/vectors/tdv.h"

namespace td::tb {

std::vector<TdvCase> edge_vectors();
std::vector<TdvCase> random_vectors(uint64_t seed, size_t count);

// The same cases as random_vectors(seed, count), one at a time, so that
// millions of them can be written without holding them.
class RandomVectorStream {
 public:
  RandomVectorStream(uint64_t seed, size_t count);
  bool next(TdvCase& out);  // false after `count` cases
  size_t index() const { return index_; }

 private:
  uint64_t seed_;
  size_t count_;
  size_t index_ = 0;
  Rng rng_;
};

// Sets `expect` of a case (of every case) from model/ref.
void fill_expectation(TdvCase& c);
void fill_expectations(std::vector<TdvCase>& cases);

}  // namespace td::tb

// vector_gen.h — `tdsim gen-vectors`: reference vectors whose expectations come
// from the golden reference. `edge`: one directed case per rule of the
// contract and per boundary of each rule; `random`: seeded random cases over
// every node type, descriptor option and input form.
#pragma once

#include <cstdint>
#include <vector>

#include "tb/tdv.h"

namespace td::tb {

std::vector<TdvCase> edge_vectors();
std::vector<TdvCase> random_vectors(uint64_t seed, size_t count);

// Sets `expect` of every case from model/ref.
void fill_expectations(std::vector<TdvCase>& cases);

}  // namespace td::tb

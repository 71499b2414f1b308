#include "tb/vector_gen.h"

#include "model/ref/intersect.h"

namespace td::tb {

void fill_expectations(std::vector<TdvCase>& cases) {
  for (TdvCase& c : cases) {
    const LaneResult result = ref::intersect(Descriptor::unpack(c.desc), c.lane, c.memory());
    if (result.written)
      c.expect = result.dwords;
    else
      c.expect.reset();
  }
}

std::vector<TdvCase> edge_vectors() { return {}; }  // TODO(helper): directed cases
std::vector<TdvCase> random_vectors(uint64_t, size_t) { return {}; }  // TODO(helper)

}  // namespace td::tb

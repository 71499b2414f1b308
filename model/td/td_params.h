// td_params.h — the numbers that shape one TD, as the TD itself sees them
// (the chip builds them from its configuration file, model/chip/
// model_params.h; the TD knows no file). No defaults of their own: the
// configuration's are the only ones.
#pragma once

#include <cstdint>

#include "model/mem/cache.h"
#include "model/td/datapath_factory.h"

namespace td::timing {

struct TdParams {
  uint32_t instruction_queue_depth = 0;  // instructions held (waiting or in flight)
  uint32_t fetch_queue_depth = 0;        // lanes between sequencer and node fetch
  uint32_t return_buffer_entries = 0;    // lanes between fetch and the issue port
  uint32_t box_latency_cycles = 0;
  uint32_t triangle_latency_cycles = 0;
  uint32_t sort_latency_cycles = 0;
  uint32_t return_latency_cycles = 0;    // last lane written -> results at the wave
  const DatapathFactory* datapaths = nullptr;  // their implementation (datapath_factory.h)
  mem::CacheGeometry l0;
};

}  // namespace td::timing

// wgp.h — a workgroup processor as the TD sees it: `tds_per_wgp` TD blocks
// (one per CU), each with its own L0, sharing the shader array's L1. The
// chip's clocked process ticks the TDs.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "model/mem/event_queue.h"
#include "model/mem/mem_level.h"
#include "model/sim/stats.h"
#include "model/td/td.h"
#include "model/td/td_params.h"

namespace td::chip {

class Wgp : public sc_core::sc_module {
 public:
  // TDs are numbered first_td_index, first_td_index + 1, ...
  Wgp(sc_core::sc_module_name name, uint32_t first_td_index, uint32_t tds, const timing::TdParams& params,
      mem::MemLevel& l1, mem::EventQueue* events, const timing::BackingStore& store, timing::WaveClient& client,
      sim::StatsRegistry& stats);

  size_t td_count() const { return tds_.size(); }
  timing::Td& td(size_t i) { return *tds_[i]; }

 private:
  std::vector<std::unique_ptr<timing::Td>> tds_;
};

}  // namespace td::chip

// wgp.h — a workgroup processor as the TD sees it: `tds_per_wgp` TD blocks
// (one per CU), each with its own L0, sharing the clock and the shader
// array's L1.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "model/chip/config.h"
#include "model/mem/mem_level.h"
#include "model/sim/stats.h"
#include "model/td/td.h"

namespace td::chip {

class Wgp : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;

  // TDs are numbered first_td_index, first_td_index + 1, ...
  Wgp(sc_core::sc_module_name name, uint32_t first_td_index, const cfg::Config& config, mem::MemLevel& l1,
      const timing::BackingStore& store, timing::WaveClient& client, sim::StatsRegistry& stats);

  size_t td_count() const { return tds_.size(); }
  timing::Td& td(size_t i) { return *tds_[i]; }

 private:
  std::vector<std::unique_ptr<timing::Td>> tds_;
};

}  // namespace td::chip

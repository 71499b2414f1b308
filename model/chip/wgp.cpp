#include "model/chip/wgp.h"

#include <string>

namespace td::chip {

Wgp::Wgp(sc_core::sc_module_name name, uint32_t first_td_index, const cfg::Config& config, mem::MemLevel& l1,
         const timing::BackingStore& store, timing::WaveClient& client, sim::StatsRegistry& stats)
    : sc_module(name), clk("clk"), rst_n("rst_n") {
  for (uint32_t i = 0; i < config.chip.tds_per_wgp; ++i) {
    const std::string td_name = "td" + std::to_string(i);
    tds_.push_back(
        std::make_unique<timing::Td>(td_name.c_str(), first_td_index + i, config, l1, store, client, stats));
    tds_.back()->clk(clk);
    tds_.back()->rst_n(rst_n);
  }
}

}  // namespace td::chip

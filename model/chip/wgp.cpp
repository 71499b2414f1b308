#include "model/chip/wgp.h"

#include <string>

namespace td::chip {

Wgp::Wgp(sc_core::sc_module_name name, uint32_t first_td_index, uint32_t tds, const timing::TdParams& params,
         mem::MemLevel& l1, mem::EventQueue* events, const timing::BackingStore& store, timing::WaveClient& client,
         sim::StatsRegistry& stats)
    : sc_module(name) {
  for (uint32_t i = 0; i < tds; ++i) {
    const std::string td_name = "td" + std::to_string(i);
    tds_.push_back(
        std::make_unique<timing::Td>(td_name.c_str(), first_td_index + i, params, l1, events, store, client, stats));
  }
}

}  // namespace td::chip

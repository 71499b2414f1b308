// case_waves.h — vector cases as the wave instructions an engine executes.
// Each case carries its own descriptor and memory; consecutive cases whose
// memory agrees (every 64-byte unit any of them reads has one content) share
// one memory image, and among those, cases with the same descriptor share
// instructions of up to `lanes_per_wave` lanes, in file order (by descriptor,
// then by case). Batches are made one at a time: one memory image lives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "tb/engines/engine.h"
#include "tb/vectors/tdv.h"

namespace td::tb {

struct CaseWaves {
  WaveBatch batch;
  std::vector<std::vector<size_t>> lane_cases;  // per wave, per lane: the case's index in the list
};

// Calls `execute` for each batch of `cases`, in order. lanes_per_wave: 32 or
// 64 (std::invalid_argument otherwise).
void for_each_case_batch(const std::vector<const TdvCase*>& cases, uint32_t lanes_per_wave,
                         const std::function<void(const CaseWaves&)>& execute);

}  // namespace td::tb

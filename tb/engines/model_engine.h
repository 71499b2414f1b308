// model_engine.h — the `model` engine of `tdsim check`: runs vector cases
// through the SystemC timing model. Cases are batched into wave
// instructions where the format allows (equal descriptors, memory that does
// not conflict), the waves are dealt to the chip's TDs, and the results come
// back lane by lane. One chip is elaborated per process and reused.
#pragma once

#include <memory>

#include "model/chip/config.h"
#include "tb/engines/engine.h"

namespace td::tb {

struct ModelEngineOptions {
  uint32_t lanes_per_wave = 64;  // 32 or 64
};

std::unique_ptr<Engine> make_model_engine(const cfg::Config& config, const ModelEngineOptions& options = {});

}  // namespace td::tb

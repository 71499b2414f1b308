// model_engine.h — the `model` engine of `tdsim check` (and `rtl`, the same
// chip with td.datapath: rtl): executes wave batches on the SystemC timing
// model, the waves dealt to the chip's TDs in turn. One chip is elaborated
// per process and reused.
#pragma once

#include <memory>

#include "model/config/config.h"
#include "tb/engines/engine.h"

namespace td::tb {

std::unique_ptr<Engine> make_model_engine(const cfg::Config& config, unsigned threads = 1);

}  // namespace td::tb

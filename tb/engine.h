// engine.h — one interface in front of every engine that can execute lanes:
// `ref` (golden reference, no time) today; `model` (SystemC timing model) and
// `rtl` (Verilated datapaths) plug in behind the same call.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/isa/lane.h"
#include "tb/tdv.h"

namespace td::tb {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Executes every case (each with its own descriptor and memory); results
  // come back in the order of `cases`. An engine may batch cases into waves.
  virtual std::vector<LaneResult> run(const std::vector<const TdvCase*>& cases) = 0;
};

// Names accepted by make_engine, for --help and error messages.
std::vector<std::string> engine_names();

// nullptr when `name` is not an engine this build knows.
std::unique_ptr<Engine> make_engine(const std::string& name);

}  // namespace td::tb

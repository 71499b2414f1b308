// stage_view.h — a TD stage's place in the SystemC hierarchy: an sc_module
// child of the TD named after the stage (`chip.wgp3.td1.node_fetch`), which
// traces, debug lines and deadlock reports name the stage by. It is held
// apart from the stage's state: a chip ticks its TDs hundreds of millions of
// times, and a stage's few hot fields should share cache lines with the
// next stage's rather than sit behind an sc_module's 232 bytes of
// bookkeeping. Construct it while the TD is being constructed.
#pragma once

#include <memory>
#include <systemc>

namespace td::timing {

class StageView {
 public:
  explicit StageView(const char* name) : module_(std::make_unique<Module>(name)) {}
  const char* name() const { return module_->name(); }

 private:
  struct Module : sc_core::sc_module {
    explicit Module(sc_core::sc_module_name name) : sc_module(name) {}
  };
  std::unique_ptr<Module> module_;
};

}  // namespace td::timing

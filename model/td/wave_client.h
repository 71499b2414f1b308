// wave_client.h — the SIMDs' side of a TD: whoever issues wave instructions
// (intersects and vector memory loads, one stream: wave.h) to it and takes
// their results (vector files, microbenchmarks, the traversal shader).
// Called from inside the chip's clocked process. A kShared client (see
// work_source) is called clock by clock, in TD order: one deterministic
// sequence of calls. A kPerTd client's calls for one TD come in that TD's
// cycle order, but the TDs' calls interleave in any order, maybe on
// several threads at once (the chip runs each TD a quantum ahead, chip.h):
// a call for a TD touches only that TD's share of the client; dispatch()
// runs alone.
#pragma once

#include <cstdint>

#include "model/isa/wave.h"

namespace td::timing {

class WaveClient {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  virtual ~WaveClient() = default;

  // The TD `td_index` has room for an instruction at `cycle`. Fill `out` and
  // return true (`out` may still hold an earlier instruction, whose lanes'
  // storage the TD reuses: set every field, the kind too); or return false and set `retry_cycle` to the first cycle
  // the client may have one (a wave still in its ALU work until then), or
  // leave it kNever: then nothing comes until the chip is woken
  // (Chip::wake), which every returned result also does (see
  // work_source).
  virtual bool next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) = 0;

  // All active lanes of an instruction are written: the results reach the
  // wave at `result.complete_cycle`. Return false to refuse them this clock
  // (the wave's registers are not free): the TD holds them, counts a stall
  // and offers them again next clock; `result` is then left as it was.
  virtual bool wave_completed(uint32_t td_index, WaveResult& result) = 0;

  // The client issues vector memory loads (WaveInstr kind kLoad) besides
  // intersects. Asked once, when the TD is built: such a TD registers its
  // load counters (td_stats.h), and any other refuses a load instruction
  // (std::invalid_argument out of the run).
  virtual bool issues_loads() const { return false; }

  // Where the client's instructions come from, and so which TDs a result
  // returned to one TD can give work (the chip wakes those that wait):
  //   kShared: one pool every TD draws from (a vector file's batches):
  //     any of them. The default.
  //   kPerTd: each TD has its own waves, as a SIMD issues only to its own
  //     TD, and a TD with room never waits while its waves have work (a
  //     traversal shader): only the TD the result returned to.
  enum class WorkSource { kShared, kPerTd };
  virtual WorkSource work_source() const { return WorkSource::kShared; }

  // A kPerTd client's shared part: a dispatcher that hands new work to the
  // TDs' wave slots, as a GPU's SPI launches waves. A request a TD's call
  // makes at cycle c (a free slot asking for rays) is answered by
  // dispatch(), and the answer acts in that TD from cycle
  // c + dispatch_latency() on, never sooner: the chip may run a TD up to that
  // many cycles ahead of the requests of the others. kNever: no shared
  // part (nothing bounds how far a TD may run ahead but its memory).
  virtual uint64_t dispatch_latency() const { return kNever; }
  // Serves every request made before `cycle`, in (cycle, TD, slot) order.
  // The chip calls it on its own thread once every TD has run every clock
  // before `cycle` (at the latest before any TD runs cycle c +
  // dispatch_latency() for a request made at c).
  virtual void dispatch(uint64_t /*cycle*/) {}

  // Work on the results TD `td_index` returned this clock that needs nothing
  // but them (a scoreboard's reference run): the chip calls it in every
  // clock in which the TD returned one, after every TD's wave_completed()
  // calls of that clock — on any thread, and for several TDs at once. Touch
  // only that TD's share of the client's state. By default: nothing.
  virtual void process_returned(uint32_t /*td_index*/) {}
};

}  // namespace td::timing

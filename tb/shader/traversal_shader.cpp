#include "tb/shader/traversal_shader.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "model/config/model_memory.h"
#include "model/ref/intersect.h"

namespace td::shader {

namespace {

constexpr size_t kRayBatch = 4096;  // rays read from the source at a time

// The configuration's memory estimate counts a shader lane at this bound.
// (Two levels add the instance step's loaded data, 80 bytes a lane.)
static_assert(sizeof(RayTraversal) + RayTraversal::spill_bytes() + sizeof(scene::SceneRay) + sizeof(uint64_t) + 1 +
                      sizeof(RayTraversal::LoadedDwords) <=
                  cfg::kShaderLaneBytes,
              "a shader lane outgrew cfg::kShaderLaneBytes: raise it");

}  // namespace

TraversalShader::TraversalShader(const ShaderParams& params, uint32_t td_count, const scene::EncodedBvh& bvh,
                                 RaySource& rays, const TraversalOptions& walk, RaySink& sink,
                                 const sim::StatGroup& stats)
    : params_(params),
      td_count_(td_count),
      bvh_(bvh),
      rays_(rays),
      options_{walk.mode, walk.overflow, params.stack_entries, walk.instance_mask},
      sink_(sink),
      alu_cycles_per_iteration_(uint64_t{params.alu_instructions_per_iteration} * (params.lanes_per_wave / 32)),
      alu_cycles_per_instance_(uint64_t{params.alu_instructions_per_instance} * (params.lanes_per_wave / 32)),
      issue_cycles_(params.lanes_per_wave / 32),
      alu_cycles_per_shading_(uint64_t{params.shading.alu_instructions} * (params.lanes_per_wave / 32)),
      walks_(size_t{td_count} * params.simds_per_td * params.waves_per_simd * params.lanes_per_wave),
      waves_(size_t{td_count} * params.simds_per_td * params.waves_per_simd),
      schedule_(waves_.size()),
      td_waves_(td_count),
      simd_free_cycle_(size_t{td_count} * params.simds_per_td, 0),
      in_flight_(td_count),
      checks_(td_count),
      waves_launched_(stats.counter("waves", "waves", "waves launched (each traces up to lanes_per_wave rays)")),
      rays_finished_(stats.counter("rays", "rays", "rays whose walk ended and whose hit was delivered")),
      instructions_(stats.counter("instructions", "instructions", "image_bvh_intersect_ray issued to the TDs")),
      lanes_issued_(stats.counter("lanes_issued", "lanes", "lanes of the instructions issued (EXEC on or off)")),
      active_lanes_issued_(stats.counter("active_lanes_issued", "lanes", "lanes issued with EXEC on (a live ray)")),
      alu_busy_cycles_(stats.counter("alu_busy_cycles", "SIMD-cycles", "SIMD clocks spent on traversal-loop ALU work")),
      ready_wait_cycles_(stats.counter("ready_wait_cycles", "wave-cycles",
                                       "a wave's instruction was ready but the TD had no room for it")),
      td_wait_cycles_(stats.counter("td_wait_cycles", "wave-cycles",
                                    "a wave waited for its instruction's results from the TD")),
      waits_(stats.counter("waits", "waits",
                           "times a wave waited for the TD (s_waitcnt): one per intersect, one per group of loads")),
      lds_wait_cycles_(stats.counter("lds_wait_cycles", "wave-cycles",
                                     "a wave waited for a stack pop's LDS read before its next intersect")) {
  if (params_.lanes_per_wave != 32 && params_.lanes_per_wave != 64)
    throw std::invalid_argument("shader: lanes_per_wave must be 32 or 64");
  if (params_.wave_launch_cycles < 1) throw std::invalid_argument("shader: wave_launch_cycles must be >= 1");
  for (size_t w = 0; w < waves_.size(); ++w) {
    Wave& wave = waves_[w];
    wave.lanes = walks_.at(w * params_.lanes_per_wave);
    wave.rays.resize(params_.lanes_per_wave);
    wave.ray_index.resize(params_.lanes_per_wave);
    if (issues_loads()) {
      wave.load_data.resize(params_.lanes_per_wave);
      wave.load_request.resize(params_.lanes_per_wave);
    }
  }
  if (issues_loads()) {
    load_instructions_ = &stats.counter("load_instructions", "instructions",
                                        "vector loads issued: four of 16 bytes per instance step, one of 4 bytes per "
                                        "parent link, the closest-hit shading's of 16 bytes");
    load_lanes_issued_ = &stats.counter("load_lanes_issued", "lanes", "lanes of those loads with EXEC on");
    instance_alu_cycles_ = &stats.counter("instance_alu_cycles", "SIMD-cycles",
                                          "of alu_busy_cycles, the instance steps' (mask, transform, reciprocals)");
  }
  if (params_.shading.on()) {
    shading_layout_ = ShadingLayout(bvh_, params_.shading);
    shading_load_instructions_ = &stats.counter(
        "shading_load_instructions", "instructions",
        "of load_instructions, the closest-hit shading's (vertex attributes, texture blocks)");
    shading_load_lanes_ = &stats.counter("shading_load_lanes", "lanes",
                                         "lanes of those loads: each lane that hit, attribute and texture loads each");
    shading_alu_cycles_ =
        &stats.counter("shading_alu_cycles", "SIMD-cycles", "of alu_busy_cycles, the closest-hit shading's");
  }
  for (TdWaves& td : td_waves_) {
    td.in_alu.reserve(waves_per_td());
    td.empty = static_cast<uint32_t>(waves_per_td());
  }
  const sim::Counter* lanes = &lanes_issued_;
  const sim::Counter* active = &active_lanes_issued_;
  stats.formula("lane_utilisation", "fraction", "active lanes / lanes issued (SIMD divergence)", [lanes, active] {
    return lanes->value() ? static_cast<double>(active->value()) / lanes->value() : 0.0;
  });
}

void TraversalShader::request_rays(size_t index, uint64_t cycle) {
  TdWaves& td = td_waves_[td_of(index)];
  Wave& wave = waves_[index];
  schedule_[index].state = WaveState::kLaunching;
  wave.launch_cycle = cycle + params_.wave_launch_cycles;
  --td.empty;
  ++td.launching;
  ++td.busy;
  td.first_launch = std::min(td.first_launch, wave.launch_cycle);
  td.requests.push_back(LaunchRequest{cycle, static_cast<uint32_t>(index)});
}

void TraversalShader::grant_rays(size_t index) {
  Wave& wave = waves_[index];
  uint32_t lane = 0;
  for (; lane < params_.lanes_per_wave; ++lane) {
    if (ray_buffer_next_ == ray_buffer_.size() && !rays_exhausted_) {
      ray_buffer_.clear();
      ray_buffer_next_ = 0;
      if (rays_.read(ray_buffer_, kRayBatch) == 0) rays_exhausted_ = true;
    }
    if (ray_buffer_next_ == ray_buffer_.size()) break;
    wave.rays[lane] = ray_buffer_[ray_buffer_next_++];
    wave.ray_index[lane] = next_ray_++;
  }
  wave.granted = lane;
}

void TraversalShader::start_wave(size_t index, uint64_t cycle) {
  TdWaves& td = td_waves_[td_of(index)];
  Wave& wave = waves_[index];
  --td.launching;
  wave.live_lanes = 0;
  wave.live = 0;
  wave.wants_loads = wave.load_lanes = 0;
  wave.loads_to_issue = wave.loads_in_flight = 0;
  wave.hit_lanes = 0;
  wave.shading = ShadingPhase::kNone;
  wave.lds_read = false;
  if (wave.granted == 0) {  // the stream has ended: the slot stays empty
    schedule_[index].state = WaveState::kDone;
    --td.busy;
    return;
  }
  for (uint32_t lane = 0; lane < wave.granted; ++lane) {
    wave.lanes[lane].start(bvh_, wave.rays[lane], options_);
    if (wave.lanes[lane].done()) {  // a ray that cannot hit (NaN, Inf operand): no instruction
      deliver(wave, lane);
      continue;
    }
    wave.live |= uint64_t{1} << lane;
    ++wave.live_lanes;
  }
  if (wave.live_lanes == 0) {  // every ray dead: the slot asks again
    schedule_[index].state = WaveState::kEmpty;
    ++td.empty;
    --td.busy;
    return;
  }
  ++td.counts.waves;
  run_alu(index, cycle, alu_cycles_per_iteration_);
}

void TraversalShader::dispatch(uint64_t cycle) {
  // The requests in the order the slots made them, each TD's already in
  // cycle order; a slot's global index orders the TDs and slots of a cycle.
  requests_.clear();
  for (TdWaves& td : td_waves_) {
    requests_.insert(requests_.end(), td.requests.begin(), td.requests.end());
    td.requests.clear();
  }
  std::sort(requests_.begin(), requests_.end(), [](const LaunchRequest& a, const LaunchRequest& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.wave < b.wave;
  });
  for (const LaunchRequest& request : requests_) {
    if (request.cycle >= cycle) throw std::logic_error("shader: a dispatch served a request not yet made");
    grant_rays(request.wave);
  }
  for (TdWaves& td : td_waves_) {
    for (TracedRay& ray : td.finished) sink_.deliver(std::move(ray));
    td.finished.clear();
    const TdCounts& c = td.counts;
    waves_launched_.add(c.waves);
    rays_finished_.add(c.rays);
    instructions_.add(c.instructions);
    lanes_issued_.add(c.lanes_issued);
    active_lanes_issued_.add(c.active_lanes_issued);
    alu_busy_cycles_.add(c.alu_busy_cycles);
    ready_wait_cycles_.add(c.ready_wait_cycles);
    td_wait_cycles_.add(c.td_wait_cycles);
    waits_.add(c.waits);
    lds_wait_cycles_.add(c.lds_wait_cycles);
    if (load_instructions_) {
      load_instructions_->add(c.load_instructions);
      load_lanes_issued_->add(c.load_lanes_issued);
      instance_alu_cycles_->add(c.instance_alu_cycles);
    }
    if (shading_load_instructions_) {
      shading_load_instructions_->add(c.shading_load_instructions);
      shading_load_lanes_->add(c.shading_load_lanes);
      shading_alu_cycles_->add(c.shading_alu_cycles);
    }
    td.counts = TdCounts{};
  }
}

bool TraversalShader::done() const {
  if (!rays_exhausted_ || ray_buffer_next_ < ray_buffer_.size()) return false;
  for (const TdWaves& td : td_waves_)
    if (td.busy != 0 || !td.finished.empty()) return false;
  return true;
}

void TraversalShader::deliver(Wave& wave, uint32_t lane) {
  const RayTraversal& walk = wave.lanes[lane];
  const scene::RayHit hit = walk.hit();
  if (hit.hit) wave.hit_lanes |= uint64_t{1} << lane;
  TdWaves& td = td_waves_[td_of(static_cast<size_t>(&wave - waves_.data()))];
  td.finished.push_back(TracedRay{wave.ray_index[lane], wave.rays[lane], hit, walk.counters()});
  ++td.counts.rays;
}

void TraversalShader::end_lanes(Wave& wave, uint64_t ended) {
  wave.live &= ~ended;
  wave.live_lanes -= static_cast<uint32_t>(__builtin_popcountll(ended));
}

void TraversalShader::run_alu(size_t index, uint64_t from_cycle, uint64_t cycles) {
  WaveSchedule& turn = schedule_[index];
  uint64_t& simd_free = simd_free_cycle_[simd_of(index)];
  const uint64_t start = std::max(from_cycle, simd_free);
  simd_free = start + cycles;
  TdWaves& td = td_waves_[td_of(index)];
  td.counts.alu_busy_cycles += cycles;
  Wave& wave = waves_[index];
  const uint64_t lds = wave.lds_read ? params_.lds_latency_cycles : 0;
  wave.lds_read = false;
  td.counts.lds_wait_cycles += lds;
  turn.state = WaveState::kAlu;
  turn.ready_cycle = simd_free + lds;
  std::vector<ReadyWave>& in_alu = td.in_alu;
  in_alu.push_back(ReadyWave{turn.ready_cycle, static_cast<uint32_t>(index)});
  std::push_heap(in_alu.begin(), in_alu.end());
}

bool TraversalShader::next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) {
  const size_t first = first_wave(td_index), last = first + waves_per_td();
  // Waves whose rays are there start; then every empty slot asks the
  // dispatcher (a wave whose rays were all dead too). A slot stays empty
  // only once the dispatcher has no rays for it, so results to other TDs
  // never give this one work (WorkSource::kPerTd).
  TdWaves& td = td_waves_[td_index];
  if (td.launching > 0 && td.first_launch <= cycle) {
    td.first_launch = kNever;
    for (size_t w = first; w < last; ++w) {
      if (schedule_[w].state != WaveState::kLaunching) continue;
      if (waves_[w].launch_cycle <= cycle)
        start_wave(w, cycle);
      else
        td.first_launch = std::min(td.first_launch, waves_[w].launch_cycle);
    }
  }
  for (size_t w = first; w < last && td.empty > 0; ++w)
    if (schedule_[w].state == WaveState::kEmpty) request_rays(w, cycle);
  // The oldest ready wave issues (ties: the lowest slot); none ready: ask
  // again when the first is, or when rays for a slot are there.
  retry_cycle = td.launching > 0 ? td.first_launch : kNever;
  if (td.in_alu.empty()) return false;
  if (td.in_alu.front().ready_cycle > cycle) {
    retry_cycle = std::min(retry_cycle, td.in_alu.front().ready_cycle);
    return false;
  }
  const size_t chosen = td.in_alu.front().wave;
  std::pop_heap(td.in_alu.begin(), td.in_alu.end());
  td.in_alu.pop_back();
  Wave& wave = waves_[chosen];
  WaveSchedule& turn = schedule_[chosen];
  td.counts.ready_wait_cycles += cycle - turn.ready_cycle;
  if (wave.loads_to_issue > 0) {
    // The wave's next load; the one after it a SIMD issue later.
    const uint32_t load = wave.load_count - wave.loads_to_issue--;
    out.id = instruction_id(td_index, td);
    const uint32_t active = fill_load(wave, load, out);
    td.counts.load_lanes_issued += active;
    ++wave.loads_in_flight;
    ++td.counts.load_instructions;
    if (wave.shading != ShadingPhase::kNone) {
      ++td.counts.shading_load_instructions;
      td.counts.shading_load_lanes += active;
    }
    if (wave.loads_to_issue > 0) {
      turn.ready_cycle = cycle + issue_cycles_;
      td.in_alu.push_back(ReadyWave{turn.ready_cycle, static_cast<uint32_t>(chosen)});
      std::push_heap(td.in_alu.begin(), td.in_alu.end());
    } else {
      turn.state = WaveState::kIssued;
      turn.ready_cycle = cycle;
    }
    in_flight_[td_index].push_back(InFlight{chosen, out.id, load});
    return true;
  }
  // Every field is set: `out` keeps an earlier instruction's storage.
  out.id = instruction_id(td_index, td);
  out.kind = InstrKind::kIntersect;
  out.descriptor = bvh_.descriptor;
  out.lanes.resize(params_.lanes_per_wave);
  for (uint32_t lane = 0; lane < params_.lanes_per_wave; ++lane) {
    if ((wave.live >> lane) & 1u) {
      out.lanes[lane] = wave.lanes[lane].next_instruction();
    } else {
      out.lanes[lane] = LaneInput{};
      out.lanes[lane].exec = false;
    }
  }
  ++td.counts.instructions;
  td.counts.lanes_issued += params_.lanes_per_wave;
  td.counts.active_lanes_issued += wave.live_lanes;
  turn.state = WaveState::kIssued;
  turn.ready_cycle = cycle;  // now: when it was issued
  in_flight_[td_index].push_back(InFlight{chosen, out.id, kIntersectStep});
  return true;
}

uint32_t TraversalShader::fill_load(Wave& wave, uint32_t load, WaveInstr& out) const {
  out.kind = InstrKind::kLoad;
  out.lanes.resize(params_.lanes_per_wave);
  uint32_t active = 0;
  for (uint32_t lane = 0; lane < params_.lanes_per_wave; ++lane) {
    const RayTraversal::LoadRequest& request = wave.load_request[lane];
    if ((wave.load_lanes >> lane) & 1u && load < request.count) {
      out.lanes[lane] = LaneInput::load(request.address_of(load), request.dwords);
      ++active;
    } else {
      out.lanes[lane] = LaneInput::load(0, 4, false);
    }
  }
  return active;
}

void TraversalShader::take_load_data(Wave& wave, uint32_t load, const LaneResult* results) {
  if (wave.shading != ShadingPhase::kNone) return;  // the shading's loads read nothing the model uses
  for (uint64_t lanes = wave.load_lanes; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
    const RayTraversal::LoadRequest& request = wave.load_request[lane];
    if (load >= request.count) continue;
    std::copy(results[lane].dwords.begin(), results[lane].dwords.begin() + request.dwords,
              wave.load_data[lane].begin() + 4 * load);
  }
}

bool TraversalShader::loads_returned(size_t index, uint64_t complete_cycle) {
  Wave& wave = waves_[index];
  if (--wave.loads_in_flight > 0 || wave.loads_to_issue > 0) return true;  // the wave waits for them all
  if (wave.shading != ShadingPhase::kNone) {
    wave.load_lanes = 0;
    next_shading_phase(index, complete_cycle);
    return true;
  }
  bool instance_step = false;
  for (uint64_t lanes = wave.load_lanes; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
    RayTraversal& walk = wave.lanes[lane];
    instance_step = instance_step || wave.load_request[lane].dwords == 4;  // (a parent link is one dword)
    walk.consume_loaded(wave.load_data[lane]);
    wave.lds_read = wave.lds_read || walk.popped();
    if (walk.wants_load()) {  // masked out, and the way back wants a parent link
      wave.wants_loads |= uint64_t{1} << lane;
      wave.load_request[lane] = walk.load_request();
    }
    if (!walk.done()) continue;  // masked out and nothing left, or above the root
    end_lanes(wave, uint64_t{1} << lane);
    deliver(wave, lane);
  }
  wave.load_lanes = 0;
  if (wave.live_lanes == 0) return wave_stepped(index, complete_cycle);
  // The instance step's ALU work (a parent link's is the iteration's, done
  // before its load), then the next intersect; or the loads the way back
  // wants next.
  const uint64_t cycles = instance_step ? alu_cycles_per_instance_ : 0;
  if (instance_step) td_waves_[td_of(index)].counts.instance_alu_cycles += cycles;
  if (wave.wants_loads != 0) start_loads(wave);
  run_alu(index, complete_cycle, cycles);
  return true;
}

void TraversalShader::check(tb::Scoreboard& board, const PendingLane& p) const {
  board.check_lane(p.kind, bvh_.descriptor, p.input, p.result, bvh_.memory, p.instr_id, p.lane, p.order);
}

void TraversalShader::process_returned(uint32_t td_index) {
  checks_.run(td_index, [this](tb::Scoreboard& board, const PendingLane& p) { check(board, p); });
}

const tb::Scoreboard& TraversalShader::scoreboard() {
  merged_.clear();
  // (Any the chip has not asked for yet run first.)
  checks_.merge_into(merged_, [this](tb::Scoreboard& board, const PendingLane& p) { check(board, p); });
  return merged_;
}

bool TraversalShader::wave_completed(uint32_t td_index, WaveResult& result) {
  std::deque<InFlight>& in_flight = in_flight_[td_index];
  if (in_flight.empty() || in_flight.front().instr_id != result.id)
    throw std::logic_error(fmt::format("shader: result for unknown instruction {}", result.id));
  const InFlight entry = in_flight.front();
  in_flight.pop_front();
  const size_t index = entry.wave;
  Wave& wave = waves_[index];
  TdWaves& td = td_waves_[td_index];
  // Reports are kept in this order (tb::Scoreboard): each TD's results in
  // turn, the same for any chip threads.
  const uint64_t order = td_index + td_count_ * td.returned++;
  const bool check = params_.check_every != 0 && number_in_td(result.id) % params_.check_every == 0;
  if (entry.load != kIntersectStep) {
    take_load_data(wave, entry.load, result.lanes.data());
    for (uint64_t lanes = check ? wave.load_lanes : 0; lanes != 0; lanes &= lanes - 1) {
      const auto lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
      const RayTraversal::LoadRequest& request = wave.load_request[lane];
      if (entry.load >= request.count) continue;
      const LaneInput input = LaneInput::load(request.address_of(entry.load), request.dwords);
      checks_.next_slot(td_index) = PendingLane{order, result.id, InstrKind::kLoad, lane, input, result.lanes[lane]};
    }
    if (wave.loads_in_flight == 1 && wave.loads_to_issue == 0) {
      td.counts.td_wait_cycles += result.complete_cycle - schedule_[index].ready_cycle;
      ++td.counts.waits;
    }
    return loads_returned(index, result.complete_cycle);
  }
  td.counts.td_wait_cycles += result.complete_cycle - schedule_[index].ready_cycle;
  ++td.counts.waits;
  for (uint64_t live = wave.live; live != 0; live &= live - 1) {
    const auto lane = static_cast<uint32_t>(__builtin_ctzll(live));
    RayTraversal& walk = wave.lanes[lane];
    if (check)
      checks_.next_slot(td_index) =
          PendingLane{order, result.id, InstrKind::kIntersect, lane, walk.next_instruction(), result.lanes[lane]};
    walk.consume(result.lanes[lane]);
    wave.lds_read = wave.lds_read || walk.popped();
    if (walk.wants_load()) {
      wave.wants_loads |= uint64_t{1} << lane;
      wave.load_request[lane] = walk.load_request();
    }
    if (!walk.done()) continue;
    end_lanes(wave, uint64_t{1} << lane);
    deliver(wave, lane);
  }
  return wave_stepped(index, result.complete_cycle);
}

void TraversalShader::start_loads(Wave& wave) {
  wave.load_lanes = wave.wants_loads;
  wave.wants_loads = 0;
  uint32_t count = 0;
  for (uint64_t lanes = wave.load_lanes; lanes != 0; lanes &= lanes - 1)
    count = std::max(count, wave.load_request[__builtin_ctzll(lanes)].count);
  wave.load_count = wave.loads_to_issue = count;
}

bool TraversalShader::wave_stepped(size_t index, uint64_t complete_cycle) {
  Wave& wave = waves_[index];
  if (wave.live_lanes > 0) {
    // Lanes on an instance node or on the way back: this iteration's ALU
    // work, then their loads.
    if (wave.wants_loads != 0) start_loads(wave);
    run_alu(index, complete_cycle, alu_cycles_per_iteration_);
    return true;
  }
  if (params_.shading.on() && wave.hit_lanes != 0) {
    next_shading_phase(index, complete_cycle);
    return true;
  }
  end_wave(index);
  return true;
}

void TraversalShader::next_shading_phase(size_t index, uint64_t cycle) {
  Wave& wave = waves_[index];
  const HitShading& shading = params_.shading;
  const auto start_phase = [&](ShadingPhase phase, uint32_t count) {
    wave.shading = phase;
    for (uint64_t lanes = wave.hit_lanes; lanes != 0; lanes &= lanes - 1) {
      const auto lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
      const scene::RayHit hit = wave.lanes[lane].hit();
      wave.load_request[lane] =
          phase == ShadingPhase::kAttributes
              ? RayTraversal::LoadRequest{shading_layout_.attribute_address(hit), count, 4, ShadingLayout::kLoadBytes}
              : RayTraversal::LoadRequest{shading_layout_.texture_address(hit), count, 4,
                                          shading_layout_.texture_bytes()};
    }
    wave.load_lanes = wave.hit_lanes;
    wave.load_count = wave.loads_to_issue = count;
    run_alu(index, cycle, 0);  // the loads issue at the SIMD's turn
  };
  if (wave.shading == ShadingPhase::kNone && shading.attribute_loads > 0) {
    start_phase(ShadingPhase::kAttributes, shading.attribute_loads);
    return;
  }
  if (wave.shading != ShadingPhase::kTextures && shading.texture_loads > 0) {
    start_phase(ShadingPhase::kTextures, shading.texture_loads);
    return;
  }
  // The shading's ALU work goes on the SIMD, and the slot is free (the
  // header says why that is the SIMD's time all the same).
  uint64_t& simd_free = simd_free_cycle_[simd_of(index)];
  simd_free = std::max(cycle, simd_free) + alu_cycles_per_shading_;
  TdCounts& counts = td_waves_[td_of(index)].counts;
  counts.alu_busy_cycles += alu_cycles_per_shading_;
  counts.shading_alu_cycles += alu_cycles_per_shading_;
  end_wave(index);
}

void TraversalShader::end_wave(size_t index) {
  // Its slot starts the next wave when the TD next asks.
  schedule_[index].state = WaveState::kEmpty;
  TdWaves& td = td_waves_[td_of(index)];
  ++td.empty;
  --td.busy;
}

}  // namespace td::shader

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

// Fills a wave's lanes with the next rays; its first iteration's ALU work
// starts at `cycle`.
bool TraversalShader::launch(size_t index, uint64_t cycle) {
  Wave& wave = waves_[index];
  wave.live_lanes = 0;
  wave.live = 0;
  wave.wants_loads = wave.load_lanes = 0;
  wave.loads_to_issue = wave.loads_in_flight = 0;
  wave.hit_lanes = 0;
  wave.shading = ShadingPhase::kNone;
  wave.lds_read = false;
  for (uint32_t lane = 0; lane < params_.lanes_per_wave; ++lane) {
    if (ray_buffer_next_ == ray_buffer_.size() && !rays_exhausted_) {
      ray_buffer_.clear();
      ray_buffer_next_ = 0;
      if (rays_.read(ray_buffer_, kRayBatch) == 0) rays_exhausted_ = true;
    }
    if (ray_buffer_next_ == ray_buffer_.size()) break;
    wave.rays[lane] = ray_buffer_[ray_buffer_next_++];
    wave.ray_index[lane] = next_ray_++;
    wave.lanes[lane].start(bvh_, wave.rays[lane], options_);
    if (wave.lanes[lane].done()) {  // a ray that cannot hit (NaN, Inf operand): no instruction
      deliver(wave, lane);
      continue;
    }
    wave.live |= uint64_t{1} << lane;
    ++wave.live_lanes;
  }
  if (wave.live_lanes == 0) {
    schedule_[index].state = WaveState::kEmpty;
    return !rays_exhausted_ || ray_buffer_next_ < ray_buffer_.size();
  }
  waves_launched_.add(1);
  ++live_waves_;
  --td_waves_[td_of(index)].empty;
  run_alu(index, cycle, alu_cycles_per_iteration_);
  return true;
}

void TraversalShader::deliver(Wave& wave, uint32_t lane) {
  const RayTraversal& walk = wave.lanes[lane];
  const scene::RayHit hit = walk.hit();
  if (hit.hit) wave.hit_lanes |= uint64_t{1} << lane;
  sink_.deliver(TracedRay{wave.ray_index[lane], wave.rays[lane], hit, walk.counters()});
  rays_finished_.add(1);
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
  alu_busy_cycles_.add(cycles);
  Wave& wave = waves_[index];
  const uint64_t lds = wave.lds_read ? params_.lds_latency_cycles : 0;
  wave.lds_read = false;
  lds_wait_cycles_.add(lds);
  turn.state = WaveState::kAlu;
  turn.ready_cycle = simd_free + lds;
  std::vector<ReadyWave>& in_alu = td_waves_[td_of(index)].in_alu;
  in_alu.push_back(ReadyWave{turn.ready_cycle, static_cast<uint32_t>(index)});
  std::push_heap(in_alu.begin(), in_alu.end());
}

bool TraversalShader::next_wave(uint32_t td_index, uint64_t cycle, WaveInstr& out, uint64_t& retry_cycle) {
  const size_t first = first_wave(td_index), last = first + waves_per_td();
  // Empty slots take new rays: a wave starts as soon as a slot is free. A
  // slot stays empty only once the rays run out (launch again when every
  // ray of a wave ended at once), so results to other TDs never give this
  // one work (WorkSource::kPerTd).
  TdWaves& td = td_waves_[td_index];
  bool rays_left = true;
  for (size_t w = first; w < last && rays_left && td.empty > 0; ++w)
    while (rays_left && schedule_[w].state == WaveState::kEmpty) rays_left = launch(w, cycle);
  // The oldest ready wave issues (ties: the lowest slot); none ready: ask
  // again when the first is.
  retry_cycle = kNever;
  if (td.in_alu.empty()) return false;
  if (td.in_alu.front().ready_cycle > cycle) {
    retry_cycle = td.in_alu.front().ready_cycle;
    return false;
  }
  const size_t chosen = td.in_alu.front().wave;
  std::pop_heap(td.in_alu.begin(), td.in_alu.end());
  td.in_alu.pop_back();
  Wave& wave = waves_[chosen];
  WaveSchedule& turn = schedule_[chosen];
  ready_wait_cycles_.add(cycle - turn.ready_cycle);
  if (wave.loads_to_issue > 0) {
    // The wave's next load; the one after it a SIMD issue later.
    const uint32_t load = wave.load_count - wave.loads_to_issue--;
    out.id = next_id_++;
    const uint32_t active = fill_load(wave, load, out);
    load_lanes_issued_->add(active);
    ++wave.loads_in_flight;
    load_instructions_->add(1);
    if (wave.shading != ShadingPhase::kNone) {
      shading_load_instructions_->add(1);
      shading_load_lanes_->add(active);
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
  out.id = next_id_++;
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
  instructions_.add(1);
  lanes_issued_.add(params_.lanes_per_wave);
  active_lanes_issued_.add(wave.live_lanes);
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
  if (instance_step) instance_alu_cycles_->add(cycles);
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
  const uint64_t order = returned_++;
  const bool check = params_.check_every != 0 && result.id % params_.check_every == 0;
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
      td_wait_cycles_.add(result.complete_cycle - schedule_[index].ready_cycle);
      waits_.add(1);
    }
    return loads_returned(index, result.complete_cycle);
  }
  td_wait_cycles_.add(result.complete_cycle - schedule_[index].ready_cycle);
  waits_.add(1);
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
  alu_busy_cycles_.add(alu_cycles_per_shading_);
  shading_alu_cycles_->add(alu_cycles_per_shading_);
  end_wave(index);
}

void TraversalShader::end_wave(size_t index) {
  // Its slot starts the next wave when the TD next asks.
  schedule_[index].state = WaveState::kEmpty;
  ++td_waves_[td_of(index)].empty;
  --live_waves_;
}

}  // namespace td::shader

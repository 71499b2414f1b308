// ray_stream.h — the rays a traversal takes in and hands back out: a
// RaySource it pulls rays from, in order, a chunk at a time (so a stream of
// any length passes through bounded memory), and a RaySink it hands each
// finished ray to, in any order. tb/run implements both (camera rays,
// held secondary rays, CSV files; the hit sink with its hits file and
// picture); the traversal shader and the functional engine use only these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tb/scene/scene_ray.h"
#include "tb/traversal/ray_traversal.h"

namespace td::traversal {

class RaySource {
 public:
  virtual ~RaySource() = default;
  // Appends up to `max` rays (the next ones, in order) to `out`; returns how
  // many (0: no more). May throw scene::SceneError (a bad line of a file).
  virtual size_t read(std::vector<scene::SceneRay>& out, size_t max) = 0;
  // The number of rays, when known in advance (0: unknown, e.g. a file).
  virtual uint64_t count() const = 0;
};

// A finished ray: where it was in the stream, the ray, its hit and what its walk did.
struct TracedRay {
  uint64_t index = 0;  // position in the ray stream
  scene::SceneRay ray;
  scene::RayHit hit;
  TraversalCounters counters;
};

class RaySink {
 public:
  virtual ~RaySink() = default;
  virtual void deliver(TracedRay&& traced) = 0;
};

}  // namespace td::traversal

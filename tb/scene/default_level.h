// default_level.h — the built-in two-level scene: a game-like level of
// instanced props on a terrain, no file needed. Same bytes on every run
// (fixed seeds; libm's sin/cos/sqrt are the only platform dependence).
#pragma once

#include "tb/scene/camera_rays.h"
#include "tb/scene/scene.h"

namespace td::scene {

// A village at a crossroads in a forest, y up, metres: 31 BLASes, 5 448
// instances, 144 724 unique and 21 171 838 instanced triangles; built in
// about 15 ms.
// - terrain (one instance, identity): a 400 m x 400 m height field, 2 m
//   cells (80 000 triangles), rolling up to +-6.5 m, flattened along a main
//   road (the z axis) and a cross road (the x axis), 10 m wide, crossing at
//   the origin.
// - 30 prop BLASes, each placed on the terrain surface (the mesh's own
//   height) with a rotation about y:
//   trees — oak, maple (icosphere-blob crowns, 9.5 k / 10.7 k triangles,
//   10-12 m tall), birch (many small blobs), pine and spruce (layers of
//   jagged drooping cones, 14-16 m), a dead tree (recursive thin branches):
//   2 968 of them, a jittered 5.5 m grid thinned by a density field so crowns
//   overlap, conifers on high ground, plus street trees whose crowns reach
//   over pavements, wires and house fronts; bushes, three rocks (perturbed
//   icospheres, non-uniform and a few mirrored scales), grass clumps of 70
//   thin blades (1 551 instances, mask 0x02: the only instances not 0xff);
//   five buildings (small house, house, four-storey flats, shop, warehouse;
//   walls 0.25 m thick with real window and door holes and reveals, floor
//   slabs, an inner wall with doors, furniture; gable or flat roofs): 28 in
//   the village facing the roads, 5 farms, some mirrored, one stretched;
//   round each, barrels, a bench, often a parked car (sedan, or a van with
//   its own holed walls), junk piles behind the warehouses;
//   five traffic lights at the crossing: a 7.4 m pole with an 11 m mast arm
//   over the road and three signal heads hanging from it (boxes
//   11.5 m x 7.9 m x 0.9 m, nearly all empty), one of them mirrored;
//   lamp posts every 25 m along both roads; power lines: poles every 40 m
//   (the cross road's 15 % taller: non-uniform scale) and 18 spans of three
//   sagging wires 24 mm thick and 40 m long (long thin triangles), sheared
//   to follow the ground; 10 m fence runs likewise sheared; stop signs,
//   hydrants, bus shelters, cars on the roads; one BLAS of 40 small objects
//   strewn over 16 m x 16 m (a box that is nearly all empty space).
// Instance ids are 0; nodes name the part and its number ("tree_oak#12").
Scene make_default_level();

// Standing on the main road's centre line 1.7 m above the ground, 10 m
// before the crossing, right under the mast arm of the near traffic light
// (so inside its instance's bounds), looking along the road (+z): the
// crossing, the far traffic light, wires, lamp posts, shops and flats, and
// the forest beyond. Vertical field of view 60 degrees.
Camera default_level_camera();

}  // namespace td::scene

// default_scene.h — the built-in procedural scene `scripts/run` traces when
// no mesh is given: about 114 k triangles (114 404), no file needed.
#pragma once

#include "tb/scene/camera_rays.h"
#include "tb/scene/mesh.h"

namespace td::scene {

// Open parts: a rolling terrain (51 k mid-sized triangles), a floor and a
// back wall of two huge triangles each (so most primary rays of a framed
// view hit something), a leaning open tube of long slender off-axis
// triangles.
// Closed parts: three icospheres and a torus (smooth, well-shaped triangles)
// and 2000 tiny rotated cubes whose edges span 0.002 to 0.2. Triangle edges
// thus range over five orders of magnitude, with slivers that spatial
// splits help and shapes the FP16 threshold decides on. The same on every
// run (fixed seed; libm's sin/cos are the only platform dependence).
Mesh make_default_scene();

// The view `scripts/run` renders: the spheres, torus, tube and cubes over
// the terrain, floor and wall behind; nearly every primary ray hits.
Camera default_scene_camera();

}  // namespace td::scene

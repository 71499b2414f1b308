#include "tests/scene/embree_reference.h"

#include <limits>

namespace td::scene::test {

EmbreeReference::EmbreeReference(const Mesh& mesh) : device_(rtcNewDevice(nullptr)), scene_(rtcNewScene(device_)) {
  rtcSetSceneFlags(scene_, RTC_SCENE_FLAG_ROBUST);
  RTCGeometry geometry = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* vertices = static_cast<float*>(rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0,
                                                               RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                                               mesh.positions.size()));
  for (size_t v = 0; v < mesh.positions.size(); ++v)
    for (int a = 0; a < 3; ++a) vertices[3 * v + a] = mesh.positions[v][a];
  auto* indices = static_cast<unsigned*>(rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0,
                                                                 RTC_FORMAT_UINT3, 3 * sizeof(unsigned),
                                                                 mesh.triangles.size()));
  for (size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) indices[3 * t + k] = mesh.triangles[t][k];
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(scene_, geometry);
  rtcReleaseGeometry(geometry);
  rtcCommitScene(scene_);
}

EmbreeReference::~EmbreeReference() {
  rtcReleaseScene(scene_);
  rtcReleaseDevice(device_);
}

namespace {
RTCRay to_rtc(const SceneRay& ray) {
  RTCRay r{};
  r.org_x = ray.origin[0];
  r.org_y = ray.origin[1];
  r.org_z = ray.origin[2];
  r.dir_x = ray.dir[0];
  r.dir_y = ray.dir[1];
  r.dir_z = ray.dir[2];
  r.tnear = 0;
  r.tfar = ray.tmax;
  r.mask = 0xffffffffu;
  r.flags = 0;
  return r;
}
}  // namespace

RayHit EmbreeReference::intersect(const SceneRay& ray) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  RTCRayHit query{};
  query.ray = to_rtc(ray);
  query.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  rtcIntersect1(scene_, &context, &query);
  RayHit hit;
  if (query.hit.geomID == RTC_INVALID_GEOMETRY_ID) return hit;
  hit.hit = true;
  hit.t = query.ray.tfar;
  hit.primitive = query.hit.primID;
  hit.u = query.hit.u;
  hit.v = query.hit.v;
  return hit;
}

bool EmbreeReference::occluded(const SceneRay& ray) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  RTCRay query = to_rtc(ray);
  rtcOccluded1(scene_, &context, &query);
  return query.tfar == -std::numeric_limits<float>::infinity();
}

}  // namespace td::scene::test

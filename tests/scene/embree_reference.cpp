#include "tests/scene/embree_reference.h"

#include <limits>

namespace td::scene::test {

namespace {

void attach_mesh(RTCDevice device, RTCScene scene, const Mesh& mesh) {
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
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
  rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
}

}  // namespace

EmbreeReference::EmbreeReference(const Mesh& mesh) : device_(rtcNewDevice(nullptr)), scene_(rtcNewScene(device_)) {
  rtcSetSceneFlags(scene_, RTC_SCENE_FLAG_ROBUST);
  attach_mesh(device_, scene_, mesh);
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

namespace {

// rtcIntersect1 / rtcOccluded1 on any scene: t, instance (the top scene's
// geometry ID when instanced), primitive and (u, v).
RayHit intersect_in(RTCScene scene, const SceneRay& ray) {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  RTCRayHit query{};
  query.ray = to_rtc(ray);
  query.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  query.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  rtcIntersect1(scene, &context, &query);
  RayHit hit;
  if (query.hit.geomID == RTC_INVALID_GEOMETRY_ID) return hit;
  hit.hit = true;
  hit.t = query.ray.tfar;
  hit.instance = query.hit.instID[0] == RTC_INVALID_GEOMETRY_ID ? 0 : query.hit.instID[0];
  hit.primitive = query.hit.primID;
  hit.u = query.hit.u;
  hit.v = query.hit.v;
  return hit;
}

bool occluded_in(RTCScene scene, const SceneRay& ray) {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  RTCRay query = to_rtc(ray);
  rtcOccluded1(scene, &context, &query);
  return query.tfar == -std::numeric_limits<float>::infinity();
}

}  // namespace

RayHit EmbreeReference::intersect(const SceneRay& ray) const { return intersect_in(scene_, ray); }
bool EmbreeReference::occluded(const SceneRay& ray) const { return occluded_in(scene_, ray); }

EmbreeSceneReference::EmbreeSceneReference(const Scene& scene, uint8_t instance_mask)
    : device_(rtcNewDevice(nullptr)), top_(rtcNewScene(device_)) {
  for (const Mesh& mesh : scene.blases) {
    RTCScene blas = rtcNewScene(device_);
    rtcSetSceneFlags(blas, RTC_SCENE_FLAG_ROBUST);
    attach_mesh(device_, blas, mesh);
    rtcCommitScene(blas);
    blases_.push_back(blas);
  }
  rtcSetSceneFlags(top_, RTC_SCENE_FLAG_ROBUST);
  for (size_t i = 0; i < scene.instances.size(); ++i) {
    const Instance& instance = scene.instances[i];
    if ((instance.mask & instance_mask) == 0) continue;
    RTCGeometry geometry = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_INSTANCE);
    rtcSetGeometryInstancedScene(geometry, blases_[instance.blas]);
    rtcSetGeometryTimeStepCount(geometry, 1);
    rtcSetGeometryTransform(geometry, 0, RTC_FORMAT_FLOAT3X4_ROW_MAJOR, instance.object_to_world.m.data());
    rtcCommitGeometry(geometry);
    rtcAttachGeometryByID(top_, geometry, static_cast<unsigned>(i));
    rtcReleaseGeometry(geometry);
  }
  rtcCommitScene(top_);
}

EmbreeSceneReference::~EmbreeSceneReference() {
  rtcReleaseScene(top_);
  for (RTCScene blas : blases_) rtcReleaseScene(blas);
  rtcReleaseDevice(device_);
}

RayHit EmbreeSceneReference::intersect(const SceneRay& ray) const { return intersect_in(top_, ray); }
bool EmbreeSceneReference::occluded(const SceneRay& ray) const { return occluded_in(top_, ray); }

}  // namespace td::scene::test

// The ray CSV reader: exact round trip, chunked reading, and errors that
// name the file and line.
#include <gtest/gtest.h>

#include <cmath>

#include "tb/scene/random_rays.h"
#include "tb/scene/ray_csv.h"
#include "tb/scene/scene_error.h"
#include "tests/scene/test_meshes.h"

namespace td::scene {
namespace {

std::string read_error(const std::string& path) {
  try {
    RayCsvReader reader(path);
    std::vector<SceneRay> rays;
    while (reader.read(rays, 4) > 0) {
    }
  } catch (const SceneError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << path << ": no SceneError";
  return {};
}

TEST(RayCsv, WrittenRaysReadBackBitForBitInChunks) {
  const std::string path = test::temp_dir("csv_round_trip") + "/rays.csv";
  auto rays = random_rays(Aabb{{-1, -2, -3}, {4, 5, 6}}, 10, 5);
  rays[3].tmax = 12.5f;
  rays[7].tmax = 1e-30f;
  write_rays_csv(path, rays);
  RayCsvReader reader(path);
  std::vector<SceneRay> back;
  std::vector<size_t> chunks;
  while (size_t n = reader.read(back, 3)) chunks.push_back(n);
  EXPECT_EQ(chunks, (std::vector<size_t>{3, 3, 3, 1}));
  ASSERT_EQ(back.size(), rays.size());
  for (size_t i = 0; i < rays.size(); ++i) {
    EXPECT_EQ(back[i].origin, rays[i].origin);
    EXPECT_EQ(back[i].dir, rays[i].dir);
    EXPECT_EQ(back[i].tmax, rays[i].tmax);
  }
  EXPECT_TRUE(std::isinf(back[0].tmax));
}

TEST(RayCsv, InfBlankLinesCrlfAndSpacesAreAccepted) {
  const std::string path = test::temp_dir("csv_forms") + "/rays.csv";
  test::write_file(path, "ox,oy,oz,dx,dy,dz,tmax\r\n1, 2,3 ,0,0,-1,inf\r\n\r\n0,0,0,1,0,0,+INF\n-1e3,0,0.5,0,2,0,7\n");
  RayCsvReader reader(path);
  SceneRay ray;
  ASSERT_TRUE(reader.next(ray));
  EXPECT_EQ(ray.origin, (Vec3{1, 2, 3}));
  EXPECT_TRUE(std::isinf(ray.tmax));
  ASSERT_TRUE(reader.next(ray));
  EXPECT_TRUE(std::isinf(ray.tmax));
  ASSERT_TRUE(reader.next(ray));
  EXPECT_EQ(reader.line_number(), 5u);
  EXPECT_EQ(ray.tmax, 7.0f);
  EXPECT_FALSE(reader.next(ray));
}

TEST(RayCsv, ErrorsNameTheFileAndLine) {
  const std::string dir = test::temp_dir("csv_errors");
  const std::string header = "ox,oy,oz,dx,dy,dz,tmax\n";
  const struct {
    const char* name;
    std::string text;
    std::string expected;  // after "<path>:"
  } cases[] = {
      {"empty.csv", "", "1: empty file, expected the header 'ox,oy,oz,dx,dy,dz,tmax'"},
      {"header.csv", "x,y,z,dx,dy,dz,t\n", "1: header must be 'ox,oy,oz,dx,dy,dz,tmax' (got 'x,y,z,dx,dy,dz,t')"},
      {"short.csv", header + "0,0,0,1,0,0,1\n0,0,0,1,0,0\n", "3: expected 7 comma-separated values, got 6"},
      {"long.csv", header + "0,0,0,1,0,0,1,9\n", "2: expected 7 comma-separated values, got 8"},
      {"word.csv", header + "0,0,0,1,0,abc,1\n", "2: dz: not a number ('abc')"},
      {"blank_field.csv", header + "0,,0,1,0,0,1\n", "2: oy: not a number ('')"},
      {"nan.csv", header + "0,0,0,1,0,0,nan\n", "2: tmax: must be > 0 (got nan)"},
      {"negative.csv", header + "\n0,0,0,1,0,0,-2\n", "3: tmax: must be > 0 (got -2)"},
      {"zero_dir.csv", header + "0,0,0,0,0,0,1\n", "2: direction (dx,dy,dz) must not be zero"},
      {"inf_origin.csv", header + "inf,0,0,1,0,0,1\n", "2: ox: must be finite (got inf)"},
  };
  for (const auto& c : cases) {
    const std::string path = dir + "/" + c.name;
    test::write_file(path, c.text);
    EXPECT_EQ(read_error(path), path + ":" + c.expected);
  }
  const std::string missing = dir + "/missing.csv";
  EXPECT_EQ(read_error(missing), missing + ": cannot open ray file");
}

}  // namespace
}  // namespace td::scene

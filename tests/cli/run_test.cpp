// `tdsim run` end to end: the functional and model engines give the same
// hits, threads do not change the output, reports and pictures are written,
// bad meshes, ray files and flag combinations are refused with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using RunCommand = CliTest;

const std::string kMesh = std::string(TDSIM_SOURCE_DIR) + "/tests/data/sphere_and_sheet.off";
// A small frame of the default level on the small chip: a second or so.
const std::string kSmallRun = "run --config " + kSmallConfig + " --width 48 --height 27";

TEST_F(RunCommand, ModelAndFunctionalEnginesGiveIdenticalHits) {
  for (const char* rays : {"primary", "shadow", "diffuse"}) {
    const fs::path model = dir_ / (std::string(rays) + ".model.csv"), functional = dir_ / (std::string(rays) + ".f.csv");
    const std::string base = kSmallRun + " --rays " + rays + " --hits-out ";
    const RunResult timed = run_tdsim(base + model.string());
    ASSERT_EQ(timed.exit_code, 0) << timed.output;
    EXPECT_NE(timed.output.find("simulated: "), std::string::npos) << timed.output;
    const RunResult reference = run_tdsim(base + functional.string() + " --engine functional -j 2");
    ASSERT_EQ(reference.exit_code, 0) << reference.output;
    const std::string hits = read_file(functional);
    EXPECT_GT(hits.size(), 100u);
    EXPECT_EQ(read_file(model), hits) << rays;
  }
}

TEST_F(RunCommand, ATracedRunCarriesLanesThroughEveryStageWithTheSameStatsAndHits) {
  // Untraced, the issue port writes each lane's result ahead with the cycle
  // it lands; traced, every lane passes the sort stage and the write-back
  // ports (their signals show it). Every statistic and hit is the same.
  const std::string run = "run --config " + kSeriesX + " --width 64 --height 40 --engine model";
  for (const std::string& variant : {std::string(" --rays primary"), std::string(" --rays ao"),
                                     std::string(" --rays primary --set td.return_latency_cycles=0")}) {
    const fs::path plain = dir_ / "plain.json", traced = dir_ / "traced.json";
    const fs::path plain_hits = dir_ / "plain.csv", traced_hits = dir_ / "traced.csv";
    const RunResult a = run_tdsim(run + variant + " --stats " + plain.string() + " --hits-out " + plain_hits.string());
    const RunResult b = run_tdsim(run + variant + " --stats " + traced.string() + " --hits-out " + traced_hits.string() +
                                  " --trace-cycles 100 --trace " + (dir_ / "t.vcd").string());
    ASSERT_EQ(a.exit_code, 0) << a.output;
    ASSERT_EQ(b.exit_code, 0) << b.output;
    EXPECT_NE(read_file(plain).find(".box_nodes\""), std::string::npos);
    EXPECT_EQ(read_file(traced), read_file(plain)) << variant;
    EXPECT_EQ(read_file(traced_hits), read_file(plain_hits)) << variant;
  }
}

TEST_F(RunCommand, TheScoreboardAndThreadsChangeNoStatOrHit) {
  // Checked or not, on one thread or on two (the pipeline's threads), every
  // statistic and hit is the same.
  const std::string run = "run --config " + kSeriesX + " --width 64 --height 40 --engine model";
  for (const std::string& variant : {std::string(" --rays primary"), std::string(" --rays ao"),
                                     std::string(" --rays primary --set td.return_latency_cycles=0")}) {
    const fs::path checked = dir_ / "checked.json", unchecked = dir_ / "unchecked.json", two = dir_ / "two.json";
    const fs::path checked_hits = dir_ / "checked.csv", unchecked_hits = dir_ / "unchecked.csv",
                   two_hits = dir_ / "two.csv";
    const RunResult a = run_tdsim(run + variant + " --scoreboard all --stats " + checked.string() + " --hits-out " +
                                  checked_hits.string());
    const RunResult b = run_tdsim(run + variant + " --scoreboard off --stats " + unchecked.string() + " --hits-out " +
                                  unchecked_hits.string());
    const RunResult c = run_tdsim(run + variant + " --scoreboard off --threads 2 --stats " + two.string() +
                                  " --hits-out " + two_hits.string());
    ASSERT_EQ(a.exit_code, 0) << a.output;
    ASSERT_EQ(b.exit_code, 0) << b.output;
    ASSERT_EQ(c.exit_code, 0) << c.output;
    EXPECT_NE(a.output.find("scoreboard (all): "), std::string::npos) << a.output;
    EXPECT_NE(read_file(checked).find(".box_nodes\""), std::string::npos);
    EXPECT_EQ(read_file(unchecked), read_file(checked)) << variant;
    EXPECT_EQ(read_file(two), read_file(checked)) << variant;
    EXPECT_EQ(read_file(unchecked_hits), read_file(checked_hits)) << variant;
    EXPECT_EQ(read_file(two_hits), read_file(checked_hits)) << variant;
  }
}

TEST_F(RunCommand, WithoutTheScoreboardATracedOrRtlRunGivesTheSameStatsAndHits) {
  // A traced TD, and one with the RTL datapaths, write no lane ahead: every
  // lane goes through the sort stage and the write ports; same stats, same hits.
  const fs::path checked = dir_ / "checked.json", checked_hits = dir_ / "checked.csv";
  const RunResult a = run_tdsim(kSmallRun + " --stats " + checked.string() + " --hits-out " + checked_hits.string());
  ASSERT_EQ(a.exit_code, 0) << a.output;
  const fs::path traced = dir_ / "traced.json", traced_hits = dir_ / "traced.csv";
  const RunResult b = run_tdsim(kSmallRun + " --scoreboard off --stats " + traced.string() + " --hits-out " +
                                traced_hits.string() + " --trace-cycles 100 --trace " + (dir_ / "t.vcd").string());
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_EQ(read_file(traced), read_file(checked));
  EXPECT_EQ(read_file(traced_hits), read_file(checked_hits));
#if TDSIM_HAVE_RTL
  // (The Series S config has the RTL units' latencies.)
  const std::string series_s = "run --config " + std::string(TDSIM_SOURCE_DIR) +
                               "/configs/xbox_series_s.yaml --width 32 --height 18 --hits-out ";
  const fs::path model_hits = dir_ / "model.csv", rtl_hits = dir_ / "rtl.csv";
  const RunResult c = run_tdsim(series_s + model_hits.string());
  const RunResult d = run_tdsim(series_s + rtl_hits.string() + " --engine rtl --scoreboard off");
  ASSERT_EQ(c.exit_code, 0) << c.output;
  ASSERT_EQ(d.exit_code, 0) << d.output;
  EXPECT_GT(read_file(model_hits).size(), 100u);
  EXPECT_EQ(read_file(rtl_hits), read_file(model_hits));
#endif
}

TEST_F(RunCommand, SampledScoreboardChecksFewerLanesAndChangesNoHit) {
  const fs::path all = dir_ / "all.csv", sampled = dir_ / "sampled.csv";
  const RunResult full = run_tdsim(kSmallRun + " --hits-out " + all.string());
  const RunResult some = run_tdsim(kSmallRun + " --scoreboard sample:5 --hits-out " + sampled.string());
  ASSERT_EQ(full.exit_code, 0) << full.output;
  ASSERT_EQ(some.exit_code, 0) << some.output;
  EXPECT_NE(some.output.find("scoreboard (sample:5): "), std::string::npos) << some.output;
  EXPECT_EQ(read_file(all), read_file(sampled));
}

TEST_F(RunCommand, HitsDoNotDependOnTheThreadCount) {
  std::string hits[2];
  for (int threads = 1; threads <= 2; ++threads) {
    const fs::path file = dir_ / ("h" + std::to_string(threads) + ".csv");
    const RunResult result = run_tdsim(kSmallRun + " --engine functional --rays ao --hits-out " + file.string() +
                                       " -j " + std::to_string(threads));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    hits[threads - 1] = read_file(file);
  }
  EXPECT_EQ(hits[0].rfind("ray,hit,t,inst,prim,u,v\n", 0), 0u);
  EXPECT_EQ(hits[0], hits[1]);
}

TEST_F(RunCommand, SameConfigAndSeedGiveIdenticalStats) {
  std::string stats[2];
  for (int run = 0; run < 2; ++run) {
    const fs::path file = dir_ / ("s" + std::to_string(run) + ".json");
    const RunResult result = run_tdsim(kSmallRun + " --scene " + kMesh + " --stats " + file.string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    stats[run] = read_file(file);
  }
  EXPECT_NE(stats[0].find("\"chip.shader.rays\""), std::string::npos);
  EXPECT_EQ(stats[0], stats[1]);
}

TEST_F(RunCommand, ReportPictureAndCsvAreWritten) {
  const fs::path json = dir_ / "out" / "r.json", png = dir_ / "out" / "r.png", csv = dir_ / "r.csv";
  const RunResult result = run_tdsim(kSmallRun + " --report " + json.string() + " --image " + png.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string report = read_file(json);
  for (const char* key : {"\"cycles\"", "\"rays_per_s\"", "\"box_tests_per_s\"", "\"tri_tests_per_s\"",
                          "\"box_peak_per_s\"", "\"td_utilisation\"", "\"stalls\"", "\"caches\"", "\"bvh\"",
                          "\"bytes_per_triangle\"", "\"wall_s\""})
    EXPECT_NE(report.find(key), std::string::npos) << key;
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
  ASSERT_EQ(run_tdsim(kSmallRun + " --engine functional --report " + csv.string()).exit_code, 0);
  EXPECT_EQ(read_file(csv).rfind("name,unit,value\n", 0), 0u);
  EXPECT_TRUE(temp_files().empty());
}

// A number after `"key":` in a report (the first such key).
double json_number(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stod(json.substr(at + key.size() + 3));
}

TEST_F(RunCommand, TheModelsReportSaysWhereTheChipsHostTimeWent) {
  const fs::path model = dir_ / "m.json", functional = dir_ / "f.json", csv = dir_ / "m.csv";
  const RunResult timed = run_tdsim(kSmallRun + " -j 2 --report " + model.string());
  ASSERT_EQ(timed.exit_code, 0) << timed.output;
  EXPECT_NE(timed.output.find("host time in the chip: memory events "), std::string::npos) << timed.output;
  EXPECT_NE(timed.output.find("%, 2 threads), dispatch "), std::string::npos) << timed.output;
  const std::string report = read_file(model);
  const double events = json_number(report, "memory_events_s"), clocks = json_number(report, "td_clocks_s"),
               dispatch = json_number(report, "dispatch_s"), wall = json_number(report, "wall_s");
  EXPECT_GT(events, 0) << report;
  EXPECT_GT(clocks, 0) << report;
  EXPECT_GE(dispatch, 0) << report;
  EXPECT_LE(events + clocks + dispatch, wall) << report;  // the chip's parts of the rays' wall time
  const double serial = json_number(report, "serial_share");
  EXPECT_NEAR(serial, (events + dispatch) / (events + clocks + dispatch), 1e-6) << report;
  ASSERT_EQ(run_tdsim(kSmallRun + " --report " + csv.string()).exit_code, 0);
  EXPECT_NE(read_file(csv).find("\nhost_time.td_clocks_s,s,"), std::string::npos) << read_file(csv);
  // The functional engine has no chip: no such figures.
  const RunResult reference = run_tdsim(kSmallRun + " --engine functional --report " + functional.string());
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  EXPECT_EQ(read_file(functional).find("host_time"), std::string::npos);
  EXPECT_EQ(reference.output.find("host time in the chip"), std::string::npos) << reference.output;
}

TEST_F(RunCommand, RaysFromAFileAreTracedAndBadLinesNamed) {
  const fs::path rays = write("rays.csv", "ox,oy,oz,dx,dy,dz,tmax\n0,0,5,0,0,-1,inf\n0,0,5,0,0,1,100\n");
  const fs::path hits = dir_ / "hits.csv";
  const RunResult result =
      run_tdsim("run --config " + kSmallConfig + " --scene " + kMesh + " --rays-in " + rays.string() + " --hits-out " +
                hits.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("rays: 2 traced"), std::string::npos) << result.output;
  EXPECT_NE(read_file(hits).find("\n1,0,inf,-1,-1,0,0\n"), std::string::npos) << read_file(hits);
  const fs::path bad = write("bad.csv", "ox,oy,oz,dx,dy,dz,tmax\n0,0,5,0,0,-1,inf\n0,0,5,abc,0,1,100\n");
  const RunResult refused = run_tdsim("run --config " + kSmallConfig + " --scene " + kMesh + " --rays-in " + bad.string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find(bad.string() + ":3: dx"), std::string::npos) << refused.output;
  // Refused before the run starts, on both engines, in one line (not from
  // inside the simulation, wrapped in a SystemC kernel report).
  for (const char* engine : {"model", "functional"}) {
    const RunResult early = run_tdsim("run --config " + kSmallConfig + " --scene " + kMesh + " --engine " + engine +
                                      " --rays-in " + bad.string());
    EXPECT_EQ(early.exit_code, 2) << early.output;
    EXPECT_EQ(early.output, "error: " + bad.string() + ":3: dx: not a number ('abc')\n") << engine;
  }
}

TEST_F(RunCommand, BadMeshesExitTwoNamingTheFile) {
  const std::string missing = (dir_ / "none.obj").string();
  const RunResult absent = run_tdsim("run --config " + kSmallConfig + " --scene " + missing);
  EXPECT_EQ(absent.exit_code, 2);
  EXPECT_NE(absent.output.find(missing), std::string::npos) << absent.output;
  const fs::path empty = write("empty.obj", "# nothing\n");
  const RunResult nothing = run_tdsim("run --config " + kSmallConfig + " --scene " + empty.string());
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.output.find(empty.string()), std::string::npos) << nothing.output;
  // Debian's Assimp aborts on this one (an assertion): the import's child process does, not tdsim.
  const fs::path counts_only = write("counts_only.off", "OFF\n6 4 0");
  const RunResult aborted = run_tdsim("run --config " + kSmallConfig + " --scene " + counts_only.string());
  EXPECT_EQ(aborted.exit_code, 2);
  EXPECT_NE(aborted.output.find(counts_only.string() + ": cannot read mesh"), std::string::npos) << aborted.output;
  EXPECT_EQ(std::count(aborted.output.begin(), aborted.output.end(), '\n'), 1) << aborted.output;
}

// scripts/run passes --config, --report and --image: what the user adds wins.
TEST_F(RunCommand, AFlagGivenTwiceKeepsItsLastValue) {
  const RunResult result = run_tdsim("run --config " + kSeriesX + " --config " + kSmallConfig +
                                     " --width 100 --width 16 --height 9 --engine functional");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("small test chip"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("16x9 camera frame"), std::string::npos) << result.output;
}

TEST_F(RunCommand, FlagsWithoutEffectAreRefused) {
  const struct {
    std::string arguments, reason;
  } cases[] = {
      {kSmallRun + " -j 300", "--threads 300: the chip takes 1 to 256 threads"},
      {kSmallRun + " --engine functional --stats s.json", "--stats has no effect with --engine functional"},
      {kSmallRun + " --rays shadow --image p.png", "--image has no effect without primary rays"},
      {kSmallRun + " --ao-rays 3", "--ao-rays has no effect without --rays ao"},
      {kSmallRun + " --report r.txt", "--report r.txt: the file name must end in .json or .csv"},
      {kSmallRun + " --scoreboard sample:0", "--scoreboard: expected all, off or sample:N with N >= 1"},
      {kSmallRun + " --engine functional --scoreboard off", "--scoreboard has no effect with --engine functional"},
      {kSmallRun + " --scene basic --flatten", "--flatten has no effect with --scene basic"},
      {kSmallRun + " --flatten --instance-mask 3", "--instance-mask has no effect on a one-level BVH"},
      {kSmallRun + " --instance-mask 256", "--instance-mask"},
  };
  for (const auto& c : cases) {
    const RunResult result = run_tdsim(c.arguments);
    EXPECT_EQ(result.exit_code, 2) << c.arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(c.reason), std::string::npos) << c.arguments << "\n" << result.output;
  }
}

const std::string kInstances = std::string(TDSIM_SOURCE_DIR) + "/tests/data/instances.gltf";

TEST_F(RunCommand, TwoLevelScenesGiveTheFunctionalHitsOnEveryEngineThreadCountAndTrace) {
  // A node graph of one mesh placed six times (nested, stretched, mirrored,
  // one with mask 2): the model issues the instance nodes' loads through
  // the TDs' L0s; every way of running it gives the same stats and hits.
  const std::string run = "run --config xbox_series_s --scene " + kInstances + " --width 96 --height 54";
  const fs::path reference = dir_ / "f.csv";
  const RunResult functional = run_tdsim(run + " --engine functional --hits-out " + reference.string());
  ASSERT_EQ(functional.exit_code, 0) << functional.output;
  EXPECT_NE(functional.output.find("6 instances of 1 BLASes"), std::string::npos) << functional.output;
  const std::string hits = read_file(reference);
  EXPECT_NE(hits.find(",1,"), std::string::npos);
  std::string stats;
  for (const std::string& variant : {std::string(" --scoreboard all"), std::string(" --scoreboard off"),
                                     std::string(" --scoreboard off -j 2"), std::string(" --engine rtl"),
                                     std::string(" --trace-cycles 200 --trace ") + (dir_ / "t.vcd").string()}) {
    const fs::path file = dir_ / "m.csv", json = dir_ / "s.json";
    const RunResult model = run_tdsim(run + variant + " --hits-out " + file.string() + " --stats " + json.string());
    ASSERT_EQ(model.exit_code, 0) << variant << "\n" << model.output;
    EXPECT_EQ(read_file(file), hits) << variant;
    EXPECT_NE(model.output.find("vector loads (instance nodes, parent links, closest-hit shading): "),
              std::string::npos)
        << model.output;
    EXPECT_NE(model.output.find(" 0 mismatches"), std::string::npos) << model.output;
    if (stats.empty()) {
      stats = read_file(json);
      EXPECT_NE(stats.find("\"chip.shader.load_instructions\""), std::string::npos);
      EXPECT_NE(stats.find("\"chip.wgp0.td0.l0.load_hits\""), std::string::npos);
      EXPECT_NE(stats.find("\"chip.sa0.l1.load_misses\""), std::string::npos);
      EXPECT_NE(stats.find("\"chip.wgp0.td0.stall_cycles.waiting_loads\""), std::string::npos);
    }
    EXPECT_EQ(read_file(json), stats) << variant;
  }
  // Short stacks overflow: the way back by parent links (the default) or by
  // restarts gives the same hits on the model as on the functional engine,
  // and as the 16-entry stack's. (Loads of parent links are checked too.)
  // With TAPU, the instance step loads a fifth 16 bytes, the start pointer.
  for (const std::string& variant :
       {std::string(" --set shader.stack_entries=1"), std::string(" --set shader.stack_entries=2 -j 2"),
        std::string(" --set shader.stack_entries=1 --set shader.overflow=restart"),
        // and with every instance pulled up into the TLAS (TAPU), the way back leaving a BLAS where it entered
        std::string(" --set bvh.tapu=4 --set shader.stack_entries=2"),
        std::string(" --set bvh.tapu=16 --set shader.stack_entries=1 -j 2"),
        std::string(" --set bvh.tapu=16 --set shader.stack_entries=1 --set shader.overflow=restart")}) {
    const fs::path file = dir_ / "m.csv", fine = dir_ / "mf.csv";
    const RunResult model = run_tdsim(run + variant + " --hits-out " + file.string());
    const RunResult same = run_tdsim(run + variant + " --engine functional --hits-out " + fine.string());
    ASSERT_EQ(model.exit_code, 0) << variant << "\n" << model.output;
    ASSERT_EQ(same.exit_code, 0) << variant << "\n" << same.output;
    EXPECT_NE(model.output.find(" 0 mismatches"), std::string::npos) << model.output;
    const bool parent = variant.find("restart") == std::string::npos;
    EXPECT_NE(model.output.find(parent ? " parent links loaded" : " restarts"), std::string::npos) << model.output;
    EXPECT_EQ(model.output.find(parent ? " 0 parent links loaded" : " 0 restarts"), std::string::npos) << model.output;
    EXPECT_EQ(read_file(file), read_file(fine)) << variant;
    if (parent) {
      EXPECT_EQ(read_file(file), hits) << variant;
    }
  }
  // Any-hit (shadow) and diffuse rays from the two-level primary hits: the same hits on both engines.
  for (const char* rays : {"shadow", "diffuse"}) {
    const fs::path model = dir_ / "rm.csv", functional_hits = dir_ / "rf.csv";
    const std::string secondary = run + " --rays " + rays + " --hits-out ";
    ASSERT_EQ(run_tdsim(secondary + model.string()).exit_code, 0) << rays;
    ASSERT_EQ(run_tdsim(secondary + functional_hits.string() + " --engine functional").exit_code, 0) << rays;
    EXPECT_GT(read_file(model).size(), 1000u) << rays;
    EXPECT_EQ(read_file(model), read_file(functional_hits)) << rays;
  }
}

TEST_F(RunCommand, ParentPointersOnTheModelGiveADeepStacksHitsForEveryStackSize) {
  // The drivers' way back (the default overflow), with TAPU so the walk also
  // leaves BLASes where it entered them: the model's hits for every stack
  // size are the functional engine's with 64 entries, bit for bit.
  const std::string run = "run --config small --scene " + kInstances + " --width 32 --height 18 --set bvh.tapu=16 "
                          "--hits-out ";
  const fs::path reference = dir_ / "deep.csv", file = dir_ / "m.csv";
  ASSERT_EQ(run_tdsim(run + reference.string() + " --engine functional --set shader.stack_entries=64").exit_code, 0);
  const std::string deep = read_file(reference);
  ASSERT_GT(deep.size(), 500u);
  for (uint32_t entries = 1; entries <= 64; ++entries) {
    const RunResult model =
        run_tdsim(run + file.string() + " --scoreboard off --set shader.stack_entries=" + std::to_string(entries));
    ASSERT_EQ(model.exit_code, 0) << entries << "\n" << model.output;
    ASSERT_EQ(read_file(file), deep) << entries << " entries";
  }
}

// The instance column of each line of a hits CSV.
std::vector<std::string> hit_instances(const std::string& csv) {
  std::vector<std::string> out;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string field;
    for (int k = 0; k < 4; ++k) std::getline(fields, field, ',');
    out.push_back(field);
  }
  return out;
}

TEST_F(RunCommand, TwoLevelHitsNameTheirInstanceAndTheRaysMaskSelectsInstances) {
  // Straight down onto the "plain", "stretched" and "mirrored" copies (the
  // ring node turns them 0.3 rad about y). Instances in
  // depth-first order: 0 plain, 1 stretched, 2 mirrored (mask 2), 3
  // tower_top, 4 tower_flag, 5 floor.
  const fs::path rays = write("rays.csv",
                              "ox,oy,oz,dx,dy,dz,tmax\n2.866,9,-0.887,0,-1,0,inf\n-2.866,9,0.887,0,-1,0,inf\n"
                              "0.887,9,2.866,0,-1,0,inf\n");
  const auto instances = [&](const std::string& mask, const std::string& engine) {
    const fs::path hits = dir_ / ("h" + mask + engine + ".csv");
    const RunResult result = run_tdsim("run --config " + kSmallConfig + " --scene " + kInstances + " --rays-in " +
                                       rays.string() + " --instance-mask " + mask + " --engine " + engine +
                                       " --hits-out " + hits.string());
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return hit_instances(read_file(hits));
  };
  for (const std::string engine : {"model", "functional"}) {
    EXPECT_EQ(instances("255", engine), (std::vector<std::string>{"0", "1", "2"})) << engine;
    EXPECT_EQ(instances("253", engine), (std::vector<std::string>{"0", "1", "-1"})) << engine;  // not mask 2
    EXPECT_EQ(instances("2", engine), (std::vector<std::string>{"0", "1", "2"})) << engine;
    EXPECT_EQ(instances("0", engine), (std::vector<std::string>{"-1", "-1", "-1"})) << engine;
  }
}

TEST_F(RunCommand, BadNodesInASceneExitTwoNamingTheNode) {
  std::string text = read_file(kInstances);
  const std::string mask = "\"mask\": 2";
  ASSERT_NE(text.find(mask), std::string::npos);
  const fs::path bad_mask = write("bad_mask.gltf", std::string(text).replace(text.find(mask), mask.size(), "\"mask\": 300"));
  const RunResult masked = run_tdsim("run --config " + kSmallConfig + " --engine functional --scene " + bad_mask.string());
  EXPECT_EQ(masked.exit_code, 2) << masked.output;
  EXPECT_NE(masked.output.find("node 'world/ring/mirrored'"), std::string::npos) << masked.output;
  EXPECT_EQ(std::count(masked.output.begin(), masked.output.end(), '\n'), 1) << masked.output;
}

}  // namespace

namespace {

// A counter's value in a --stats file (0 when it is not there).
uint64_t stat_value(const std::string& stats, const std::string& name) {
  const size_t at = stats.find("\"" + name + "\": {");
  if (at == std::string::npos) return 0;
  const size_t value = stats.find("\"value\": ", at);
  return std::stoull(stats.substr(value + 9));
}
// Lines of a hits CSV whose hit column is 1.
size_t hit_count(const std::string& csv) {
  size_t count = 0;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    const size_t comma = line.find(',');
    count += line.compare(comma, 3, ",1,") == 0;
  }
  return count;
}

}  // namespace

TEST_F(RunCommand, ClosestHitShadingLoadsEachHitsAttributesAndTexturesTakesTimeAndChangesNoHit) {
  // Every lane that hit loads its triangle's 3 vertices and 5 texture blocks
  // once its wave's walks are done; the hits stay the functional engine's,
  // every load is checked, and the frame takes longer.
  const std::string run = kSmallRun + " --rays diffuse --scoreboard all";
  const fs::path plain = dir_ / "plain.json", shaded = dir_ / "shaded.json";
  const fs::path plain_hits = dir_ / "plain.csv", shaded_hits = dir_ / "shaded.csv";
  const RunResult a = run_tdsim(run + " --stats " + plain.string() + " --hits-out " + plain_hits.string());
  const RunResult b = run_tdsim(run + " --stats " + shaded.string() + " --hits-out " + shaded_hits.string() +
                                " --set shader.hit_attribute_loads=3 --set shader.hit_texture_loads=5"
                                " --set shader.hit_alu_instructions=100");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NE(b.output.find(", 0 mismatches"), std::string::npos) << b.output;
  const std::string hits = read_file(plain_hits);
  ASSERT_EQ(read_file(shaded_hits), hits);
  const size_t hit_lanes = hit_count(hits);
  ASSERT_GT(hit_lanes, 50u);
  const std::string p = read_file(plain), s = read_file(shaded);
  EXPECT_EQ(stat_value(p, "chip.shader.shading_load_lanes"), 0u);
  EXPECT_EQ(stat_value(s, "chip.shader.shading_load_lanes"), 8 * hit_lanes);
  EXPECT_GT(stat_value(s, "chip.shader.shading_alu_cycles"), 0u);
  EXPECT_GT(stat_value(s, "chip.cycles"), stat_value(p, "chip.cycles"));
}

TEST_F(RunCommand, AStackPopWaitsForItsLdsReadAndChangesNoHit) {
  const std::string run = kSmallRun + " --rays diffuse";
  const fs::path none = dir_ / "none.json", some = dir_ / "some.json";
  const fs::path none_hits = dir_ / "none.csv", some_hits = dir_ / "some.csv";
  const RunResult a = run_tdsim(run + " --set shader.lds_latency_cycles=0 --stats " + none.string() + " --hits-out " +
                                none_hits.string());
  const RunResult b = run_tdsim(run + " --set shader.lds_latency_cycles=44 --stats " + some.string() + " --hits-out " +
                                some_hits.string());
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_EQ(read_file(some_hits), read_file(none_hits));
  const std::string n = read_file(none), s = read_file(some);
  EXPECT_EQ(stat_value(n, "chip.shader.lds_wait_cycles"), 0u);
  const uint64_t waited = stat_value(s, "chip.shader.lds_wait_cycles");
  EXPECT_GT(waited, 0u);
  EXPECT_EQ(waited % 44, 0u);
  EXPECT_LT(waited / 44, stat_value(s, "chip.shader.instructions"));  // not every iteration pops
  EXPECT_GT(stat_value(s, "chip.cycles"), stat_value(n, "chip.cycles"));
}

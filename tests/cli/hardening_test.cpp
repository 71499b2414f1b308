// The tdsim binary under the inputs and events that cost users work: long
// inputs (bounded memory), outputs that cannot be written, two flags naming
// one file, flags that would do nothing, numbers out of range, SIGINT and
// SIGTERM mid-run, and trace sizes. Each test runs the real binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using namespace tdsim_cli;
using Hardening = CliTest;

// --- memory -----------------------------------------------------------------

TEST_F(Hardening, ModelEngineMemoryDoesNotGrowWithTheNumberOfCases) {
  // 20 000 random cases held 1.1 GB when every case got its own 64 KiB page
  // and results were kept for the whole file; streamed, far less.
  const fs::path file = dir_ / "many.tdv";
  ASSERT_EQ(run_tdsim("gen-vectors --kind random --seed 5 --count 20000 -o " + file.string()).exit_code, 0);
  const RunResult result = run_tdsim("check " + file.string() + " --engine model --config " + kSmallConfig);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(last_line(result.output), "20000 passed, 0 failed");
  EXPECT_LT(result.max_rss_kib, 200 * 1024) << "peak RSS " << result.max_rss_kib << " KiB";
}

// --- outputs ----------------------------------------------------------------

TEST_F(Hardening, AnOutputThatCannotBeWrittenFailsBeforeAnyWork) {
  write("a_file", "");
  const std::string json = (dir_ / "a_file" / "p.json").string();
  const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --json " + json);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--json " + json + ": cannot create directory"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find(".tmp."), std::string::npos) << "must name the user's path: " << result.output;
  EXPECT_EQ(result.output.find("box_fp16"), std::string::npos) << "must not run: " << result.output;
}

TEST_F(Hardening, MissingParentDirectoriesOfOutputsAreMade) {
  const fs::path vectors = dir_ / "out" / "deeper" / "v.tdv";
  const RunResult result = run_tdsim("gen-vectors --kind edge -o " + vectors.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(fs::exists(vectors));
  const fs::path stats = dir_ / "out2" / "s.csv";
  EXPECT_EQ(run_tdsim("check " + kConformance + " --engine model --config " + kSmallConfig + " --stats " +
                      stats.string())
                .exit_code,
            0);
  EXPECT_TRUE(fs::exists(stats));
  EXPECT_TRUE(temp_files().empty());
}

TEST_F(Hardening, TwoFlagsNamingOneFileAreRefused) {
  const std::string a = (dir_ / "o" / "x.json").string();
  const std::string same = (dir_ / "o" / ".." / "o" / "x.json").string();
  const RunResult result =
      run_tdsim("peak --config " + kSmallConfig + " --json " + a + " --stats " + same + " --no-bandwidth");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--json " + a + " and --stats " + same + " name the same file"), std::string::npos)
      << result.output;
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --stats " + a + " --stats " + a).exit_code, 2);
}

TEST_F(Hardening, AnOutputThatIsADirectoryIsRefused) {
  const RunResult result = run_tdsim("gen-vectors --kind edge -o " + dir_.string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("is a directory"), std::string::npos) << result.output;
}

// --- flags that would do nothing ---------------------------------------------

TEST_F(Hardening, FlagsWithoutEffectAreRefusedWithAReason) {
  const std::string tdv = write("one.tdv", "tdv 1\n" + kGoodCase + kGoodExpect).string();
  const std::string out = (dir_ / "x.tdv").string();
  const struct {
    std::string arguments;
    std::string reason;
  } cases[] = {
      {"check " + tdv + " --engine ref --config missing.yaml", "--config has no effect with --engine ref"},
      {"check " + tdv + " --lanes-per-wave 32", "--lanes-per-wave has no effect with --engine functional"},
      {"check " + tdv + " --debug td", "--debug has no effect with --engine functional"},
      {"check " + tdv + " --engine functional --stats " + (dir_ / "s.json").string(),
       "--stats has no effect with --engine functional"},
      {"peak --config " + kSmallConfig + " --trace-cycles 5", "--trace-cycles has no effect without --trace"},
      {"peak --config " + kSmallConfig + " --trace-start 5", "--trace-start has no effect without --trace"},
      {"peak --config " + kSmallConfig + " --no-bandwidth --bandwidth-waves 3",
       "--bandwidth-waves has no effect with --no-bandwidth"},
      {"gen-vectors --kind edge --count 5 -o " + out, "--count has no effect with --kind edge"},
      {"gen-vectors --kind edge --seed 9 -o " + out, "--seed has no effect with --kind edge"},
  };
  for (const auto& c : cases) {
    const RunResult result = run_tdsim(c.arguments);
    EXPECT_EQ(result.exit_code, 2) << c.arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(c.reason), std::string::npos) << c.arguments << "\n" << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << "one line: " << result.output;
  }
  EXPECT_FALSE(fs::exists(out));
}

// --- numbers ----------------------------------------------------------------

TEST_F(Hardening, UnsignedOptionsRefuseNegativeAndOversizedValues) {
  const std::string out = (dir_ / "x.tdv").string();
  for (const char* seed : {"-1", "18446744073709551616", "99999999999999999999999", "1e3", "+5", "0x10", ""}) {
    const RunResult result = run_tdsim(std::string("gen-vectors --kind random --count 3 --seed '") + seed + "' -o " + out);
    EXPECT_EQ(result.exit_code, 2) << seed << ": " << result.output;
  }
  EXPECT_EQ(run_tdsim("gen-vectors --kind random --count 3 --seed 18446744073709551615 -o " + out).exit_code, 0);
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --trace t.vcd --trace-start -5").exit_code, 2);
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --waves -1").exit_code, 2);
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --waves 0").exit_code, 2);
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --trace t.vcd --trace-cycles 0").exit_code, 2);
  EXPECT_EQ(run_tdsim("peak --config " + kSmallConfig + " --trace t.vcd --trace-cycles some").exit_code, 2);
}

// --- interrupts ---------------------------------------------------------------

// A long traced peak run, interrupted once the trace's temporary file exists.
void expect_interrupt_cleans_up(const fs::path& dir, int signal, int expected_exit) {
  const fs::path trace = dir / "t.vcd";
  const fs::path json = dir / "p.json";
  {
    std::ofstream(json) << "an earlier report";  // a final file a failed run must not touch
  }
  RunOptions options;
  options.signal = signal;
  options.delay = std::chrono::milliseconds(1500);  // well into the first phase
  const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --waves 200000 --trace " + trace.string() +
                                         " --trace-cycles all --json " + json.string(),
                                     options);
  EXPECT_EQ(result.exit_code, expected_exit) << result.output;
  EXPECT_FALSE(fs::exists(trace));
  EXPECT_EQ(read_file(json), "an earlier report");
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  EXPECT_NE(result.output.find("PARTIAL REPORT"), std::string::npos) << result.output;
}

TEST_F(Hardening, SigintStopsAPeakRunRemovesTemporaryFilesAndExits130) {
  expect_interrupt_cleans_up(dir_, SIGINT, 130);
}

TEST_F(Hardening, SigtermStopsAPeakRunRemovesTemporaryFilesAndExits143) {
  expect_interrupt_cleans_up(dir_, SIGTERM, 143);
}

TEST_F(Hardening, SigintDuringCheckPrintsAPartialSummary) {
  const fs::path file = dir_ / "many.tdv";
  ASSERT_EQ(run_tdsim("gen-vectors --kind random --seed 3 --count 300000 -o " + file.string()).exit_code, 0);
  const fs::path stats = dir_ / "s.json";
  RunOptions options;
  options.signal = SIGINT;
  // Well inside the run: it takes about 3.6 s on a quiet 2-core host of
  // this kind (2.5 s here let a quick run finish first now and then).
  options.delay = std::chrono::milliseconds(1000);
  const RunResult result = run_tdsim(
      "check " + file.string() + " --engine model --config " + kSmallConfig + " --stats " + stats.string(), options);
  EXPECT_EQ(result.exit_code, 130) << result.output;
  EXPECT_NE(last_line(result.output).find("(partial: interrupted)"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(stats));
  EXPECT_TRUE(temp_files().empty());
}

// --- wording ------------------------------------------------------------------

TEST_F(Hardening, ModelMismatchAddsTheReferenceOnlyWhenItDisagrees) {
  const fs::path file = write("bad.tdv", "tdv 1\n" + kGoodCase + "expect=00000010,00000040,00000020,ffffffff\n");
  const RunResult result = run_tdsim("check " + file.string() + " --engine model --config " + kSmallConfig);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find(":2: box32.example: expected"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("(reference"), std::string::npos) << "model and reference agree: " << result.output;
}

TEST_F(Hardening, UnknownCommandIsNamedAndHelpIsACommand) {
  const RunResult unknown = run_tdsim("frobnicate");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("unknown command 'frobnicate' (commands: run, check, peak, bench, gen-vectors"),
            std::string::npos)
      << unknown.output;
  const RunResult help = run_tdsim("help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("gen-vectors"), std::string::npos) << help.output;
  const RunResult help_check = run_tdsim("help check");
  EXPECT_EQ(help_check.exit_code, 0);
  EXPECT_NE(help_check.output.find("--lanes-per-wave"), std::string::npos) << help_check.output;
  const RunResult version = run_tdsim("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.output.rfind("tdsim ", 0), 0u) << version.output;
}

TEST_F(Hardening, VectorFileWordingForDirectoriesAndByteOrderMarks) {
  const RunResult directory = run_tdsim("check " + dir_.string());
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_NE(directory.output.find(dir_.string() + ": is a directory, not a .tdv file"), std::string::npos)
      << directory.output;
  const fs::path bom = write("bom.tdv", "\xef\xbb\xbftdv 1\n" + kGoodCase + kGoodExpect);
  const RunResult result = run_tdsim("check " + bom.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST_F(Hardening, PeakExplainsLanesCheckedAgainstLaneTests) {
  const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --waves 2 --no-bandwidth");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find(" inactive), 0 mismatches"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("lane tests (active lanes through a datapath)"), std::string::npos) << result.output;
}

// --- traces -------------------------------------------------------------------

// The last timestamp of a VCD, in its time unit (ps).
uint64_t last_vcd_time(const std::string& vcd) {
  const size_t hash = vcd.rfind("\n#");
  return hash == std::string::npos ? 0 : std::stoull(vcd.substr(hash + 2));
}

TEST_F(Hardening, TracesAreWindowedByDefaultAndTheWindowIsPrinted) {
  const fs::path trace = dir_ / "t.vcd";
  const RunResult result = run_tdsim("peak --config " + kSmallConfig + " --waves 400 --no-bandwidth --trace " +
                                     trace.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("trace: cycles 0..9999 to " + trace.string()), std::string::npos) << result.output;
  // small.yaml runs at 1000 MHz: 1000 ps a cycle; the run is longer than the window.
  EXPECT_EQ(last_vcd_time(read_file(trace)), 10000u * 1000u);
  const RunResult all = run_tdsim("peak --config " + kSmallConfig + " --waves 400 --no-bandwidth --trace " +
                                  trace.string() + " --trace-cycles all");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_GT(last_vcd_time(read_file(trace)), 10000u * 1000u);
}

TEST_F(Hardening, FstTracesAreWrittenThroughVcd2fst) {
  if (!fs::exists("/usr/bin/vcd2fst") || !fs::exists("/usr/bin/fst2vcd"))
    GTEST_SKIP() << "gtkwave's vcd2fst/fst2vcd not installed (scripts/bootstrap installs gtkwave)";
  const fs::path fst = dir_ / "t.fst", vcd = dir_ / "t.vcd", back = dir_ / "back.vcd";
  const std::string run = "peak --config " + kSmallConfig + " --waves 50 --no-bandwidth --no-latency --trace ";
  const RunResult with_fst = run_tdsim(run + fst.string());
  ASSERT_EQ(with_fst.exit_code, 0) << with_fst.output;
  // The conversion runs in a child process: the report must not come out twice.
  const size_t first = with_fst.output.find("tdsim peak:");
  ASSERT_NE(first, std::string::npos) << with_fst.output;
  EXPECT_EQ(with_fst.output.find("tdsim peak:", first + 1), std::string::npos) << with_fst.output;
  ASSERT_EQ(run_tdsim(run + vcd.string()).exit_code, 0);
  EXPECT_LT(fs::file_size(fst), fs::file_size(vcd));
  EXPECT_TRUE(temp_files().empty());
  ASSERT_EQ(std::system(("/usr/bin/fst2vcd " + fst.string() + " > " + back.string() + " 2>/dev/null").c_str()), 0);
  EXPECT_NE(read_file(back).find("$scope module node_fetch"), std::string::npos);
}

}  // namespace

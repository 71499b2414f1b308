// The VCD writer: nested scopes from dotted names, changes only on change,
// the trace window, atomic rename, and a round trip through GTKWave's own
// reader (vcd2fst, then fst2vcd back) so the file is proven readable.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/sim/vcd_writer.h"

namespace td::sim {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Everything after `$enddefinitions $end\n`: the value changes.
std::string body_of(const std::string& vcd) {
  const std::string marker = "$enddefinitions $end\n";
  const std::size_t at = vcd.find(marker);
  return at == std::string::npos ? "<no $enddefinitions>" : vcd.substr(at + marker.size());
}

// Each test writes into its own fresh folder under the system temp folder.
class VcdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device entropy;
    for (int attempt = 0; attempt < 100 && dir_.empty(); ++attempt) {
      const fs::path candidate =
          fs::temp_directory_path() / ("tdsim_vcd_test_" + std::to_string(getpid()) + "_" + std::to_string(entropy()));
      if (fs::create_directory(candidate)) dir_ = candidate;
    }
    ASSERT_FALSE(dir_.empty()) << "cannot create a temp folder";
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

using VcdWriterTest = VcdTest;
using VcdWindowTest = VcdTest;
using VcdReaderTest = VcdTest;

TEST_F(VcdWriterTest, DottedNamesBecomeNestedScopesInDeclarationOrder) {
  const std::string file = path("h.vcd");
  {
    VcdWriter vcd(file, 1000);
    vcd.add("chip.wgp0.td0.x", 1);
    vcd.add("chip.wgp0.td1.y", 8);
    vcd.add("chip.l2.z", 1);
    vcd.add("chip.wgp0.td0.w", 1);  // joins td0 although declared after l2
    vcd.close();
  }
  const std::string text = read_text(file);
  const std::size_t timescale = text.find("$timescale 1ps $end\n");
  ASSERT_NE(timescale, std::string::npos) << text;
  const std::string end = "$enddefinitions $end\n";
  const std::string declarations = text.substr(timescale, text.find(end) + end.size() - timescale);
  EXPECT_EQ(declarations,
            "$timescale 1ps $end\n"
            "$scope module chip $end\n"
            "$scope module wgp0 $end\n"
            "$scope module td0 $end\n"
            "$var wire 1 ! x $end\n"
            "$var wire 1 $ w $end\n"
            "$upscope $end\n"
            "$scope module td1 $end\n"
            "$var wire 8 \" y [7:0] $end\n"
            "$upscope $end\n"
            "$upscope $end\n"
            "$scope module l2 $end\n"
            "$var wire 1 # z $end\n"
            "$upscope $end\n"
            "$upscope $end\n"
            "$enddefinitions $end\n");
}

TEST_F(VcdWriterTest, ValuesAreWrittenOnlyWhenTheyChange) {
  const std::string file = path("c.vcd");
  VcdWriter vcd(file, 1000);
  const auto x = vcd.add("top.x", 1);
  const auto y = vcd.add("top.y", 4);
  const uint64_t xs[] = {0, 1, 1, 1, 0};
  for (uint64_t cycle = 0; cycle < 5; ++cycle) {
    vcd.set(x, xs[cycle], cycle);
    vcd.set(y, 5, cycle);
  }
  vcd.close();
  EXPECT_EQ(body_of(read_text(file)),
            "#0\n$dumpvars\n0!\nb101 \"\n$end\n"
            "#1000\n1!\n"
            "#4000\n0!\n"
            "#5000\n");  // the end of the last cycle
}

TEST_F(VcdWriterTest, WideValuesAreBinaryWithoutLeadingZeros) {
  const std::string file = path("w.vcd");
  VcdWriter vcd(file, 10);
  const auto a = vcd.add("a", 64);
  const auto b = vcd.add("b", 32);
  vcd.set(a, UINT64_MAX, 1);
  vcd.set(b, 0x80000000u, 1);
  vcd.set(a, 0, 2);
  vcd.set(b, 6, 2);
  vcd.close();
  EXPECT_EQ(body_of(read_text(file)), "#0\n$dumpvars\nb0 !\nb0 \"\n$end\n#10\nb" + std::string(64, '1') +
                                          " !\nb1" + std::string(31, '0') + " \"\n#20\nb0 !\nb110 \"\n#30\n");
}

TEST_F(VcdWriterTest, IdentifierCodesArePrintableAndUnique) {
  const std::string file = path("ids.vcd");
  {
    VcdWriter vcd(file, 1);
    for (int i = 0; i < 9000; ++i) vcd.add("s.n" + std::to_string(i), 1);  // past 94 and 94*94 codes
    vcd.close();
  }
  std::istringstream lines(read_text(file));
  std::set<std::string> codes;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("$var ", 0) != 0) continue;
    std::istringstream words(line);
    std::string var, type, width, code;
    words >> var >> type >> width >> code;
    for (const char c : code) ASSERT_TRUE(c >= 33 && c <= 126) << line;
    EXPECT_TRUE(codes.insert(code).second) << "duplicate code in " << line;
  }
  EXPECT_EQ(codes.size(), 9000u);
  EXPECT_EQ(codes.count("!"), 1u);
  EXPECT_EQ(codes.count("~"), 1u);
}

TEST_F(VcdWriterTest, DecreasingCycleThrowsLogicError) {
  VcdWriter vcd(path("o.vcd"), 1);
  const auto x = vcd.add("x", 1);
  const auto y = vcd.add("y", 1);
  vcd.set(x, 1, 5);
  vcd.set(y, 1, 5);  // the same cycle again is fine
  EXPECT_THROW(vcd.set(x, 0, 4), std::logic_error);
  EXPECT_NO_THROW(vcd.set(x, 0, 6));
}

TEST_F(VcdWriterTest, DeclarationRulesAreEnforced) {
  VcdWriter vcd(path("d.vcd"), 1);
  const auto x = vcd.add("a.b.x", 8);
  EXPECT_THROW(vcd.add("a.b.x", 8), std::logic_error);    // duplicate
  EXPECT_THROW(vcd.add("a.b", 1), std::logic_error);      // already a scope
  EXPECT_THROW(vcd.add("a.b.x.y", 1), std::logic_error);  // x is a signal
  EXPECT_THROW(vcd.add("w0", 0), std::invalid_argument);
  EXPECT_THROW(vcd.add("w65", 65), std::invalid_argument);
  for (const char* bad : {"", ".a", "a.", "a..b", "a b", "a\tb"}) {
    EXPECT_THROW(vcd.add(bad, 1), std::invalid_argument) << "'" << bad << "'";
  }
  EXPECT_NO_THROW(vcd.add("w64", 64));
  EXPECT_THROW(vcd.set(x, 0x100, 0), std::invalid_argument);  // does not fit 8 bits
  EXPECT_THROW(vcd.set(99, 0, 0), std::out_of_range);
  vcd.set(x, 0xff, 0);
  EXPECT_THROW(vcd.add("late", 1), std::logic_error);  // after the first set()
}

TEST_F(VcdWriterTest, CloseRenamesTheTemporaryFileIntoPlace) {
  const std::string file = path("r.vcd");
  const std::string temp = file + ".tmp." + std::to_string(getpid());
  {
    VcdWriter vcd(file, 1);
    vcd.set(vcd.add("x", 1), 1, 0);
    EXPECT_TRUE(fs::exists(temp));
    EXPECT_FALSE(fs::exists(file));
    vcd.close();
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_TRUE(fs::exists(file));
    EXPECT_NO_THROW(vcd.close());  // a second close does nothing
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(VcdWriterTest, DestroyedWithoutCloseKeepsNothingAndLeavesAnOldFileAlone) {
  const std::string fresh = path("d.vcd");
  { VcdWriter vcd(fresh, 1); }  // a run unwinding on an error or interrupt
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_FALSE(fs::exists(fresh + ".tmp." + std::to_string(getpid())));
  const std::string old = path("old.vcd");
  { std::ofstream(old) << "previous trace"; }
  {
    VcdWriter vcd(old, 1);
    vcd.set(vcd.add("x", 1), 1, 0);
  }
  EXPECT_EQ(read_text(old), "previous trace");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(VcdWriterTest, UncreatablePathThrowsNamingIt) {
  const std::string file = path("missing/folder/t.vcd");
  try {
    VcdWriter vcd(file, 1);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
  EXPECT_THROW(VcdWriter(path("p.vcd"), 0), std::invalid_argument);
  EXPECT_FALSE(fs::exists(path("p.vcd.tmp." + std::to_string(getpid()))));
}

TEST_F(VcdWindowTest, ChangesBeforeTheWindowAppearInDumpvarsAtItsStart) {
  const std::string file = path("win.vcd");
  VcdWriter vcd(file, 2, /*start_cycle=*/10, /*cycles=*/5);  // cycles 10..14
  const auto x = vcd.add("x", 1);
  const auto y = vcd.add("y", 4);
  EXPECT_TRUE(vcd.wants_samples_until(3));
  EXPECT_FALSE(vcd.in_window(9));
  vcd.set(x, 1, 3);   // before: remembered
  vcd.set(y, 3, 7);   // before: remembered
  vcd.set(y, 4, 10);  // the first window cycle: part of the $dumpvars
  vcd.set(x, 0, 12);
  EXPECT_TRUE(vcd.in_window(14));
  EXPECT_FALSE(vcd.wants_samples_until(15));
  vcd.set(x, 1, 15);  // after: not written
  vcd.set(y, 9, 20);
  vcd.close();
  EXPECT_EQ(body_of(read_text(file)),
            "#20\n$dumpvars\n1!\nb100 \"\n$end\n"
            "#24\n0!\n"
            "#30\n");  // the window's end
}

TEST_F(VcdWindowTest, FirstChangeAfterTheWindowStartKeepsDumpvarsAtTheStart) {
  const std::string file = path("late.vcd");
  VcdWriter vcd(file, 10, 2, VcdWriter::kForever);
  const auto x = vcd.add("x", 1);
  vcd.set(x, 0, 0);
  vcd.set(x, 1, 4);
  vcd.close();
  EXPECT_EQ(body_of(read_text(file)), "#20\n$dumpvars\n0!\n$end\n#40\n1!\n#50\n");
}

TEST_F(VcdWindowTest, TraceWithoutSamplesInTheWindowIsStillComplete) {
  const std::string never = path("never.vcd");
  {
    VcdWriter vcd(never, 10, 7);
    vcd.add("x", 1);
    vcd.close();
  }
  EXPECT_EQ(body_of(read_text(never)), "#70\n$dumpvars\n0!\n$end\n");

  const std::string early = path("early.vcd");
  {
    VcdWriter vcd(early, 10, 100, 50);
    const auto x = vcd.add("x", 1);
    for (uint64_t cycle = 0; cycle < 20; ++cycle) vcd.set(x, cycle % 2, cycle);  // stops before the window
    vcd.close();
  }
  EXPECT_EQ(body_of(read_text(early)), "#1000\n$dumpvars\n1!\n$end\n");

  const std::string empty = path("empty.vcd");
  {
    VcdWriter vcd(empty, 10, 0, 0);
    vcd.set(vcd.add("x", 1), 1, 0);
    vcd.close();
  }
  EXPECT_EQ(body_of(read_text(empty)), "#0\n$dumpvars\n0!\n$end\n");
}

TEST_F(VcdWindowTest, NothingIsWrittenAfterTheWindow) {
  const std::string file = path("short.vcd");
  {
    VcdWriter vcd(file, 1000, 0, 10);
    const auto x = vcd.add("x", 32);
    for (uint64_t cycle = 0; cycle < 100000; ++cycle) vcd.set(x, cycle & 0xffffffffu, cycle);
    vcd.close();
  }
  const std::string body = body_of(read_text(file));
  EXPECT_NE(body.find("#9000\nb1001 !\n#10000\n"), std::string::npos) << body;
  EXPECT_EQ(body.find("b1010 !"), std::string::npos);  // cycle 10's value
  EXPECT_LT(body.size(), 200u);
}

// --- GTKWave round trip -------------------------------------------------------

// Value history of every signal, by full dotted name: (time, value) at each change.
using History = std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>>;

void note(History& history, const std::string& name, uint64_t time, uint64_t value) {
  auto& changes = history[name];
  if (changes.empty() || changes.back().second != value) changes.emplace_back(time, value);
}

// Reads a VCD as written by fst2vcd: scopes, vars, then `#time`, `0c`/`1c`, `b... c`.
History parse_vcd(const std::string& text) {
  History history;
  std::map<std::string, std::string> name_of_code;
  std::vector<std::string> scopes;
  uint64_t time = 0;
  bool definitions = true;  // $date, $version and $timescale bodies span lines there
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "$scope") {
      std::string kind, name;
      words >> kind >> name;
      scopes.push_back(name);
    } else if (first == "$upscope") {
      scopes.pop_back();
    } else if (first == "$var") {
      std::string type, width, code, name;
      words >> type >> width >> code >> name;
      std::string full;
      for (const std::string& scope : scopes) full += scope + ".";
      name_of_code[code] = full + name;
    } else if (first == "$enddefinitions") {
      definitions = false;
    } else if (definitions) {
      continue;
    } else if (!first.empty() && first[0] == '#') {
      time = std::stoull(first.substr(1));
    } else if (!first.empty() && first[0] == 'b') {
      std::string code;
      words >> code;
      note(history, name_of_code.at(code), time, std::stoull(first.substr(1), nullptr, 2));
    } else if (!first.empty() && (first[0] == '0' || first[0] == '1')) {
      note(history, name_of_code.at(first.substr(1)), time, static_cast<uint64_t>(first[0] - '0'));
    }
  }
  return history;
}

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(VcdReaderTest, GtkwaveReadsAGeneratedTraceBackUnchanged) {
  const std::string vcd2fst = "/usr/bin/vcd2fst", fst2vcd = "/usr/bin/fst2vcd";
  if (!fs::exists(vcd2fst)) GTEST_SKIP() << vcd2fst << " not installed (Debian package gtkwave; scripts/bootstrap)";

  const uint64_t seed = 20240611;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const uint64_t period_ps = 1250;  // 800 MHz
  const std::string vcd_path = path("trace.vcd"), fst_path = path("trace.fst");
  History expected;
  {
    VcdWriter vcd(vcd_path, period_ps);
    struct Traced {
      std::string name;
      unsigned width;
      VcdWriter::SignalId id;
    };
    std::vector<Traced> traced;
    for (const auto& [name, width] : std::vector<std::pair<std::string, unsigned>>{
             {"chip.enable", 1},
             {"chip.wgp0.td0.valid", 1},
             {"chip.wgp0.td0.count", 32},
             {"chip.wgp0.td1.addr", 64},
             {"chip.wgp0.td1.ready", 1},
             {"chip.l2.hits", 32},
             {"top_level", 64}}) {
      traced.push_back({name, width, vcd.add(name, width)});
    }
    for (uint64_t cycle = 0; cycle < 400; ++cycle) {
      for (const Traced& t : traced) {
        uint64_t value = rng();
        if (t.width < 64) value &= (uint64_t{1} << t.width) - 1;
        if (cycle % 7 != 0 && t.name != "chip.wgp0.td0.count") value = 0;  // mostly quiet signals
        if (t.name == "top_level" && cycle == 100) value = UINT64_MAX;
        vcd.set(t.id, value, cycle);
        note(expected, t.name, cycle * period_ps, value);
      }
    }
    vcd.close();
  }

  const std::string log = path("vcd2fst.log");
  ASSERT_EQ(run("'" + vcd2fst + "' '" + vcd_path + "' '" + fst_path + "' >'" + log + "' 2>&1"), 0) << read_text(log);
  ASSERT_TRUE(fs::exists(fst_path));
  EXPECT_GT(fs::file_size(fst_path), 0u);

  // vcd2fst exits 0 even on garbage, so read the trace back to prove it was understood.
  if (!fs::exists(fst2vcd)) GTEST_SKIP() << fst2vcd << " not installed: round trip not checked";
  const std::string back = path("back.vcd");
  ASSERT_EQ(run("'" + fst2vcd + "' '" + fst_path + "' >'" + back + "' 2>'" + log + "'"), 0) << read_text(log);
  const History actual = parse_vcd(read_text(back));
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [name, changes] : expected) {
    ASSERT_EQ(actual.count(name), 1u) << name;
    EXPECT_EQ(actual.at(name), changes) << name;
  }
}

}  // namespace
}  // namespace td::sim

// The .tdv reader and writer: the format's rules (docs/tdv-format.md) and
// errors that name the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tb/vectors/tdv.h"

namespace td::tb {
namespace {

const std::string kHeader = "tdv 1\n";
const std::string kDesc = "desc=00000000,80000000,0000003f,89000000";
const std::string kRay =
    "ray=7f800000,00000000,00000000,00000000,3f800000,00000000,00000000,3f800000,7f800000,7f800000";

std::string case_line(const std::string& extra = "", const std::string& name = "c0") {
  return "name=" + name + " " + kDesc + " op=bvh ptr=5 " + kRay + " expect=none" + extra + "\n";
}

TdvParse parse(const std::string& text) { return parse_tdv(text, "f.tdv"); }

// The one error of a parse, as "file:line: message".
std::string only_error(const std::string& text) {
  const TdvParse result = parse(text);
  EXPECT_EQ(result.errors.size(), 1u);
  return result.errors.empty() ? std::string() : result.errors.front().to_string();
}

TEST(Tdv, ReadsAMinimalCaseWithDefaults) {
  const TdvParse result = parse(kHeader + case_line());
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result.file.cases.size(), 1u);
  const TdvCase& c = result.file.cases[0];
  EXPECT_EQ(c.name, "c0");
  EXPECT_EQ(c.line, 2);
  EXPECT_EQ(c.desc[1], 0x80000000u);
  EXPECT_EQ(c.desc[3], 0x89000000u);
  EXPECT_EQ(c.lane.op, Opcode::kBvh);
  EXPECT_EQ(c.lane.node_ptr, 5u);
  EXPECT_FALSE(c.lane.a16);
  EXPECT_TRUE(c.lane.exec);
  EXPECT_EQ(c.lane.ray_dwords[4], 0x3f800000u);
  EXPECT_TRUE(c.mem.empty());
  EXPECT_FALSE(c.expect.has_value());
}

TEST(Tdv, SkipsCommentsAndBlankLinesAndCountsThemInLineNumbers) {
  const TdvParse result = parse("# comment\n\n" + kHeader + "  # indented comment\n\r\n" + case_line());
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.file.cases.at(0).line, 6);
}

TEST(Tdv, AcceptsCrlfAndUpperCaseHex) {
  std::string line = case_line();
  line.replace(line.find("7f800000"), 8, "7F800000");
  line.insert(line.size() - 1, "\r");
  EXPECT_TRUE(parse(kHeader + line).ok());
}

TEST(Tdv, KeysMayComeInAnyOrder) {
  const std::string line = "expect=none " + kRay + " ptr=5 op=bvh " + kDesc + " name=x\n";
  EXPECT_TRUE(parse(kHeader + line).ok());
}

TEST(Tdv, HeaderMustBeFirstNonCommentLine) {
  EXPECT_EQ(only_error("# c\n" + case_line()).substr(0, 9), "f.tdv:2: ");
  EXPECT_NE(only_error("tdv 2\n").find("expected header 'tdv 1'"), std::string::npos);
}

TEST(Tdv, EmptyFileIsAnError) { EXPECT_NE(only_error("# only a comment\n").find("no 'tdv 1' header"), std::string::npos); }

TEST(Tdv, UnknownKeyNamesKeyAndLine) {
  EXPECT_EQ(only_error(kHeader + case_line(" colour=red")), "f.tdv:2: unknown key 'colour'");
}

TEST(Tdv, DuplicateKeyIsAnError) {
  EXPECT_EQ(only_error(kHeader + case_line(" exec=1 exec=1")), "f.tdv:2: duplicate key 'exec'");
}

TEST(Tdv, MissingRequiredKeyIsAnError) {
  std::string line = case_line();
  line.replace(line.find(" op=bvh"), 7, "");
  EXPECT_EQ(only_error(kHeader + line), "f.tdv:2: missing required key 'op'");
}

TEST(Tdv, DuplicateCaseNameIsAnError) {
  EXPECT_NE(only_error(kHeader + case_line() + case_line()).find("f.tdv:3: duplicate case name 'c0'"),
            std::string::npos);
}

TEST(Tdv, NameCharactersAreRestricted) {
  EXPECT_NE(only_error(kHeader + case_line("", "bad/name")).find("name:"), std::string::npos);
  EXPECT_TRUE(parse(kHeader + case_line("", "A-z_0.9:x")).ok());
}

TEST(Tdv, PointerWidthDependsOnOp) {
  std::string line = case_line();
  line.replace(line.find("ptr=5"), 5, "ptr=123456789");  // 9 digits
  EXPECT_NE(only_error(kHeader + line).find("ptr: expected 1 to 8 hex digits"), std::string::npos);
  line.replace(line.find("op=bvh"), 6, "op=bvh64");
  const TdvParse result = parse(kHeader + line);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.file.cases[0].lane.node_ptr, 0x123456789u);
}

TEST(Tdv, RayDwordCountDependsOnA16) {
  EXPECT_NE(only_error(kHeader + case_line(" a16=1")).find("ray: expected 7"), std::string::npos);
  const std::string a16 = "name=a " + kDesc + " op=bvh ptr=5 a16=1 ray=" +
                          "7f800000,00000000,00000000,00000000,00003c00,3c000000,7c007c00 expect=none\n";
  const TdvParse result = parse(kHeader + a16);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.file.cases[0].lane.a16);
  EXPECT_EQ(result.file.cases[0].lane.ray_dwords[6], 0x7c007c00u);
}

TEST(Tdv, DwordsMustHaveEightDigits) {
  std::string line = case_line();
  line.replace(line.find("80000000"), 8, "8000000");
  EXPECT_NE(only_error(kHeader + line).find("desc:"), std::string::npos);
}

TEST(Tdv, MemMustBe64Or128Bytes) {
  EXPECT_NE(only_error(kHeader + case_line(" mem=00")).find("mem: expected 64 or 128 bytes"), std::string::npos);
  EXPECT_TRUE(parse(kHeader + case_line(" mem=" + std::string(128, 'a'))).ok());
  EXPECT_TRUE(parse(kHeader + case_line(" mem=" + std::string(256, 'F'))).ok());
  EXPECT_NE(only_error(kHeader + case_line(" mem=" + std::string(127, '0') + "g")).find("mem: non-hex"),
            std::string::npos);
}

TEST(Tdv, FlagsAreZeroOrOne) {
  EXPECT_NE(only_error(kHeader + case_line(" exec=2")).find("exec: expected 0 or 1"), std::string::npos);
  EXPECT_NE(only_error(kHeader + case_line(" a16=yes")).find("a16: expected 0 or 1"), std::string::npos);
}

TEST(Tdv, ExpectIsFourDwordsOrNone) {
  std::string line = case_line();
  line.replace(line.find("expect=none"), 11, "expect=00000040,00000010,00000020,ffffffff");
  const TdvParse result = parse(kHeader + line);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ((*result.file.cases[0].expect)[3], 0xffffffffu);
  line.replace(line.find("expect="), 50, "expect=00000040,00000010");
  EXPECT_NE(only_error(kHeader + line).find("expect:"), std::string::npos);
}

TEST(Tdv, FieldWithoutEqualsIsAnError) {
  EXPECT_NE(only_error(kHeader + case_line(" stray")).find("expected key=value"), std::string::npos);
}

TEST(Tdv, CollectsOneErrorPerBadLineUpToTheLimit) {
  std::string text = kHeader;
  for (int i = 0; i < 30; ++i) text += "junk\n";
  EXPECT_EQ(parse_tdv(text, "f.tdv", 20).errors.size(), 20u);
}

TEST(Tdv, MissingFileIsAnErrorNamingIt) {
  const TdvParse result = read_tdv_file("/nonexistent/x.tdv");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].to_string(), "/nonexistent/x.tdv: cannot open (No such file or directory)");
}

// A file in a fresh temporary directory, removed with it.
class TdvFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tdsim-tdv-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(TdvFileTest, ADirectoryIsNamedAsOne) {
  const TdvValidation result = validate_tdv_file(dir_.string());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].to_string(), dir_.string() + ": is a directory, not a .tdv file");
}

TEST_F(TdvFileTest, AUtf8ByteOrderMarkIsSkipped) {
  const std::string path = write("bom.tdv", "\xef\xbb\xbf" + kHeader + case_line());
  const TdvValidation result = validate_tdv_file(path);
  EXPECT_TRUE(result.ok()) << result.errors.front().to_string();
  EXPECT_EQ(result.case_count, 1u);
  EXPECT_TRUE(parse("\xef\xbb\xbf" + kHeader + case_line()).ok());
  // Only at the very start: elsewhere it is a stray field.
  EXPECT_FALSE(parse(kHeader + "\xef\xbb\xbf" + case_line()).ok());
}

TEST_F(TdvFileTest, StreamingFindsDuplicatesInLineOrderAmongOtherErrors) {
  const std::string text = kHeader + case_line("", "a") + "junk\n" + case_line("", "b") + case_line("", "a") +
                           case_line("", "b") + "junk\n";
  const std::string path = write("dup.tdv", text);
  const TdvValidation streamed = validate_tdv_file(path);
  const TdvParse in_memory = parse(text);
  ASSERT_EQ(streamed.errors.size(), 4u);
  ASSERT_EQ(in_memory.errors.size(), 4u);
  const int lines[] = {3, 5, 6, 7};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(streamed.errors[i].line, lines[i]);
    EXPECT_EQ(streamed.errors[i].to_string(), in_memory.errors[i].to_string().replace(0, 5, path));
  }
  EXPECT_EQ(streamed.errors[1].message, "duplicate case name 'a'");
}

TEST_F(TdvFileTest, ReaderStreamsTheSameCasesAsTheWholeFileParser) {
  std::string text = kHeader + "# comment\n";
  for (int i = 0; i < 100; ++i) text += case_line("", "c" + std::to_string(i));
  const std::string path = write("many.tdv", text);
  const TdvValidation validation = validate_tdv_file(path);
  ASSERT_TRUE(validation.ok());
  EXPECT_EQ(validation.case_count, 100u);
  const TdvParse whole = parse(text);
  TdvReader reader(path);
  TdvCase c;
  size_t n = 0;
  while (reader.next(c)) {
    ASSERT_LT(n, whole.file.cases.size());
    EXPECT_EQ(format_case(c), format_case(whole.file.cases[n]));
    EXPECT_EQ(c.line, whole.file.cases[n].line);
    ++n;
  }
  EXPECT_EQ(n, 100u);
}

TEST(Tdv, MemoryIsPlacedAtTheNodeAddress) {
  // base = 0x10 (x256 = 0x1000), ptr unit 3 (x64 = 0xc0).
  const std::string line = "name=m desc=00000010,80000000,0000003f,89000000 op=bvh ptr=1d " + kRay + " mem=" +
                           std::string(126, '0') + "ab expect=none\n";
  const TdvParse result = parse(kHeader + line);
  ASSERT_TRUE(result.ok());
  const TdvCase& c = result.file.cases[0];
  EXPECT_EQ(c.mem_address(), 0x10c0u);
  uint8_t byte = 0;
  c.memory().read(0x10c0 + 63, &byte, 1);
  EXPECT_EQ(byte, 0xab);
}

TEST(Tdv, FormatThenParseRoundTrips) {
  std::string text = kHeader + case_line() + case_line(" a16=0 exec=0 mem=" + std::string(256, 'c'), "c1");
  text += "name=c2 " + kDesc + " op=bvh64 ptr=fedcba9876543210 a16=1 " +
          "ray=7f800000,00000000,00000000,00000000,00003c00,3c000000,7c007c00 expect=01234567,89abcdef,0,0\n";
  // c2 has a malformed expect on purpose: drop it and keep the good ones.
  TdvParse first = parse(text);
  ASSERT_EQ(first.errors.size(), 1u);
  ASSERT_EQ(first.file.cases.size(), 2u);
  const std::string formatted = format_tdv(first.file.cases, {"round trip"});
  const TdvParse second = parse(formatted);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second.file.cases.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(format_case(second.file.cases[i]), format_case(first.file.cases[i]));
    EXPECT_EQ(second.file.cases[i].mem, first.file.cases[i].mem);
  }
  EXPECT_FALSE(second.file.cases[1].lane.exec);
}

}  // namespace
}  // namespace td::tb

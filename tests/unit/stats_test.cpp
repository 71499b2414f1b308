// Statistics: counters, histogram buckets, the registry's rules and its
// three reports (JSON must parse, CSV must quote, the table must line up).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/sim/stats.h"

namespace td::sim {
namespace {

// A minimal strict JSON parser (RFC 8259 grammar), enough to prove a report
// is valid JSON and to read values back. Numbers are kept as their text so
// integer exactness can be checked.
struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  std::string text;  // number text, string contents or "true"/"false"
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json& at(const std::string& key) const {
    for (const auto& [name, value] : members) {
      if (name == key) return value;
    }
    throw std::out_of_range("no JSON member " + key);
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : text_(text) {}

  // Throws std::runtime_error at the first byte that breaks the grammar.
  Json parse_document() {
    Json value = parse_value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' ||
                                   text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool take_word(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  Json parse_value() {
    skip_space();
    Json value;
    const char c = peek();
    if (c == '{') return parse_object();
    if (c == '[') return parse_array();
    if (c == '"') {
      value.type = Json::Type::kString;
      value.text = parse_string();
    } else if (take_word("null")) {
      value.type = Json::Type::kNull;
    } else if (take_word("true") || take_word("false")) {
      value.type = Json::Type::kBool;
    } else {
      value.type = Json::Type::kNumber;
      value.text = parse_number();
    }
    return value;
  }

  Json parse_object() {
    Json value;
    value.type = Json::Type::kObject;
    expect('{');
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return value;
    }
    while (true) {
      skip_space();
      std::string key = parse_string();
      skip_space();
      expect(':');
      value.members.emplace_back(std::move(key), parse_value());
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return value;
      }
      expect(',');
    }
  }

  Json parse_array() {
    Json value;
    value.type = Json::Type::kArray;
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return value;
    }
    while (true) {
      value.items.push_back(parse_value());
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return value;
      }
      expect(',');
    }
  }

  static void append_utf8(unsigned long code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  // Returns the decoded contents as UTF-8.
  std::string parse_string() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) fail("short \\u escape");
          const unsigned long code = std::stoul(text_.substr(pos_, 4), nullptr, 16);
          if (code >= 0xd800 && code <= 0xdfff) fail("surrogate \\u escape (not needed by these tests)");
          append_utf8(code, out);
          pos_ += 4;
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  std::string parse_number() {
    const std::size_t begin = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    } else {
      fail("bad value");
    }
    if (peek() == '.') {
      ++pos_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("digit expected after '.'");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("digit expected in exponent");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    return text_.substr(begin, pos_ - begin);
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

Json parse_json(const std::string& text) { return JsonParser(text).parse_document(); }

// RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(row.empty() && field.empty()) << "last line not terminated";
  return rows;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', begin)) {
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  EXPECT_EQ(begin, text.size()) << "last line not terminated";
  return lines;
}

TEST(StatsCounter, AddsIncrementsAndResets) {
  Counter counter;
  EXPECT_EQ(counter.value(), 0u);
  ++counter;
  counter.add();
  counter.add(40);
  EXPECT_EQ(counter.value(), 42u);
  counter.reset();
  EXPECT_EQ(counter.value(), 0u);
}

TEST(Histogram, ValueOnABoundCountsInTheBucketThatBoundOpens) {
  Histogram h({10, 20, 30});
  ASSERT_EQ(h.buckets().size(), 4u);
  for (const uint64_t v : {0u, 9u}) h.sample(v);    // underflow
  for (const uint64_t v : {10u, 19u}) h.sample(v);  // [10,20)
  h.sample(20);                                     // [20,30)
  for (const uint64_t v : {30u, 1000u}) h.sample(v);  // overflow
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{2, 2, 1, 2}));
  EXPECT_EQ(h.count(), 7u);
  EXPECT_EQ(h.sum(), 0u + 9 + 10 + 19 + 20 + 30 + 1000);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 1000u);
  EXPECT_DOUBLE_EQ(h.mean(), 1088.0 / 7.0);
}

// Power-of-two bounds take a bit-width shortcut: it must put every value in
// the bucket the general rule (number of bounds <= value) gives.
TEST(Histogram, PowerOfTwoBoundsBucketLikeAnyOtherBounds) {
  for (const uint64_t limit : {uint64_t{1}, uint64_t{64}, uint64_t{1} << 20, UINT64_MAX}) {
    const std::vector<uint64_t> bounds = power_of_two_bounds(limit);
    std::vector<uint64_t> values = {0, 1, 2, 3, 4, 5, 7, 8, 1000, limit, UINT64_MAX};
    for (const uint64_t b : bounds) values.insert(values.end(), {b - 1, b, b + 1});
    for (const uint64_t v : values) {
      Histogram h(bounds);
      h.sample(v);
      const auto expected = static_cast<size_t>(std::count_if(bounds.begin(), bounds.end(),
                                                              [v](uint64_t bound) { return bound <= v; }));
      ASSERT_EQ(h.buckets()[expected], 1u) << "value " << v << " with bounds up to " << limit;
    }
  }
  // Bounds that are not 1, 2, 4, ... take the general path.
  Histogram shifted({2, 4, 8});
  shifted.sample(3);
  EXPECT_EQ(shifted.buckets(), (std::vector<uint64_t>{0, 1, 0, 0}));
}

TEST(Histogram, LargestValueGoesToOverflow) {
  Histogram h({1});
  h.sample(UINT64_MAX);
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(h.max(), UINT64_MAX);
}

TEST(Histogram, EmptyHistogramReportsZeros) {
  const Histogram h({4, 8});
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
}

TEST(Histogram, ResetClearsBucketsAndExtremes) {
  Histogram h({4, 8});
  h.sample(5);
  h.sample(100);
  h.reset();
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.sum(), 0u);
  h.sample(6);
  EXPECT_EQ(h.min(), 6u);  // the old minimum and maximum are forgotten
  EXPECT_EQ(h.max(), 6u);
}

TEST(Histogram, BoundsMustStrictlyIncrease) {
  EXPECT_THROW(Histogram({4, 4}), std::invalid_argument);
  EXPECT_THROW(Histogram({8, 4}), std::invalid_argument);
  EXPECT_NO_THROW(Histogram({}));  // a single bucket holding every sample
}

TEST(Histogram, PowerOfTwoBoundsStopAtTheLimit) {
  EXPECT_TRUE(power_of_two_bounds(0).empty());
  EXPECT_EQ(power_of_two_bounds(1), (std::vector<uint64_t>{1}));
  EXPECT_EQ(power_of_two_bounds(1000), (std::vector<uint64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}));
  EXPECT_EQ(power_of_two_bounds(1024).back(), 1024u);
  const std::vector<uint64_t> all = power_of_two_bounds(UINT64_MAX);
  ASSERT_EQ(all.size(), 64u);
  EXPECT_EQ(all.back(), uint64_t{1} << 63);
}

TEST(StatsRegistry, NameRegisteredTwiceThrowsLogicError) {
  StatsRegistry stats;
  Counter& first = stats.counter("a.hits", "hits", "first");
  EXPECT_THROW(stats.counter("a.hits", "hits", "again"), std::logic_error);
  EXPECT_THROW(stats.histogram("a.hits", "cycles", "again", {1}), std::logic_error);
  EXPECT_THROW(stats.formula("a.hits", "ratio", "again", [] { return 0.0; }), std::logic_error);
  first.add(3);
  EXPECT_EQ(stats.value("a.hits"), 3u);  // the first registration is kept
  EXPECT_EQ(split_lines(stats.to_csv()).size(), 2u);
}

TEST(StatsRegistry, ValueLooksUpCountersOnly) {
  StatsRegistry stats;
  stats.counter("c", "x", "");
  stats.histogram("h", "x", "", {1});
  EXPECT_EQ(stats.value("c"), 0u);
  EXPECT_THROW(stats.value("missing"), std::out_of_range);
  EXPECT_THROW(stats.value("h"), std::out_of_range);
}

TEST(StatsRegistry, ReferencesStayValidAsTheRegistryGrows) {
  StatsRegistry stats;
  Counter& first = stats.counter("c0", "x", "");
  Histogram& hist = stats.histogram("h0", "x", "", {2});
  for (int i = 1; i < 2000; ++i) {
    stats.counter("c" + std::to_string(i), "x", "");
    stats.histogram("h" + std::to_string(i), "x", "", {2});
  }
  first.add(7);
  hist.sample(5);
  EXPECT_EQ(stats.value("c0"), 7u);
  EXPECT_NE(stats.to_csv().find("\"h0.bucket[2,inf)\",samples,1,"), std::string::npos);
}

TEST(StatsRegistry, ResetZeroesCountersAndHistogramsAndFormulasRecompute) {
  StatsRegistry stats;
  Counter& hits = stats.counter("hits", "hits", "");
  Counter& total = stats.counter("total", "requests", "");
  Histogram& latency = stats.histogram("latency", "cycles", "", {10});
  stats.formula("hit_rate", "ratio", "", [&] { return static_cast<double>(hits.value()) / static_cast<double>(total.value()); });
  hits.add(1);
  total.add(4);
  latency.sample(3);
  EXPECT_EQ(parse_json(stats.to_json()).at("stats").at("hit_rate").at("value").text, "0.25");
  stats.reset();
  EXPECT_EQ(stats.value("hits"), 0u);
  EXPECT_EQ(stats.value("total"), 0u);
  EXPECT_EQ(latency.count(), 0u);
  EXPECT_EQ(parse_json(stats.to_json()).at("stats").at("hit_rate").at("value").type, Json::Type::kNull);
}

TEST(StatsRegistry, NullFormulaFunctionIsRejected) {
  StatsRegistry stats;
  EXPECT_THROW(stats.formula("f", "x", "", std::function<double()>()), std::invalid_argument);
}

TEST(StatsJson, ReportIsValidJsonInRegistrationOrderWithExactValues) {
  StatsRegistry stats;
  stats.counter("chip.big", "bytes", "largest counter").add(UINT64_MAX);
  Histogram& latency = stats.histogram("chip.latency", "cycles", "request latency", {1, 2, 4});
  stats.formula("chip.tenth", "ratio", "shortest round-trip double", [] { return 0.1; });
  stats.counter("chip.odd \"name\"", "a\\b", "line\nbreak\ttab\x01 control").add(1);
  for (const uint64_t v : {0u, 1u, 3u, 9u}) latency.sample(v);

  const std::string text = stats.to_json();
  Json doc;
  ASSERT_NO_THROW(doc = parse_json(text)) << text;
  const Json& all = doc.at("stats");
  ASSERT_EQ(all.members.size(), 4u);
  EXPECT_EQ(all.members[0].first, "chip.big");
  EXPECT_EQ(all.members[3].first, "chip.odd \"name\"");  // escapes decode back to the original

  const Json& big = all.at("chip.big");
  EXPECT_EQ(big.at("unit").text, "bytes");
  EXPECT_EQ(big.at("description").text, "largest counter");
  EXPECT_EQ(big.at("value").text, "18446744073709551615");  // exact, not via double

  const Json& odd = all.at("chip.odd \"name\"");
  EXPECT_EQ(odd.at("unit").text, "a\\b");
  EXPECT_EQ(odd.at("description").text, "line\nbreak\ttab\x01 control");

  EXPECT_EQ(all.at("chip.tenth").at("value").text, "0.1");

  const Json& h = all.at("chip.latency").at("value");
  EXPECT_EQ(h.at("count").text, "4");
  EXPECT_EQ(h.at("sum").text, "13");
  EXPECT_EQ(h.at("min").text, "0");
  EXPECT_EQ(h.at("max").text, "9");
  EXPECT_EQ(std::stod(h.at("mean").text), 3.25);
  ASSERT_EQ(h.at("bounds").items.size(), 3u);
  EXPECT_EQ(h.at("bounds").items[2].text, "4");
  ASSERT_EQ(h.at("buckets").items.size(), 4u);
  std::vector<std::string> buckets;
  for (const Json& b : h.at("buckets").items) buckets.push_back(b.text);
  EXPECT_EQ(buckets, (std::vector<std::string>{"1", "1", "1", "1"}));
}

TEST(StatsJson, NonFiniteFormulaIsNull) {
  StatsRegistry stats;
  stats.formula("nan", "ratio", "0/0", [] { return std::numeric_limits<double>::quiet_NaN(); });
  stats.formula("inf", "ratio", "1/0", [] { return std::numeric_limits<double>::infinity(); });
  stats.formula("ninf", "ratio", "-1/0", [] { return -std::numeric_limits<double>::infinity(); });
  const std::string text = stats.to_json();
  Json doc;
  ASSERT_NO_THROW(doc = parse_json(text)) << text;
  for (const char* name : {"nan", "inf", "ninf"}) {
    EXPECT_EQ(doc.at("stats").at(name).at("value").type, Json::Type::kNull) << name;
  }
}

TEST(StatsJson, TextIsUtf8WithInvalidBytesReplaced) {
  StatsRegistry stats;
  stats.counter("lat", "\xc2\xb5s", "bad\xff\xe0\x80" "end");  // "µs"; 0xff, a truncated 3-byte form, a stray 0x80
  const std::string text = stats.to_json();
  EXPECT_NE(text.find("\"\xc2\xb5s\""), std::string::npos) << "valid UTF-8 kept as is";
  Json doc;
  ASSERT_NO_THROW(doc = parse_json(text)) << text;
  const std::string replacement = "\xef\xbf\xbd";  // U+FFFD
  EXPECT_EQ(doc.at("stats").at("lat").at("description").text, "bad" + replacement + replacement + replacement + "end");
}

TEST(StatsJson, EmptyRegistryIsValidJson) {
  const StatsRegistry stats;
  Json doc;
  ASSERT_NO_THROW(doc = parse_json(stats.to_json()));
  EXPECT_EQ(doc.at("stats").type, Json::Type::kObject);
  EXPECT_TRUE(doc.at("stats").members.empty());
}

TEST(StatsCsv, FieldsWithCommaQuoteOrLineBreakAreQuoted) {
  StatsRegistry stats;
  stats.counter("plain", "hits", "no quoting needed").add(5);
  stats.counter("with,comma", "x\"y", "says \"hi\", twice\nand again").add(6);
  const std::string text = stats.to_csv();
  EXPECT_NE(text.find("plain,hits,5,no quoting needed\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"with,comma\",\"x\"\"y\",6,\"says \"\"hi\"\", twice\nand again\"\n"), std::string::npos)
      << text;
  const auto rows = parse_csv(text);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "unit", "value", "description"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"with,comma", "x\"y", "6", "says \"hi\", twice\nand again"}));
}

TEST(StatsCsv, HistogramExpandsToSummaryAndBucketRows) {
  StatsRegistry stats;
  Histogram& h = stats.histogram("lat", "cycles", "latency", {2, 8});
  for (const uint64_t v : {1u, 2u, 7u, 8u}) h.sample(v);
  stats.formula("broken", "ratio", "", [] { return std::nan(""); });
  const auto rows = parse_csv(stats.to_csv());
  std::map<std::string, std::vector<std::string>> by_name;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 4u);
    by_name[row[0]] = row;
  }
  EXPECT_EQ(by_name.at("lat.count")[2], "4");
  EXPECT_EQ(by_name.at("lat.mean")[2], "4.5");
  EXPECT_EQ(by_name.at("lat.mean")[1], "cycles");
  EXPECT_EQ(by_name.at("lat.min")[2], "1");
  EXPECT_EQ(by_name.at("lat.max")[2], "8");
  EXPECT_EQ(by_name.at("lat.bucket[0,2)")[2], "1");
  EXPECT_EQ(by_name.at("lat.bucket[2,8)")[2], "2");
  EXPECT_EQ(by_name.at("lat.bucket[8,inf)")[2], "1");
  EXPECT_EQ(by_name.at("broken")[2], "");  // an empty cell, not "nan"
}

TEST(StatsTable, ColumnsLineUp) {
  StatsRegistry stats;
  stats.counter("a", "hits", "short name").add(1234567);
  stats.counter("chip.wgp3.td1.box_tests", "tests", "long name").add(7);
  stats.formula("chip.rate", "tests/cycle", "a rate", [] { return 0.5; });
  stats.formula("chip.nan", "ratio", "no value", [] { return std::nan(""); });
  const std::vector<std::string> lines = split_lines(stats.to_table());
  ASSERT_EQ(lines.size(), 4u);
  const std::size_t hash = lines[0].find("  # ");
  ASSERT_NE(hash, std::string::npos);
  const std::size_t value_end = lines[0].find("1234567") + 7;
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find("  # "), hash) << line;  // descriptions start in one column
    EXPECT_TRUE(line[value_end - 1] != ' ' && line[value_end] == ' ') << line;  // numbers right-aligned
  }
  EXPECT_EQ(lines[1].rfind("chip.wgp3.td1.box_tests", 0), 0u);
  EXPECT_NE(lines[2].find(" 0.5  tests/cycle  # a rate"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find(" n/a  ratio"), std::string::npos) << lines[3];
}

TEST(StatsTable, NoTrailingBlanksWithoutDescription) {
  StatsRegistry stats;
  stats.counter("x", "", "").add(1);
  EXPECT_EQ(stats.to_table(), "x  1\n");
}

TEST(StatsGroup, PrefixesNestIntoFullNames) {
  StatsRegistry stats;
  const StatGroup chip(stats, "chip");
  const StatGroup td = chip.child("wgp3").child("td1");
  EXPECT_EQ(td.prefix(), "chip.wgp3.td1");
  EXPECT_EQ(&td.registry(), &stats);
  Counter& box_tests = td.counter("box_tests", "tests", "ray/box tests performed");
  td.histogram("latency", "cycles", "", {4}).sample(5);
  td.formula("twice", "tests", "", [&] { return 2.0 * static_cast<double>(box_tests.value()); });
  box_tests.add(3);
  EXPECT_EQ(stats.value("chip.wgp3.td1.box_tests"), 3u);
  const Json doc = parse_json(stats.to_json());
  EXPECT_EQ(doc.at("stats").at("chip.wgp3.td1.latency").at("value").at("count").text, "1");
  EXPECT_EQ(doc.at("stats").at("chip.wgp3.td1.twice").at("value").text, "6");
  EXPECT_THROW(chip.child("wgp3").child("td1").counter("box_tests", "tests", ""), std::logic_error);
}

// A block of counters the registry owns: listed in the order they were
// registered (not their order in the struct), reset and looked up like any
// counter, and their addresses never move however many blocks follow.
struct TwoCounters {
  explicit TwoCounters(const StatGroup& group) {
    group.counter_in("first", "x", "registered first", first);
    group.counter_in("second", "x", "registered second", second);
  }
  Counter second;
  Counter first;
};

TEST(StatsRegistry, BlocksAreOwnedListedInRegistrationOrderAndReset) {
  StatsRegistry stats;
  TwoCounters& block = stats.block<TwoCounters>(StatGroup(stats, "td0"));
  stats.counter("after", "x", "");
  for (int i = 1; i < 200; ++i) stats.block<TwoCounters>(StatGroup(stats, "td" + std::to_string(i)));
  block.first.add(5);
  ++block.second;
  EXPECT_EQ(stats.value("td0.first"), 5u);
  EXPECT_EQ(stats.value("td0.second"), 1u);
  const std::string csv = stats.to_csv();
  EXPECT_LT(csv.find("td0.first"), csv.find("td0.second"));
  EXPECT_LT(csv.find("td0.second"), csv.find("after"));
  EXPECT_THROW(stats.block<TwoCounters>(StatGroup(stats, "td0")), std::logic_error);
  stats.reset();
  EXPECT_EQ(stats.value("td0.first"), 0u);
  EXPECT_EQ(block.second.value(), 0u);
}

}  // namespace
}  // namespace td::sim

// JsonWriter: nesting, commas, escaping and misuse caught.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "model/sim/json_writer.h"

namespace td::sim {
namespace {

TEST(JsonWriter, NestsObjectsAndArraysWithCommasAndIndentation) {
  JsonWriter json;
  json.begin_object();
  json.key("name").value("a \"quoted\" name");
  json.key("cycles").value(uint64_t{16440});
  json.key("rates").begin_array().value(1.5).value(std::nan("")).end_array();
  json.key("empty").begin_object().end_object();
  json.key("ok").value(true);
  json.end_object();
  EXPECT_EQ(json.text(),
            "{\n"
            "  \"name\": \"a \\\"quoted\\\" name\",\n"
            "  \"cycles\": 16440,\n"
            "  \"rates\": [\n"
            "    1.5,\n"
            "    null\n"
            "  ],\n"
            "  \"empty\": {},\n"
            "  \"ok\": true\n"
            "}\n");
}

TEST(JsonWriter, InfinityIsNullAndNegativeIntegersKeepTheirSign) {
  JsonWriter json;
  json.begin_array().value(std::numeric_limits<double>::infinity()).value(int64_t{-3}).end_array();
  EXPECT_EQ(json.text(), "[\n  null,\n  -3\n]\n");
}

TEST(JsonWriter, MisuseIsALogicError) {
  JsonWriter unclosed;
  unclosed.begin_object();
  EXPECT_THROW(unclosed.text(), std::logic_error);
  JsonWriter keyless;
  keyless.begin_object();
  EXPECT_THROW(keyless.value(1.0), std::logic_error);
  JsonWriter stray;
  EXPECT_THROW(stray.key("x"), std::logic_error);
  JsonWriter unbalanced;
  unbalanced.begin_array();
  EXPECT_THROW(unbalanced.end_object(), std::logic_error);
}

}  // namespace
}  // namespace td::sim

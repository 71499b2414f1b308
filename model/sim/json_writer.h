// json_writer.h — the one way reports write JSON: a writer that tracks
// nesting and commas, so a report is a sequence of key/value calls and can
// never come out malformed. Strings are escaped and numbers that JSON cannot
// hold (NaN, infinities) written as null, by json.h's rules.
//
//   JsonWriter json;
//   json.begin_object();
//   json.key("cycles").value(uint64_t{16440});
//   json.key("rates").begin_array(); ... json.end_array();
//   json.end_object();
//   std::string text = json.text();  // two-space indented, newline at the end
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace td::sim {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Inside an object: the next value's key.
  JsonWriter& key(const std::string& name);
  JsonWriter& value(const std::string& text);
  JsonWriter& value(const char* text) { return value(std::string(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint32_t number) { return value(uint64_t{number}); }
  JsonWriter& value(int number) { return value(int64_t{number}); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // Already-formatted JSON (e.g. a stats registry's to_json()), inserted as one value.
  JsonWriter& raw(const std::string& json);

  // The document; std::logic_error if an object or array is still open.
  std::string text() const;

 private:
  void before_value();
  void newline();

  std::string out_;
  struct Level {
    bool object = false;
    bool empty = true;
  };
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace td::sim

#include "model/sim/json_writer.h"

#include <fmt/format.h>

#include <stdexcept>

#include "model/sim/json.h"

namespace td::sim {

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * levels_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) {
    if (!out_.empty()) throw std::logic_error("JsonWriter: a second top-level value");
    return;
  }
  if (levels_.back().object) throw std::logic_error("JsonWriter: a value in an object needs a key");
  if (!levels_.back().empty) out_ += ',';
  levels_.back().empty = false;
  newline();
}

JsonWriter& JsonWriter::key(const std::string& name) {
  if (levels_.empty() || !levels_.back().object || after_key_)
    throw std::logic_error("JsonWriter: key '" + name + "' outside an object or after another key");
  if (!levels_.back().empty) out_ += ',';
  levels_.back().empty = false;
  newline();
  out_ += json_string(name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  levels_.push_back({true, true});
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  levels_.push_back({false, true});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  if (levels_.empty() || !levels_.back().object || after_key_) throw std::logic_error("JsonWriter: unbalanced }");
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) newline();
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  if (levels_.empty() || levels_.back().object) throw std::logic_error("JsonWriter: unbalanced ]");
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) newline();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& text) {
  before_value();
  out_ += json_string(text);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  out_ += json_number(number);
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t number) {
  before_value();
  out_ += fmt::format("{}", number);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
  before_value();
  out_ += fmt::format("{}", number);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(const std::string& json) {
  before_value();
  std::string trimmed = json;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  out_ += trimmed;
  return *this;
}

std::string JsonWriter::text() const {
  if (!levels_.empty() || after_key_) throw std::logic_error("JsonWriter: document not closed");
  return out_ + "\n";
}

}  // namespace td::sim

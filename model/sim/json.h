// json.h — the pieces of JSON text our reports write by hand.
#pragma once

#include <string>

namespace td::sim {

// A JSON string literal: quotes and backslashes escaped, control characters
// as \uXXXX, bytes that are not UTF-8 replaced by U+FFFD.
std::string json_string(const std::string& text);
// A JSON number; NaN and infinities (which JSON cannot hold) become null.
std::string json_number(double value);

}  // namespace td::sim

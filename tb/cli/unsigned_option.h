// unsigned_option.h — whole-number flags as a user means them. CLI11 reads
// "-1" into an unsigned option as 2^64-1 and saturates values past 2^64;
// this validator sees the text first and accepts only plain decimal digits
// whose value lies in [min, max].
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace td::tb {

inline CLI::Validator unsigned_in(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        uint64_t value = 0;
        bool overflow = false;
        for (char c : text) {
          if (c < '0' || c > '9') return fmt::format("expected a whole number {}..{}, got '{}'", min, max, text);
          const uint64_t digit = static_cast<uint64_t>(c - '0');
          overflow = overflow || value > (UINT64_MAX - digit) / 10;
          if (!overflow) value = value * 10 + digit;
        }
        if (text.empty() || overflow || value < min || value > max)
          return fmt::format("expected a whole number {}..{}, got '{}'", min, max, text);
        return {};
      },
      fmt::format("UINT in [{} - {}]", min, max));
}

}  // namespace td::tb

// Fuzz target for the .tdv reader: any byte string must parse to cases or to
// errors — never crash, hang or read out of bounds — and whatever parses must
// survive a format/parse round trip unchanged and run through the reference.
// The streaming reader (validate_tdv_file, TdvReader) must agree with the
// in-memory parser on the same bytes: same errors, same cases.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "model/ref/intersect.h"
#include "tb/vectors/tdv.h"

namespace {

// The same bytes through the streaming reader, from a file.
void expect_streaming_agrees(std::string_view text, const td::tb::TdvParse& in_memory) {
  static const std::string path = "/tmp/tdsim-tdv-fuzz." + std::to_string(getpid()) + ".tdv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const td::tb::TdvParse streamed = td::tb::read_tdv_file(path);
  std::remove(path.c_str());
  if (streamed.errors.size() != in_memory.errors.size()) std::abort();
  for (size_t i = 0; i < streamed.errors.size(); ++i)
    if (streamed.errors[i].line != in_memory.errors[i].line ||
        streamed.errors[i].message != in_memory.errors[i].message)
      std::abort();
  if (streamed.file.cases.size() != (in_memory.ok() ? in_memory.file.cases.size() : 0)) std::abort();
  for (size_t i = 0; i < streamed.file.cases.size(); ++i)
    if (td::tb::format_case(streamed.file.cases[i]) != td::tb::format_case(in_memory.file.cases[i])) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const td::tb::TdvParse first = td::tb::parse_tdv(text, "fuzz.tdv");
  for (const td::tb::TdvError& error : first.errors) {
    if (error.to_string().empty()) std::abort();
  }
  expect_streaming_agrees(text, first);
  if (!first.ok()) return 0;

  const std::string formatted = td::tb::format_tdv(first.file.cases, {});
  const td::tb::TdvParse second = td::tb::parse_tdv(formatted, "roundtrip.tdv");
  if (!second.ok() || second.file.cases.size() != first.file.cases.size()) std::abort();
  for (size_t i = 0; i < first.file.cases.size(); ++i) {
    const td::tb::TdvCase& c = first.file.cases[i];
    if (td::tb::format_case(second.file.cases[i]) != td::tb::format_case(c)) std::abort();
    // Any parsed case is a legal input of the instruction.
    (void)td::ref::intersect(td::Descriptor::unpack(c.desc), c.lane, c.memory());
  }
  return 0;
}

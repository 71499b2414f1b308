// Fuzz target for the .tdv reader: any byte string must parse to cases or to
// errors — never crash, hang or read out of bounds — and whatever parses must
// survive a format/parse round trip unchanged and run through the reference.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/ref/intersect.h"
#include "tb/tdv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const td::tb::TdvParse first = td::tb::parse_tdv(text, "fuzz.tdv");
  for (const td::tb::TdvError& error : first.errors) {
    if (error.to_string().empty()) std::abort();
  }
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

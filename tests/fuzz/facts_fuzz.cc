// libFuzzer target: a facts snapshot from a broken or hostile target parses or
// throws FactsError; any other exception or a crash is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "labgate/facts/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  try {
    (void)labgate::facts::parse_facts(json, "fuzz");
  } catch (const labgate::facts::FactsError&) {
    // The documented way to refuse input.
  }
  return 0;
}

// libFuzzer target: a built-in probe's JSON (or its "listening" line) parses or
// throws ProbeOutputError; any other exception or a crash is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "labgate/measure/probe_output.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  labgate::measure::ParseContext ctx;
  ctx.host = "a";
  ctx.peer = "b";
  try {
    (void)labgate::measure::parse_probe_output(text, ctx);
  } catch (const labgate::measure::ProbeOutputError&) {
  }
  try {
    (void)labgate::measure::parse_listening_line(text);
  } catch (const labgate::measure::ProbeOutputError&) {
  }
  return 0;
}

// libFuzzer target: iperf3 output parses to a Measurement or throws ParseError.
#include <cstddef>
#include <cstdint>

#include "tool_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return labgate::fuzz::fuzz_tool_output(
      [](const labgate::tools::ToolText& t, const labgate::tools::ParseOptions& o) {
        return labgate::tools::parse_iperf3(t, o);
      },
      data, size);
}

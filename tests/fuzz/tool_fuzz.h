// Shared body of the tool-output fuzz targets: the first byte picks the test
// kind the caller expects (or none), the rest is the tool's output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "labgate/tools/parsers.h"

namespace labgate::fuzz {

/// Runs `parse` on the input; only ParseError may come out of it.
template <typename Parse>
int fuzz_tool_output(Parse parse, const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  tools::ParseOptions options;
  // Values past the enum leave the kind unset (the common case: the output says).
  if (data[0] <= static_cast<std::uint8_t>(profile::TestKind::kJitter))
    options.kind = static_cast<profile::TestKind>(data[0]);
  std::string raw(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    (void)parse(tools::text_from_string("fuzz", std::move(raw)), options);
  } catch (const tools::ParseError& e) {
    // Messages quote the line; make sure quoting the named line works too.
    (void)e.what();
  }
  return 0;
}

}  // namespace labgate::fuzz

// Test helpers shared by the tools' tests: fixtures, expected errors, the "every
// prefix parses or fails cleanly" truncation check, and the lab pair's endpoint.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "labgate/tools/parsers.h"
#include "labgate/tools/tool_commands.h"
#include "labgate/tools/tool_text.h"

namespace labgate::tools::test_util {

/// The recorded tool outputs: tests/fixtures/tools/ in the source tree.
inline const std::string kToolFixtures = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/tools/";

/// tests/fixtures/tools/<tool>/<name> in the source tree.
inline std::string fixture(const std::string& tool, const std::string& name) {
  return kToolFixtures + tool + "/" + name;
}

/// ns of round trip from sockperf's printed microseconds and the doubling factor
/// (2 where it printed half a round trip), as the parser stores it.
inline double rtt(double us, double factor) { return std::round(us * factor * 1000); }

/// The test addresses and port of the commands' tests: server b, client a.
inline const Endpoint kPairEndpoint{"198.19.210.2", "198.19.210.1", 41000};

/// The text of tests/fixtures/tools/<tool>/<name>, as recorded (a missing or
/// empty file throws ParseError).
inline std::string fixture_text(const std::string& tool, const std::string& name) {
  return read_tool_file(fixture(tool, name)).raw;
}

/// The ParseError `parse` throws for `text` (a test failure when it throws none).
template <typename Parse>
ParseError parse_error(Parse parse, const std::string& origin, const std::string& text, ParseOptions o = {}) {
  try {
    parse(text_from_string(origin, text), o);
  } catch (const ParseError& e) {
    return e;
  }
  ADD_FAILURE() << "no ParseError for " << origin;
  return ParseError(origin, -1, "none");
}

/// Output cut anywhere must give a Measurement or a ParseError naming its origin, never a crash.
template <typename Parse>
void expect_every_prefix_parses_or_fails_cleanly(Parse parse, const std::string& text, std::size_t step) {
  for (std::size_t n = 0; n <= text.size(); n += step) {
    try {
      parse(text_from_string("prefix.txt", text.substr(0, n)), ParseOptions{});
    } catch (const ParseError& e) {
      EXPECT_EQ(e.origin(), "prefix.txt");
    }
  }
}

}  // namespace labgate::tools::test_util

// Test helpers shared by the tool parsers' tests: fixtures, expected errors, and
// the "every prefix parses or fails cleanly" truncation check.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "labgate/tools/parsers.h"

namespace labgate::tools::test_util {

/// tests/fixtures/tools/<tool>/<name> in the source tree.
inline std::string fixture(const std::string& tool, const std::string& name) {
  return std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/tools/" + tool + "/" + name;
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

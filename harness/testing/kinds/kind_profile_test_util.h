// Test support for the kinds' tests (harness/src/kinds/*_test.cc): three hosts
// with test addresses, and a profile of them plus the tests under test, loaded.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "labgate/gate/kinds.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"
#include "labgate/tools/tool_commands.h"

namespace labgate::kinds::test_util {

inline const std::string kThreeHosts = R"([lab]
name = "three"
[hosts.a]
address = "10.0.0.1"
test_address = "198.19.200.1"
[hosts.b]
address = "10.0.0.2"
test_address = "198.19.200.2"
[hosts.c]
address = "10.0.0.3"
test_address = "198.19.200.3"
)";

/// kThreeHosts followed by `tests` ([[test]] tables), loaded.
inline profile::LoadResult load_tests(const std::string& tests) {
  return profile::load_from_string(kThreeHosts + tests, "three.toml");
}

/// Every error of load_tests(tests), one per line ("" when it loads).
inline std::string errors_of(const std::string& tests) {
  std::string out;
  for (const auto& e : load_tests(tests).errors) out += e.str() + "\n";
  return out;
}

/// Every part of `expected` is among the errors of load_tests(tests).
inline void expect_errors(const std::string& tests, const std::vector<std::string>& expected) {
  const std::string errors = errors_of(tests);
  for (const std::string& part : expected) EXPECT_THAT(errors, ::testing::HasSubstr(part));
}

/// The client command `t`'s tool runs (from 198.19.200.1 to 198.19.200.2:5001),
/// its words joined by spaces: what a kind's test finds its tool's options in.
inline std::string tool_client_line(const profile::TestSpec& t) {
  const tools::ToolInvocation inv = tools::build_invocation(t, {"198.19.200.2", "198.19.200.1", 5001});
  std::string line;
  for (const std::string& w : inv.client_argv) line += (line.empty() ? "" : " ") + w;
  return line;
}

}  // namespace labgate::kinds::test_util

namespace labgate::kinds {
// What every kind's test names: the profile's enums and the helpers above.
using profile::Stat;
using profile::TestKind;
using profile::Tool;
using test_util::errors_of;
using test_util::expect_errors;
using test_util::load_tests;
using test_util::tool_client_line;
using ::testing::HasSubstr;
}  // namespace labgate::kinds

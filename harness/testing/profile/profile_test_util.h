// Test helpers shared by the profile loader's tests: where the source tree's
// profiles and fixtures are, and a LoadResult's errors as `labgate validate`
// prints them, so a test can match them with HasSubstr.
#pragma once

#include <string>

#include "labgate/profile/load.h"

namespace labgate::profile::test_util {

/// The source tree (profiles/ holds the example profiles), and its profile fixtures.
inline const std::string kSourceDir = LABGATE_SOURCE_DIR;
inline const std::string kProfileFixtures = kSourceDir + "/tests/fixtures/profiles/";

/// A lab of two hosts, a and b, each with a test address: a profile's head, for
/// tests that append a [[test]] to it.
inline const std::string kTwoHosts =
    "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"a\"\ntest_address = \"198.18.1.1\"\n"
    "[hosts.b]\naddress = \"b\"\ntest_address = \"198.18.1.2\"\n";

/// Every error of `r`, one a line (ProfileError::str()), or "" when it loaded.
inline std::string error_lines(const LoadResult& r) {
  std::string lines;
  for (const ProfileError& e : r.errors) lines += e.str() + "\n";
  return lines;
}

}  // namespace labgate::profile::test_util

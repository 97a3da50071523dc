// Values given on `labgate run`'s command line (the seed's `lowlatencytest
// [message size] [test time]`) that win over the profile for every test that has
// the parameter, and the record of what each one replaced.
#pragma once

#include <string>
#include <vector>

namespace labgate::profile {

/// One command-line override: `--duration 120s` is {"duration", "120s"}.
struct RunOverride {
  std::string parameter;  ///< "duration", "warmup" or "message_size" (the profile key)
  std::string value;      ///< as typed; validated like the profile value it replaces
};

/// What an override replaced in one [[test]].
struct ReplacedValue {
  std::string test;  ///< the [[test]]'s name (a sweep's name, before it is expanded)
  std::string was;   ///< "\"5s\" at lab.toml:40", "[64, 1024] (a sweep) at ...", "labgate's default 120s"
};

/// An override as applied: the tests it changed and what they had.
struct AppliedOverride {
  std::string parameter;
  std::string value;
  std::vector<ReplacedValue> replaced;  ///< in file order; empty: no test has the parameter
};

/// The parameters an override may set (profile keys; the flag is --message-size).
inline constexpr const char* kOverridableParameters[] = {"duration", "warmup", "message_size"};

/// "--message-size" for "message_size".
inline std::string override_flag(const std::string& parameter) {
  std::string f = "--" + parameter;
  for (char& c : f)
    if (c == '_') c = '-';
  return f;
}

/// One line for the console and log: "--duration 2s replaces the profile's value
/// in 5 tests: tcp_rr_64 (was "10s" at lab.toml:40), ..." or "... applies to no test".
inline std::string describe(const AppliedOverride& o) {
  std::string s = override_flag(o.parameter) + " " + o.value;
  if (o.replaced.empty()) return s + " applies to no test of this profile (none has a " + o.parameter + ")";
  s += " replaces the profile's value in " + std::to_string(o.replaced.size()) +
       (o.replaced.size() == 1 ? " test: " : " tests: ");
  for (std::size_t i = 0; i < o.replaced.size(); ++i)
    s += (i ? ", " : "") + o.replaced[i].test + " (was " + o.replaced[i].was + ")";
  return s;
}

}  // namespace labgate::profile

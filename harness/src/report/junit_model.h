// The run as JUnit suites and cases, before any XML flavour is chosen: shared by
// junit.xml (Jenkins) and junit-strict.xml (the strict Ant schema) so both files
// always name, count, time and judge the same cases.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::report::junit_detail {

enum class Outcome { kPass, kFailure, kError, kSkipped };

using Properties = std::vector<std::pair<std::string, std::string>>;

struct Case {
  std::string name;  ///< "b/sysctl/net.ipv4.tcp_sack", "tcp_rr_64/a->b"
  double time_s = 0;  ///< the record's measured duration
  std::optional<results::Clock::time_point> started;
  Outcome outcome = Outcome::kPass;
  std::string message;  ///< failure / error / skipped message attribute
  std::string type;     ///< failure / error type attribute
  std::string detail;   ///< element body
  Properties properties;
  std::string out;  ///< system-out
};

struct Suite {
  std::string name;  ///< "Latency" (the class)
  std::vector<Case> cases;
  int failures = 0, errors = 0, skipped = 0;
  /// When the suite started: the earliest start of its cases (the run's start
  /// when no case recorded one).
  results::Clock::time_point timestamp{};
  /// Measured time: first start to last end when every case has a start, else
  /// the sum of the cases' measured durations.
  double time_s = 0;
};

struct Document {
  /// What keeps two labs (or two pairs of a pool) apart: "lab-pair6".
  std::string identity;
  std::vector<Suite> suites;
  Properties run_properties;  ///< labgate.run_id, labgate.lab, ...
  std::string warnings;       ///< "warning: ..." lines for the suites' system-out
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time_s = 0;  ///< extent of all measured times (or their sum)
  std::string hostname;  ///< the hosts' management addresses, "198.18.0.2,198.18.0.6"
};

/// The lab (and, in a pool, the pair) a run's suites belong to. Jenkins files a
/// testcase under its classname "<identity>.<Suite>" (package = identity) and
/// merges <testsuite>s by name, so both carry it.
std::string identity_of(const results::RunResult& run);

Document document_of(const results::RunResult& run);

/// A number of seconds as JUnit writes it, "12.345".
std::string seconds(double s);

/// An XML attribute with its leading space, the value escaped: ` name="value"`.
std::string attr(const std::string& name, const std::string& value);

}  // namespace labgate::report::junit_detail

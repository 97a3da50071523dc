// `labgate compare RUN_A RUN_B`: per-test percentile deltas between two runs,
// and the regression rule behind --fail-on-regression (B slower than A by more
// than a threshold on a gated statistic).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::report {

struct CompareOptions {
  /// Figures shown per test, by figure name (report::known_figure_names): every
  /// kind's own figure by default. Which way is worse follows higher_is_better().
  /// Rows both runs lack are left out.
  std::vector<std::string> stats = {"p50",  "p99",     "p99_9",       "max",         "throughput", "loss",
                                    "dropped", "mtu_forward", "mtu_reverse", "iops", "failures"};
  /// Statistics a regression is judged on.
  std::vector<std::string> gated = {"p99"};
  /// Allowed slow-down as a fraction (0.10 for "10%"); nullopt = report only.
  std::optional<double> fail_on_regression;
};

struct StatDelta {
  std::string stat;
  std::optional<double> a, b;      ///< the judged figures, in `unit`
  std::string unit;                ///< the figures' unit ("ns", "bit/s", "bytes", ...)
  std::optional<double> slowdown;  ///< fraction, positive = B is worse; nullopt if A is 0 or missing
  bool gated = false;
  bool regression = false;
  /// Where each side's figure came from (report::figure_origin: "netperf's own
  /// p99 (tool)"), so a comparison says what it compared; empty if absent.
  std::string source_a, source_b;
};

/// One one-way figure of both runs (issue 24), each with its clock offset's
/// error bound: a change no larger than the two bounds together is within the
/// error (the figures cannot tell the runs apart), never a regression.
struct OneWayDelta {
  std::string stat;                        ///< the budget key: "one_way_p99_forward"
  std::string direction;                   ///< "a->b", as the runs named the hosts
  std::optional<double> a, b;              ///< ns; nullopt when that run did not report it
  std::optional<double> bound_a, bound_b;  ///< ns
  bool within_error = false;               ///< |B - A| <= bound_a + bound_b
  bool gated = false;                      ///< named in CompareOptions::gated
  bool regression = false;                 ///< gated, beyond the threshold and beyond the error
};

struct TestDelta {
  std::string key;  ///< "Latency.tcp_rr_64/a->b"
  std::string metric;
  std::vector<StatDelta> stats;
  bool only_in_a = false, only_in_b = false;
  /// Why the tail (issue 25): the ranked causes of B's outliers that A's do not
  /// have, and A's that B's do not, each "cause (N outliers)". A cause is its
  /// key without the pid ("tailhog on CPU 1 of host a"): a pid never repeats
  /// across runs. Empty unless both runs explained the test.
  std::vector<std::string> causes_appeared, causes_vanished;
  /// One-way figures per direction (labgate/measure/one_way.h's record), and
  /// why a run has none ("A: not reported: offset bound ..."); empty when
  /// neither run estimated one-way delay.
  std::vector<OneWayDelta> one_way;
  std::vector<std::string> one_way_why_not;
  bool regression() const;
};

struct Comparison {
  std::string run_a, run_b;
  std::vector<TestDelta> tests;  ///< A's order, then tests only B has
  /// A side measured on a system not known to conform (conformance no / not checked).
  std::vector<std::string> warnings;
  bool regression() const;
};

/// Compares every test of A with the test of B of the same suite, name and pair.
Comparison compare_runs(const results::RunResult& a, const results::RunResult& b, const CompareOptions& o);

/// The one-way rows of a test in both runs (either may be absent); threshold
/// and gated as in CompareOptions. In compare_one_way.cc.
void compare_one_way(const results::TestRecord* a, const results::TestRecord* b, const CompareOptions& o,
                     TestDelta& out);
/// Its lines for the table, each indented by `indent` spaces.
std::string one_way_rows(const TestDelta& t, std::size_t indent);

/// The comparison as a plain-text table for the console.
std::string comparison_table(const Comparison& c, const CompareOptions& o);

/// "10%", "10" (both ten percent) or "2.5%" -> a fraction; throws
/// std::invalid_argument for anything else or a negative value.
double parse_percent(const std::string& text);

}  // namespace labgate::report

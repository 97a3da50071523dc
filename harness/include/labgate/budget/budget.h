// Judging one Measurement against a test's budget: a verdict per bounded
// statistic (observed, limit, margin) and one overall verdict. Pure: no I/O,
// no clock, no logging, so every edge is a unit test.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"
#include "labgate/stats/figure.h"

namespace labgate::budget {

/// The verdict on one bound of the budget.
struct StatVerdict {
  profile::Stat stat = profile::Stat::kP50;
  std::string name;                ///< the profile's spelling, "p99_9"
  std::optional<double> observed;  ///< nullopt: the measurement cannot say
  double limit = 0;                ///< ns, count, bit/s or fraction (profile::unit_of)
  bool floor = false;              ///< min_throughput: observed must be >= limit
  /// Headroom in the stat's unit: limit - observed for a ceiling, observed - limit
  /// for a floor; negative when the budget is exceeded. nullopt when unobserved.
  std::optional<double> margin;
  std::optional<double> margin_pct;  ///< margin as % of the limit; nullopt when the limit is 0
  bool pass = false;                 ///< exactly at the limit passes
  std::string reason;                ///< why it failed; empty when it passed
  /// For max: the series interval where the run's max happened.
  std::optional<measure::Interval> worst_interval;
  /// One-way statistics: the offset's error bound (ns) around the figure and the
  /// direction ("a->b"); a one-way bound not judged says why in `reason`.
  std::optional<double> error_bound;
  std::string direction;
  profile::SourcePos pos;  ///< the bound in the profile
  std::string as_written;  ///< the profile's text of the limit ("140us")
};

struct BudgetResult {
  bool pass = true;                   ///< every bound holds (an empty budget holds)
  std::vector<StatVerdict> verdicts;  ///< in the budget's order
  int cpu = -1;                       ///< jitter: the CPU judged; -1 otherwise

  /// Every failed bound, one line each, with observed vs limit in human units and,
  /// for max, where in the run it happened. Empty when the budget holds.
  std::string failure_message() const;
};

/// Judges `m` against every bound. A statistic the measurement cannot give is a
/// failure with its reason, never a pass.
BudgetResult evaluate(const measure::Measurement& m, const std::vector<profile::Bound>& budget);
/// The same on figures the judge already decided (measure::judge_figures): the
/// verdict reads exactly the values every report shows.
BudgetResult evaluate(const measure::Measurement& m, const stats::FigureSet& figures,
                      const std::vector<profile::Bound>& budget);
/// The same with the run's one-way record (labgate/measure/one_way.h), which the
/// one-way statistics are judged on: not reported (or no record) fails the bound
/// with the record's reason, never skips it.
BudgetResult evaluate(const measure::Measurement& m, const stats::FigureSet& figures,
                      const std::vector<profile::Bound>& budget, const nlohmann::json& one_way);

/// A statistic's value in human units: "136.5us", "1.2ms", "941.5Mbit/s",
/// "0.1%", "3".
std::string format_value(profile::Stat s, double value);

}  // namespace labgate::budget

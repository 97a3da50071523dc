// Budget evaluation: Measurement + bounds -> verdicts, and the failure message.
#include "labgate/budget/budget.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "labgate/measure/figures.h"
#include "labgate/measure/one_way.h"
#include "labgate/util/units.h"

namespace labgate::budget {
namespace {

using profile::Stat;
using profile::StatUnit;

/// Why a statistic is missing, in words a user can act on.
std::string missing_reason(const measure::Measurement& m, Stat s, const std::string& name) {
  switch (s) {
    case Stat::kDropped:
      return "not measured: nothing was counted (no sent/received counters) and the tool reported no dropped "
             "count";
    case Stat::kMinThroughput:
      return "not measured: this measurement has no throughput";
    case Stat::kMaxLoss:
      return "not measured: this measurement has no loss figure";
    default:
      return m.histogram.count() == 0
                 ? "not measured: no samples (empty histogram) and the tool reported no " + name
                 : "not measured: " + name + " is not available";
  }
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

StatVerdict judge(const measure::Measurement& m, const stats::FigureSet& figures,
                  const nlohmann::json& one_way, const profile::Bound& b) {
  StatVerdict v;
  v.stat = b.stat;
  v.name = profile::to_string(b.stat);
  v.limit = b.limit;
  v.floor = profile::is_floor(b.stat);
  v.pos = b.pos;
  v.as_written = b.as_written;
  if (profile::is_one_way(b.stat)) {
    // The one-way record's figure, judged only within its error bound (one_way_max_error).
    const measure::OneWayFigure f = measure::one_way_figure(one_way, b.stat);
    v.error_bound = f.bound_ns;
    v.direction = f.direction;
    if (!f.why_not.empty()) {
      v.reason = "not judged: " + f.why_not;
      return v;
    }
    v.observed = f.value_ns;
  } else {
    v.observed = figures.value(measure::figure_name(b.stat));
  }
  if (b.stat == Stat::kMax) v.worst_interval = m.interval_of_max();
  if (!v.observed) {
    v.reason = missing_reason(m, b.stat, v.name);
    return v;
  }
  if (std::isnan(*v.observed)) {
    v.reason = "the observed value is not a number";
    return v;
  }
  v.margin = v.floor ? *v.observed - v.limit : v.limit - *v.observed;
  if (v.limit != 0) v.margin_pct = *v.margin / std::fabs(v.limit) * 100.0;
  v.pass = *v.margin >= 0;
  if (!v.pass) v.reason = v.floor ? "below the floor" : "exceeds the budget";
  return v;
}

std::string where(const StatVerdict& v) { return v.pos.line > 0 ? " [" + v.pos.str() + "]" : ""; }

std::string line_for(const StatVerdict& v) {
  const std::string name = v.direction.empty() ? v.name : v.name + " (" + v.direction + ")";
  if (!v.observed && profile::is_one_way(v.stat))
    return name + ": " + v.reason + "; a one-way budget that cannot be judged fails" + where(v);
  if (!v.observed) return v.name + ": " + v.reason + "; a missing statistic fails" + where(v);
  if (std::isnan(*v.observed)) return v.name + ": " + v.reason + where(v);
  // A one-way figure is the round trip split at an estimated offset: say how far off it may be.
  const std::string bound = v.error_bound ? " +- " + format_value(v.stat, *v.error_bound) : "";
  std::string s = name + " = " + format_value(v.stat, *v.observed) + bound +
                  (v.floor ? " is below the floor of " : " exceeds the budget of ") +
                  format_value(v.stat, v.limit) + " by " + format_value(v.stat, std::fabs(*v.margin));
  if (v.margin_pct) s += " (" + fixed(std::fabs(*v.margin_pct), 1) + "%)";
  s += where(v);
  if (v.worst_interval) {
    const measure::Interval& i = *v.worst_interval;
    s += "; the max happened in the interval " + fixed(i.start_s, 1) + "-" +
         fixed(i.start_s + i.length_s, 1) + " s after warm-up (p99 there " +
         format_value(Stat::kP99, static_cast<double>(i.p99_ns)) + ", " + std::to_string(i.count) +
         " samples)";
  }
  return s;
}

}  // namespace

std::string format_value(Stat s, double value) {
  switch (profile::unit_of(s)) {
    case StatUnit::kNanos:
      return units::format_duration(std::chrono::nanoseconds(std::llround(value)));
    case StatUnit::kBitsPerSec:
      return units::format_bit_rate(value);
    case StatUnit::kFraction: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.3g%%", value * 100.0);
      return buf;
    }
    case StatUnit::kCount:
      return fixed(value, 0);
  }
  return fixed(value, 3);
}

BudgetResult evaluate(const measure::Measurement& m, const std::vector<profile::Bound>& budget) {
  return evaluate(m, measure::judge_figures(m).figures, budget);
}

BudgetResult evaluate(const measure::Measurement& m, const stats::FigureSet& figures,
                      const std::vector<profile::Bound>& budget) {
  return evaluate(m, figures, budget, nlohmann::json());
}

BudgetResult evaluate(const measure::Measurement& m, const stats::FigureSet& figures,
                      const std::vector<profile::Bound>& budget, const nlohmann::json& one_way) {
  BudgetResult r;
  r.cpu = m.cpu;
  for (const profile::Bound& b : budget) {
    r.verdicts.push_back(judge(m, figures, one_way, b));
    if (!r.verdicts.back().pass) r.pass = false;
  }
  return r;
}

std::string BudgetResult::failure_message() const {
  std::string out;
  const std::string prefix = cpu >= 0 ? "cpu " + std::to_string(cpu) + ": " : "";
  for (const StatVerdict& v : verdicts) {
    if (v.pass) continue;
    if (!out.empty()) out += '\n';
    out += prefix + line_for(v);
  }
  return out;
}

}  // namespace labgate::budget

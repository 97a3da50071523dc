// compare's one-way rows (issue 24): each run's one-way figures per direction
// with their error bounds, read from the one-way record (never recomputed), and
// a change no larger than the two bounds together called within the error.
#include <algorithm>
#include <cmath>

#include "labgate/measure/one_way.h"
#include "labgate/report/compare.h"
#include "labgate/report/format.h"

namespace labgate::report {
namespace {

using profile::Stat;

constexpr Stat kOneWay[] = {Stat::kOneWayP50Forward, Stat::kOneWayP99Forward, Stat::kOneWayMaxForward,
                            Stat::kOneWayP50Reverse, Stat::kOneWayP99Reverse, Stat::kOneWayMaxReverse};

const nlohmann::json& record_of(const results::TestRecord* t) {
  static const nlohmann::json kNone;
  return t ? measure::one_way_of_record(t->measurement) : kNone;
}

std::string ns(double v) { return format_ns(v, Units::kAscii); }

std::string side(const char* run, const std::optional<double>& v, const std::optional<double>& bound) {
  if (!v) return std::string(run) + " -";
  return std::string(run) + " " + ns(*v) + (bound ? " +- " + ns(*bound) : "");
}

}  // namespace

void compare_one_way(const results::TestRecord* a, const results::TestRecord* b, const CompareOptions& o,
                     TestDelta& out) {
  const nlohmann::json &ra = record_of(a), &rb = record_of(b);
  if (ra.is_null() && rb.is_null()) return;
  for (const auto& [rec, run] : {std::pair{&ra, "A"}, std::pair{&rb, "B"}})
    if (rec->is_object() && !rec->value("reported", false))
      out.one_way_why_not.push_back(std::string(run) +
                                    ": not reported: " + rec->value("why_not", std::string("unknown")));
  for (Stat s : kOneWay) {
    const measure::OneWayFigure fa = measure::one_way_figure(ra, s), fb = measure::one_way_figure(rb, s);
    if (!fa.value_ns && !fb.value_ns) continue;
    OneWayDelta d;
    d.stat = profile::to_string(s);
    d.direction = fa.value_ns ? fa.direction : fb.direction;
    d.a = fa.value_ns;
    d.b = fb.value_ns;
    d.bound_a = fa.bound_ns;
    d.bound_b = fb.bound_ns;
    d.gated = std::find(o.gated.begin(), o.gated.end(), d.stat) != o.gated.end();
    if (d.a && d.b) {
      // Each figure may be off by its run's bound: a change inside both together is no change.
      d.within_error = std::fabs(*d.b - *d.a) <= d.bound_a.value_or(0) + d.bound_b.value_or(0);
      const bool beyond = *d.a > 0 ? (*d.b - *d.a) / *d.a > o.fail_on_regression.value_or(0) : *d.b > *d.a;
      d.regression = d.gated && o.fail_on_regression && !d.within_error && beyond;
    }
    out.one_way.push_back(d);
  }
}

std::string one_way_rows(const TestDelta& t, std::size_t indent) {
  const std::string lead(indent, ' ');
  std::string s;
  for (const OneWayDelta& d : t.one_way) {
    s += lead + d.stat + " (" + d.direction + "): " + side("A", d.a, d.bound_a) + ", " +
         side("B", d.b, d.bound_b);
    if (d.a && d.b) {
      const double diff = *d.b - *d.a;
      s += ", B-A " + std::string(diff > 0 ? "+" : diff < 0 ? "-" : "") + ns(std::fabs(diff));
      if (d.within_error)
        s += ": within the error (+- " + ns(d.bound_a.value_or(0) + d.bound_b.value_or(0)) + ")";
      else if (*d.a > 0)
        s += " (" + format_signed_percent(diff / *d.a) + ")";
      if (d.regression) s += "  REGRESSION";
    }
    s += "\n";
  }
  for (const std::string& why : t.one_way_why_not) s += lead + "one-way " + why + "\n";
  return s;
}

}  // namespace labgate::report

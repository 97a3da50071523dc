// Run-to-run comparison: match tests, compute deltas, apply the regression rule.
#include "labgate/report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <stdexcept>

#include "labgate/report/format.h"
#include "labgate/report/figure_format.h"

namespace labgate::report {

using results::RunResult;
using results::TestRecord;

bool TestDelta::regression() const {
  return std::any_of(stats.begin(), stats.end(), [](const StatDelta& d) { return d.regression; }) ||
         std::any_of(one_way.begin(), one_way.end(), [](const OneWayDelta& d) { return d.regression; });
}

bool Comparison::regression() const {
  return std::any_of(tests.begin(), tests.end(), [](const TestDelta& t) { return t.regression(); });
}

namespace {

std::string key_of(const TestRecord& t) { return t.suite_name() + "." + t.test_name(); }

// The judged figure, exactly as the verdict and the report saw it.
std::optional<double> value_of(const TestRecord& t, const std::string& stat) { return t.figures.value(stat); }

std::string source_of(const TestRecord* t, const std::string& stat) {
  const stats::Figure* f = t ? t->figures.find(stat) : nullptr;
  return f ? figure_origin(*f) : "";
}

/// One source when both sides agree, else each side's: comparing a tool's own
/// figure with a histogram's is then visible on the line.
std::string source_text(const StatDelta& d) {
  if (d.source_a == d.source_b || d.source_b.empty()) return d.source_a;
  if (d.source_a.empty()) return d.source_b;
  return "A: " + d.source_a + "; B: " + d.source_b;
}

std::string unit_of(const TestRecord* a, const TestRecord* b, const std::string& stat) {
  for (const TestRecord* t : {a, b})
    if (t)
      if (const stats::Figure* f = t->figures.find(stat)) return f->unit;
  return "";
}

StatDelta delta_of(const std::string& stat, std::optional<double> a, std::optional<double> b,
                   const CompareOptions& o) {
  StatDelta d{stat, a, b, "", std::nullopt, false, false, "", ""};
  d.gated = std::find(o.gated.begin(), o.gated.end(), stat) != o.gated.end();
  const bool up_is_good = higher_is_better(stat);
  if (a && b && *a > 0) {
    // Worse means a larger latency, loss or failure count, or a smaller throughput, MTU or IOPS.
    d.slowdown = up_is_good ? (*a - *b) / *a : (*b - *a) / *a;
  }
  if (d.gated && o.fail_on_regression && a && b) {
    const bool worse_from_zero = *a == 0 && (up_is_good ? *b < *a : *b > *a);
    d.regression = worse_from_zero || (d.slowdown && *d.slowdown > *o.fail_on_regression);
  }
  return d;
}

/// How often a test's tail showed one cause: in how many of its outliers, and
/// whether a tool case (no outliers of its own) showed it over its run.
struct CauseSeen {
  std::size_t outliers = 0;
  bool over_run = false;
};

/// The causes of a test's explained tail, pid left out: a round-trip or
/// stream case's ranked ones, each CPU's of a jitter case, a tool case's
/// run-level causes and its worst interval's evidence.
void tail_causes(const nlohmann::json& tail, std::map<std::string, CauseSeen>& out) {
  static const std::regex pid(" \\(pid [0-9]+\\)");
  if (!tail.is_object()) return;
  const auto key = [&](const nlohmann::json& v) { return std::regex_replace(v.get<std::string>(), pid, ""); };
  if (const auto per = tail.find("per_cpu"); per != tail.end() && per->is_object())
    for (const auto& [cpu, one] : per->items()) tail_causes(one, out);
  if (const auto ranked = tail.find("ranked"); ranked != tail.end() && ranked->is_array())
    for (const auto& r : *ranked)
      if (r.is_object() && r.value("cause", nlohmann::json()).is_string())
        out[key(r["cause"])].outliers += r.value("count", std::size_t{0});
  std::vector<const nlohmann::json*> run_level;
  if (const auto c = tail.find("causes"); c != tail.end() && c->is_array()) run_level.push_back(&*c);
  if (const auto w = tail.find("worst_interval"); w != tail.end() && w->is_object())
    if (const auto e = w->find("evidence"); e != w->end() && e->is_array()) run_level.push_back(&*e);
  for (const nlohmann::json* list : run_level)
    for (const auto& e : *list)
      if (e.is_object() && e.value("key", nlohmann::json()).is_string()) out[key(e["key"])].over_run = true;
}

std::map<std::string, CauseSeen> tail_causes(const TestRecord& t) {
  std::map<std::string, CauseSeen> out;
  tail_causes(t.tail, out);
  return out;
}

/// Each cause of `from` that `other` lacks, "cause (N outliers)" or, a tool
/// case's, "cause (over the run)".
std::vector<std::string> causes_not_in(const std::map<std::string, CauseSeen>& from,
                                       const std::map<std::string, CauseSeen>& other) {
  std::vector<std::string> out;
  for (const auto& [cause, n] : from)
    if (!other.count(cause))
      out.push_back(cause + (n.outliers > 0 ? " (" + std::to_string(n.outliers) + " outliers)" : " (over the run)"));
  return out;
}

TestDelta compare_test(const TestRecord* a, const TestRecord* b, const CompareOptions& o) {
  TestDelta t;
  const TestRecord& any = a ? *a : *b;
  t.key = key_of(any);
  t.metric = any.metric;
  t.only_in_a = !b;
  t.only_in_b = !a;
  for (const auto& stat : o.stats) {
    const auto x = a ? value_of(*a, stat) : std::nullopt;
    const auto y = b ? value_of(*b, stat) : std::nullopt;
    if (x || y) {
      t.stats.push_back(delta_of(stat, x, y, o));
      t.stats.back().unit = unit_of(a, b, stat);
      t.stats.back().source_a = source_of(a, stat);
      t.stats.back().source_b = source_of(b, stat);
    }
  }
  compare_one_way(a, b, o, t);
  if (a && b && a->tail.is_object() && b->tail.is_object()) {
    const auto in_a = tail_causes(*a), in_b = tail_causes(*b);
    t.causes_appeared = causes_not_in(in_b, in_a);
    t.causes_vanished = causes_not_in(in_a, in_b);
  }
  return t;
}

std::string value_text(const StatDelta& d, const std::optional<double>& v) {
  if (!v) return "-";
  return format_in_unit(*v, d.unit, Units::kAscii);
}

std::string delta_text(const StatDelta& d) {
  if (!d.a || !d.b) return "-";
  const double diff = *d.b - *d.a;
  const std::string sign = diff > 0 ? "+" : diff < 0 ? "-" : "";
  return sign + value_text(d, std::fabs(diff));
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

}  // namespace

Comparison compare_runs(const RunResult& a, const RunResult& b, const CompareOptions& o) {
  Comparison c{a.run_id, b.run_id, {}, {}};
  for (const RunResult* r : {&a, &b})
    if (r->conformance() != results::Conformance::kYes)
      c.warnings.push_back((r == &a ? "A (" : "B (") + r->run_id + ") was measured on a system whose conformance is " +
                           results::to_string(r->conformance()) + ": " + r->conformance_why());
  std::map<std::string, const TestRecord*> in_b;
  for (const auto& t : b.tests) in_b.emplace(key_of(t), &t);
  std::map<std::string, bool> seen;
  for (const auto& t : a.tests) {
    const auto it = in_b.find(key_of(t));
    c.tests.push_back(compare_test(&t, it == in_b.end() ? nullptr : it->second, o));
    seen[key_of(t)] = true;
  }
  for (const auto& t : b.tests)
    if (!seen.count(key_of(t))) c.tests.push_back(compare_test(nullptr, &t, o));
  return c;
}

std::string comparison_table(const Comparison& c, const CompareOptions& o) {
  std::size_t width = 4;
  for (const auto& t : c.tests) width = std::max(width, t.key.size());
  width += 2;
  std::string s = "A = " + c.run_a + "\nB = " + c.run_b + "\n";
  if (o.fail_on_regression) {
    std::string gated;
    for (const auto& g : o.gated) gated += (gated.empty() ? "" : ", ") + g;
    s += "regression: B slower than A by more than " + format_plain(*o.fail_on_regression * 100) + "% on " +
         gated + "\n";
  }
  s += "\n" + pad("test", width) + pad("stat", 12) + pad("A", 14) + pad("B", 14) + pad("B-A", 14) +
       pad("change", 20) + "source\n";
  for (const auto& t : c.tests) {
    std::string label = t.key;
    if (t.only_in_a) label += " (only in A)";
    if (t.only_in_b) label += " (only in B)";
    bool first = true;
    for (const auto& d : t.stats) {
      std::string change = "-";
      if (d.slowdown) {
        // Shown as the change of the value itself; for throughput that is -slowdown.
        change =
            format_signed_percent(higher_is_better(d.stat) && *d.slowdown != 0 ? -*d.slowdown : *d.slowdown);
      }
      if (d.regression) change += "  REGRESSION";
      s += pad(first ? label : "", width) + pad(d.stat, 12) + pad(value_text(d, d.a), 14) +
           pad(value_text(d, d.b), 14) + pad(delta_text(d), 14) + pad(change, 20) + source_text(d) + "\n";
      first = false;
    }
    if (t.stats.empty()) s += pad(label, width) + "(no comparable statistics)\n";
    s += one_way_rows(t, width);
    for (const auto& cause : t.causes_appeared) s += pad("", width) + "tail cause appeared in B: " + cause + "\n";
    for (const auto& cause : t.causes_vanished) s += pad("", width) + "tail cause vanished in B: " + cause + "\n";
  }
  if (c.tests.empty()) s += "(neither run has measurement tests)\n";
  for (const auto& w : c.warnings) s += "\nwarning: " + w + "\n";
  if (o.fail_on_regression) s += c.regression() ? "\nverdict: REGRESSION\n" : "\nverdict: no regression\n";
  return s;
}

double parse_percent(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t.back() == '%') t.pop_back();
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (t.empty() || used != t.size() || !std::isfinite(v) || v < 0)
    throw std::invalid_argument("'" + text + "' is not a percentage like 10%");
  return v / 100.0;
}

}  // namespace labgate::report

// Histogram, percentile-curve and per-interval plots of one test, as SVG.
#include "labgate/report/latency_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "labgate/report/format.h"
#include "labgate/report/svg_chart.h"

namespace labgate::report {

namespace {

constexpr int kBinsPerDecade = 20;

std::string metric_of(const results::TestRecord& t) { return t.metric.empty() ? "latency" : t.metric; }

std::string ns_tick(double v) { return format_ns(v); }

std::string count_tick(double v) {
  if (v >= 1e9) return format_plain(v / 1e9) + "G";
  if (v >= 1e6) return format_plain(v / 1e6) + "M";
  if (v >= 1e3) return format_plain(v / 1e3) + "k";
  return format_plain(v);
}

double nines(double percentile) { return -std::log10(1.0 - percentile / 100.0); }

// The stat name as people write it: "p99_9" -> "p99.9".
std::string pretty_stat(std::string stat) {
  std::replace(stat.begin(), stat.end(), '_', '.');
  return stat;
}

}  // namespace

std::string histogram_chart(const results::TestRecord& t, const ChartData& v) {
  if (!v.histogram) return "";
  const stats::Histogram& h = *v.histogram;
  // Re-bin the fine log-linear buckets into equal widths on the log axis.
  const double lo_dec = std::floor(std::log10(std::max<double>(1.0, static_cast<double>(h.min()))));
  std::map<int, double> bins;
  h.for_each_bucket([&](std::uint64_t lo, std::uint64_t hi, std::uint64_t count) {
    const double mid = std::max(1.0, (static_cast<double>(lo) + static_cast<double>(hi)) / 2.0);
    bins[static_cast<int>(std::floor((std::log10(mid) - lo_dec) * kBinsPerDecade))] +=
        static_cast<double>(count);
  });
  if (bins.empty()) return "";
  const auto edge = [&](int i) { return std::pow(10.0, lo_dec + static_cast<double>(i) / kBinsPerDecade); };
  double peak = 1;
  std::vector<Bar> bars;
  for (const auto& [i, count] : bins) {
    peak = std::max(peak, count);
    bars.push_back(
        {edge(i), edge(i + 1), count,
         format_ns(edge(i)) + " \u2013 " + format_ns(edge(i + 1)) + ": " + format_count(count) + " samples"});
  }
  // p50/p99/max are the judged figures, the numbers the tables, JUnit and the
  // verdict show (netperf's own, not its decade buckets'); one never judged is not drawn.
  std::vector<std::pair<std::string, const char*>> marks{
      {"p50", palette::kP50}, {"p99", palette::kP99}, {"max", palette::kMax}};
  double x_lo = edge(bins.begin()->first - 1), x_hi = edge(bins.rbegin()->first + 2);
  for (const auto& [stat, colour] : marks)
    if (const auto value = t.figures.value(stat); value && *value > 0)
      x_lo = std::min(x_lo, *value / 1.5), x_hi = std::max(x_hi, *value * 1.5);
  AxisSpec x{Scale::kLog, x_lo, x_hi, metric_of(t) + " (log scale)", ns_tick};
  AxisSpec y{Scale::kLog, 0.7, peak * 2.5, "samples (log scale)", count_tick};
  Chart c("Histogram of " + metric_of(t), x, y);
  c.bars(std::move(bars), palette::kData, "");
  int row = 0;
  for (const auto& [stat, colour] : marks)
    if (const auto value = t.figures.value(stat))
      c.vline(*value, colour, stat + " " + format_ns(*value), row++);
  return c.svg();
}

std::string percentile_chart(const results::TestRecord& t, const ChartData& v) {
  if (!v.histogram) return "";
  const stats::Histogram& h = *v.histogram;
  const double x_lo = std::log10(2.0), x_hi = 5.0;
  // Beyond rank 1 - 1/N every percentile is the maximum: the run was too short to say more.
  const double resolved = std::log10(static_cast<double>(std::max<std::uint64_t>(h.count(), 2)));
  std::vector<Point> curve;
  for (double x = x_lo; x <= x_hi + 1e-9; x += 0.02)
    curve.push_back({x, static_cast<double>(h.percentile(100.0 * (1.0 - std::pow(10.0, -x))))});

  // Budget stats that are percentiles, in rank order, each at its x position.
  struct Limit {
    std::string stat;
    double x, limit;
    const results::BudgetLine* line;
  };
  std::vector<Limit> limits;
  for (const auto& b : t.budget)
    if (b.unit == "ns")
      if (const auto p = percentile_of(b.stat))
        limits.push_back({b.stat, *p >= 100 ? x_hi : nines(*p), b.limit, &b});
  std::sort(limits.begin(), limits.end(), [](const Limit& a, const Limit& b) { return a.x < b.x; });

  double y_lo = static_cast<double>(h.percentile(50)), y_hi = static_cast<double>(h.max());
  for (const auto& l : limits) y_lo = std::min(y_lo, l.limit), y_hi = std::max(y_hi, l.limit);
  AxisSpec x{Scale::kNines, x_lo, x_hi, "percentile (nines scale)", nullptr};
  AxisSpec y{Scale::kLog, std::max(1.0, y_lo / 1.5), y_hi * 1.6, metric_of(t) + " (log scale)", ns_tick};
  Chart c("Percentile curve of " + metric_of(t), x, y);
  if (resolved < x_hi) c.shade_x(resolved, x_hi, "fewer than 1/(1-p) samples: shows max");
  c.line(curve, palette::kData, "measured");
  if (!limits.empty()) {
    // The budget as the line the curve must stay under: at rank x it is the
    // tightest limit of any statistic at or beyond x (percentiles only grow).
    std::vector<Point> step;
    double prev_x = x_lo;
    for (std::size_t k = 0; k < limits.size(); ++k) {
      double level = limits[k].limit;
      for (std::size_t j = k; j < limits.size(); ++j) level = std::min(level, limits[j].limit);
      step.push_back({prev_x, level});
      step.push_back({limits[k].x, level});
      prev_x = limits[k].x;
    }
    c.line(step, palette::kBudget, "budget", true);
    for (const auto& l : limits) {
      c.label({l.x, l.limit}, palette::kBudget, pretty_stat(l.stat) + " \u2264 " + format_ns(l.limit),
              l.x > 3.5);
      if (l.line->observed) {
        const bool ok = l.line->pass;
        c.marker({l.x, *l.line->observed}, ok ? palette::kPass : palette::kFail,
                 pretty_stat(l.stat) + ": " + format_ns(*l.line->observed) + " (budget " +
                     format_ns(l.limit) + ") " + (ok ? "pass" : "FAIL"),
                 false);
      }
    }
  }
  return c.svg();
}

// The worst outliers "Why the tail" lists (run.json's tail, worst first), placed
// on the series' axis: the client's outliers are stamped on the clock its series
// started on, so at_ns - origin is their time since warm-up. Without the origin
// (an older probe, a tool) nothing is placed rather than placed by guess; nor
// are a stream's, the receiver's gaps on its own host's clock ("on_series_clock": false).
void mark_tail_outliers(Chart& c, const results::TestRecord& t, const ChartData& v, double t_end) {
  const auto outliers = t.tail.is_object() ? t.tail.find("outliers") : t.tail.end();
  if (!v.series_origin_ns || outliers == t.tail.end() || !outliers->is_array()) return;
  if (t.tail.value("on_series_clock", true) == false) return;
  std::size_t shown = 0;
  for (const nlohmann::json& o : *outliers) {
    if (shown == 20) break;  // the report's table lists the 20 worst
    const auto at = o.find("at_ns"), value = o.find("value_ns");
    if (at == o.end() || value == o.end() || !at->is_number_unsigned() || !value->is_number()) continue;
    const std::uint64_t at_ns = at->get<std::uint64_t>();
    if (at_ns < *v.series_origin_ns) continue;  // a warm-up sample: not on this axis
    const double x = static_cast<double>(at_ns - *v.series_origin_ns) / 1e9;
    if (x > t_end) continue;
    ++shown;
    const std::string cause = o.value("cause", std::string("unexplained"));
    c.marker({x, value->get<double>()}, cause == "unexplained" ? palette::kMuted : palette::kFail,
             "request " + std::to_string(o.value("seq", std::uint64_t{0})) + ": " +
                 format_ns(value->get<double>()) + " at " + format_plain(x) + " s: " + cause);
  }
}

std::string series_chart(const results::TestRecord& t, const ChartData& v) {
  if (v.series.empty()) return "";
  // At most ~600 points per line: group neighbours and keep each group's worst
  // p99/max (a spike must survive the downsampling) and mean p50.
  const std::size_t group = std::max<std::size_t>(1, (v.series.size() + 599) / 600);
  std::vector<Point> p50, p99, mx;
  double y_lo = 1e300, y_hi = 1, t_end = 0;
  const SeriesPoint* worst = nullptr;
  std::vector<double> stalls;
  for (std::size_t i = 0; i < v.series.size(); i += group) {
    double s50 = 0, s99 = 0, smax = 0, n = 0, t0 = v.series[i].start_s, t1 = t0;
    for (std::size_t k = i; k < std::min(v.series.size(), i + group); ++k) {
      const SeriesPoint& s = v.series[k];
      t1 = s.start_s + s.length_s;
      if (s.count == 0) {
        stalls.push_back(s.start_s + s.length_s / 2);
        continue;
      }
      if (!worst || s.max_ns > worst->max_ns) worst = &s;
      s50 += static_cast<double>(s.p50_ns), ++n;
      s99 = std::max(s99, static_cast<double>(s.p99_ns));
      smax = std::max(smax, static_cast<double>(s.max_ns));
    }
    t_end = std::max(t_end, t1);
    if (n == 0) continue;
    const double mid = (t0 + t1) / 2;
    p50.push_back({mid, s50 / n});
    p99.push_back({mid, s99});
    mx.push_back({mid, smax});
    y_lo = std::min(y_lo, s50 / n);
    y_hi = std::max(y_hi, smax);
  }
  if (p50.empty()) y_lo = 1;
  for (const auto& b : t.budget)
    if (b.unit == "ns" && (b.stat == "p99" || b.stat == "max")) y_hi = std::max(y_hi, b.limit);
  const double interval = v.series.front().length_s;
  AxisSpec x{Scale::kLinear, 0, std::max(t_end, 1e-3), "time since warm-up (s)", nullptr};
  AxisSpec y{Scale::kLog, std::max(1.0, y_lo / 1.5), y_hi * 1.8, metric_of(t) + " (log scale)", ns_tick};
  Chart c("p50 / p99 / max per " + format_plain(interval) + " s interval", x, y);
  c.line(p50, palette::kP50, "p50");
  c.line(p99, palette::kP99, "p99");
  c.line(mx, palette::kMax, "max");
  for (const auto& b : t.budget)
    if (b.unit == "ns" && (b.stat == "p99" || b.stat == "max"))
      c.hline(b.limit, palette::kBudget, pretty_stat(b.stat) + " budget " + format_ns(b.limit));
  if (worst) {
    const Point at{worst->start_s + worst->length_s / 2, static_cast<double>(worst->max_ns)};
    c.marker(at, palette::kMax, "worst interval", true);
    c.label(at, palette::kMax, "max " + format_ns(at.y) + " at " + format_plain(worst->start_s) + " s",
            at.x > x.hi * 0.7);
  }
  for (std::size_t i = 0; i < stalls.size() && i < 50; ++i)
    c.marker({stalls[i], y.lo}, palette::kFail, "no sample completed in this interval (stall)");
  mark_tail_outliers(c, t, v, x.hi);
  return c.svg();
}

}  // namespace labgate::report

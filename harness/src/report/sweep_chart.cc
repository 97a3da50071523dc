// One chart per swept test: the figure that matters against the swept value.
#include "labgate/report/sweep_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "labgate/report/format.h"
#include "labgate/report/markup.h"
#include "labgate/report/svg_chart.h"

namespace labgate::report {

bool parse_sweep_name(const std::string& name, std::string& test, std::string& parameter,
                      std::string& value) {
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  const std::string point = name.substr(slash + 1);
  const std::size_t eq = point.find('=');
  // One parameter only: "a=1,b=2" sweeps two at once.
  if (eq == std::string::npos || eq == 0 || eq + 1 == point.size() || point.find(',') != std::string::npos ||
      point.find('/') != std::string::npos)
    return false;
  test = name.substr(0, slash);
  parameter = point.substr(0, eq);
  value = point.substr(eq + 1);
  return true;
}

std::vector<SweepGroup> find_sweeps(const results::RunResult& run) {
  std::vector<SweepGroup> groups;
  for (const auto& t : run.tests) {
    std::string test, parameter, value;
    if (!parse_sweep_name(t.name, test, parameter, value)) continue;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const SweepGroup& s) {
      return s.test == test && s.pair == t.pair && s.parameter == parameter;
    });
    if (g == groups.end()) {
      groups.push_back({test, t.pair, parameter, {}, {}});
      g = groups.end() - 1;
    }
    g->values.push_back(value);
    g->cases.push_back(&t);
  }
  std::erase_if(groups, [](const SweepGroup& g) { return g.cases.size() < 2; });
  return groups;
}

namespace {

struct Plotted {
  const char* key;    ///< the judged figure (TestRecord::figures)
  const char* title;  ///< the y axis
  double scale;       ///< base unit -> the axis' unit
};

constexpr Plotted kFigures[] = {
    {"throughput", "throughput (Mbit/s)", 1e-6}, {"p99", "p99 (\u00b5s)", 1e-3}, {"mean", "mean (\u00b5s)", 1e-3}};

const Plotted* figure_for(const SweepGroup& g) {
  for (const Plotted& f : kFigures)
    if (std::all_of(g.cases.begin(), g.cases.end(),
                    [&](const results::TestRecord* t) { return t->figures.find(f.key) != nullptr; }))
      return &f;
  return nullptr;
}

/// Four significant digits: 8015, 59.7, 802.1.
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

std::string sweep_chart(const SweepGroup& g) {
  const Plotted* f = figure_for(g);
  if (f == nullptr || g.cases.empty()) return "";
  std::vector<Point> pts;
  double hi = 0;
  for (std::size_t i = 0; i < g.cases.size(); ++i) {
    const double y = *g.cases[i]->figures.value(f->key) * f->scale;
    pts.push_back({static_cast<double>(i), y});
    hi = std::max(hi, y);
  }
  // The values are evenly spaced in profile order: sizes, buffers and algorithm
  // names alike, so "16KiB" and "reno" need no numeric axis.
  const std::vector<std::string> values = g.values;
  AxisSpec x{Scale::kLinear, -0.5, static_cast<double>(values.size()) - 0.5, g.parameter, [values](double v) {
               const double r = std::round(v);
               if (std::fabs(v - r) > 1e-9 || r < 0 || r >= static_cast<double>(values.size()))
                 return std::string();
               return values[static_cast<std::size_t>(r)];
             }};
  AxisSpec y{Scale::kLinear, 0, hi > 0 ? hi * 1.15 : 1, f->title, nullptr};
  // Short enough for the chart's width; the y axis says what is plotted.
  Chart c(g.test + " " + g.pair + " by " + g.parameter, x, y);
  c.line(pts, palette::kData, f->title);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const bool pass = g.cases[i]->verdict == results::TestVerdict::kPass;
    c.marker(pts[i], pass ? palette::kPass : palette::kFail,
             g.parameter + " = " + g.values[i] + ": " + short_number(pts[i].y) + " (" +
                 results::to_string(g.cases[i]->verdict) + ")");
    c.label(pts[i], palette::kMuted, short_number(pts[i].y));
  }
  return c.svg();
}

std::string sweep_section(const results::RunResult& run, int& charts) {
  std::string figures;
  for (const SweepGroup& g : find_sweeps(run)) {
    const std::string svg = sweep_chart(g);
    if (svg.empty()) continue;
    figures += "<figure>" + svg + "</figure>";
    ++charts;
  }
  if (figures.empty()) return "";
  return "<section class=\"card\"><h2>Sweeps</h2><p class=\"meta\">One chart per swept test and pair: each "
         "point is one case (green passed, red did not).</p><div class=\"charts\">" +
         figures + "</div></section>";
}

}  // namespace labgate::report

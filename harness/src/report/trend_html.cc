// The trend page: one self-contained HTML file (Chart.js inlined, data as JSON)
// with a chart per test of p50/p99/max over the runs against the budget; the
// wheel zooms the run axis, a double click resets it, a hover shows the values.
#include <nlohmann/json.hpp>

#include "labgate/report/format.h"
#include "labgate/report/markup.h"
#include "labgate/report/trend.h"

namespace labgate::report {

namespace {

// JSON or JS placed inside <script> must not close it early.
std::string script_safe(std::string s) {
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

nlohmann::json data_json(const TrendData& d) {
  nlohmann::json runs = nlohmann::json::array(), tests = nlohmann::json::array();
  for (const auto& r : d.runs)
    runs.push_back({{"id", r.run_id},
                    {"start", results::format_time(r.start)},
                    {"conforming", conformance_words(r.conforming)},
                    {"imported", r.imported}});
  for (const auto& t : d.tests) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : t.points)
      points.push_back({{"run", p.run}, {"s", p.seconds}, {"budget", p.budget_s}, {"verdict", p.verdict}});
    tests.push_back({{"key", t.key}, {"metric", t.metric}, {"points", std::move(points)}});
  }
  return {{"runs", std::move(runs)}, {"tests", std::move(tests)}, {"stats", trend_statistics()}};
}

std::string table_of(const TrendData& d, const TrendSeries& t) {
  std::string s = "<table class=\"lg-values\"><tr><th>run</th><th>start</th><th>conforming</th><th>imported</th>"
                  "<th>verdict</th>";
  for (const auto& st : trend_statistics()) s += "<th>" + st + "</th><th>budget " + st + "</th>";
  s += "</tr>";
  for (const auto& p : t.points) {
    const TrendRun& r = d.runs[p.run];
    s += "<tr><td>" + html_escape(r.run_id) + "</td><td>" + results::format_time(r.start) + "</td><td>" +
         conformance_words(r.conforming) + "</td><td>" + (r.imported ? "imported" : "") + "</td><td>" + p.verdict +
         "</td>";
    for (const auto& st : trend_statistics()) {
      const auto v = p.seconds.find(st);
      const auto b = p.budget_s.find(st);
      s += "<td>" + (v == p.seconds.end() ? std::string("-") : format_ns(v->second * 1e9, Units::kUnicode)) +
           "</td><td>" + (b == p.budget_s.end() ? std::string("") : format_ns(b->second * 1e9, Units::kUnicode)) +
           "</td>";
    }
    s += "</tr>";
  }
  return s + "</table>";
}

const char* kTrendStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px} h2{font-size:16px;margin:28px 0 6px}
.lg-chart{position:relative;height:320px;max-width:1100px}
.lg-values{border-collapse:collapse;font-size:12px;margin-top:6px}
.lg-values td,.lg-values th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.lg-key{color:#555;max-width:1100px}
)";

// Builds the charts from the embedded data; marks the page for the browser test.
const char* kTrendScript = R"(
(function(){
  const data = JSON.parse(document.getElementById('lg-data').textContent);
  const colors = {p50:'#1f77b4', p99:'#ff7f0e', max:'#d62728'};
  const style = {'yes':'circle','no':'crossRot','not checked':'triangle'};
  const labels = data.runs.map(r => r.start.slice(0,16).replace('T',' ') + (r.imported ? ' (imported)' : ''));
  const us = v => (v === undefined ? null : v * 1e6);
  let made = 0;
  data.tests.forEach((t, i) => {
    const canvas = document.getElementById('lg-chart-' + i);
    const byRun = new Map(t.points.map(p => [p.run, p]));
    const pick = (f) => data.runs.map((r, k) => byRun.has(k) ? f(byRun.get(k)) : null);
    const datasets = [];
    // A test that never measured a latency (it errored in every run) still gets its chart, empty, and says so.
    data.stats.forEach(st => {
      const values = pick(p => us(p.s[st]));
      if (values.every(v => v === null)) return;
      datasets.push({label: st, data: values, borderColor: colors[st], backgroundColor: colors[st],
        pointStyle: data.runs.map(r => style[r.conforming]),
        pointBackgroundColor: data.runs.map(r => r.imported ? '#fff' : colors[st]),
        pointRadius: 5, pointHoverRadius: 8, spanGaps: true, tension: 0});
      const budget = pick(p => us(p.budget[st]));
      if (budget.some(v => v !== null))
        datasets.push({label: 'budget ' + st, data: budget, borderColor: colors[st], borderDash: [6, 4],
          borderWidth: 1, pointRadius: 0, stepped: true, spanGaps: true, fill: false});
    });
    const chart = new Chart(canvas, {type: 'line', data: {labels: labels, datasets: datasets},
      options: {animation: false, responsive: true, maintainAspectRatio: false,
        interaction: {mode: 'index', intersect: false},
        scales: {y: {title: {display: true, text: t.metric ? t.metric + ' (\u00b5s)' : '\u00b5s'}},
                 x: {title: {display: true, text: 'runs in time order'}}},
        plugins: {title: {display: true, text: datasets.length ? t.key : t.key + ': no p50/p99/max measured in these runs'},
          tooltip: {callbacks: {
            label: c => c.dataset.label + ': ' + (c.parsed.y === null ? '-' : c.parsed.y.toFixed(1) + ' \u00b5s'),
            footer: items => { const r = data.runs[items[0].dataIndex];
              return 'run ' + r.id + '\nconforming: ' + r.conforming + (r.imported ? '\nimported' : ''); }}}}}});
    // Wheel: zoom the run axis around the pointer; double click: everything again.
    canvas.addEventListener('wheel', ev => {
      ev.preventDefault();
      const n = labels.length, x = chart.scales.x;
      const lo = x.min, hi = x.max, at = x.getValueForPixel(ev.offsetX);
      const span = Math.max(1, Math.round((hi - lo) * (ev.deltaY < 0 ? 0.6 : 1.6)));
      let a = Math.round(at - (at - lo) * span / Math.max(1, hi - lo));
      a = Math.max(0, Math.min(a, n - 1 - span));
      chart.options.scales.x.min = Math.max(0, a);
      chart.options.scales.x.max = Math.min(n - 1, a + span);
      chart.update('none');
    }, {passive: false});
    canvas.addEventListener('dblclick', () => {
      delete chart.options.scales.x.min; delete chart.options.scales.x.max; chart.update('none');
    });
    if (canvas.width > 0 && canvas.height > 0 && chart.data === chart.config.data) made++;
  });
  document.body.setAttribute('data-lg-charts', String(made));
  document.body.setAttribute('data-lg-status', made === data.tests.length ? 'ok' : 'incomplete');
})();
)";

}  // namespace

std::string trend_html(const TrendData& d, const std::string& chart_js) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>labgate trend</title>"
      "<style>" +
      std::string(kTrendStyle) + "</style></head>\n<body data-lg-status=\"loading\">\n";
  s += "<h1>labgate trend: " + std::to_string(d.tests.size()) + " tests over " + std::to_string(d.runs.size()) +
       " runs</h1>\n<p class=\"lg-key\">Runs in time order, left to right. Solid lines: p50, p99 and max of each "
       "run; dashed: the budget of that statistic. Point shape: conforming (preconditions met) "
       "<b>circle = yes</b>, <b>cross = no</b>, <b>triangle = not checked</b>; a hollow point is a run imported "
       "from a saved tool output. Hover for values; the mouse wheel zooms the run axis, a double click resets "
       "it.</p>\n";
  for (std::size_t i = 0; i < d.tests.size(); ++i) {
    s += "<h2>" + html_escape(d.tests[i].key) + "</h2>\n<div class=\"lg-chart\"><canvas id=\"lg-chart-" +
         std::to_string(i) + "\"></canvas></div>\n" + table_of(d, d.tests[i]) + "\n";
  }
  s += "<script id=\"lg-data\" type=\"application/json\">" + script_safe(data_json(d).dump()) + "</script>\n";
  s += "<script>" + script_safe(chart_js) + "</script>\n<script>" + kTrendScript +
       "</script>\n</body></html>\n";
  return s;
}

}  // namespace labgate::report

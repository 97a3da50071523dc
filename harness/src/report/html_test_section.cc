// report.html's section for one test: context, budget table, plots, details.
#include <algorithm>
#include <vector>

#include "html_sections.h"
#include "labgate/measure/one_way.h"
#include "labgate/report/figure_format.h"
#include "labgate/report/format.h"
#include "labgate/report/latency_charts.h"
#include "labgate/report/markup.h"

namespace labgate::report::html {

using results::TestRecord;

std::string cpu_placement(const ChartData& v) {
  const auto param = [&](const char* k) {
    const auto it = v.parameters.find(k);
    return it == v.parameters.end() ? std::string() : it->second;
  };
  std::vector<std::string> parts;
  // The probes' own keys: what was asked and where the measuring thread really ran.
  const std::string asked = param("cpu_asked"), actual = param("cpu_actual"), end = param("cpu_actual_end");
  if (!asked.empty() || !actual.empty()) {
    std::string s = asked.empty() || asked == "-1" ? "not pinned" : "pinned to CPU " + asked;
    if (!actual.empty() && actual != "-1") s += ", ran on CPU " + actual;
    if (!end.empty() && end != actual && end != "-1") s += ", on CPU " + end + " at the end";
    parts.push_back(s);
  }
  if (v.cpu) parts.push_back("CPU " + std::to_string(*v.cpu));
  // Anything else a producer recorded about CPUs (server side, tools' -T).
  for (const auto& [k, value] : v.parameters) {
    if (k.find("cpu") == std::string::npos || k == "cpu_asked" || k == "cpu_actual" ||
        k == "cpu_actual_end" || k == "cpu_actual_source")
      continue;
    std::string key = k;
    std::replace(key.begin(), key.end(), '_', ' ');
    parts.push_back(key + " " + value);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "not recorded" : out;
}

namespace {

std::string budget_table(const TestRecord& t) {
  if (t.budget.empty())
    return "<p class=\"meta\">No budget for this test: figures are recorded, not judged.</p>";
  std::string s =
      "<table class=\"budget\"><thead><tr><th>Statistic</th><th class=\"num\">Observed</th><th class=\"num\">"
      "Limit</th><th class=\"num\">Margin</th><th>Verdict</th><th>Note</th></tr></thead><tbody>";
  for (const auto& b : t.budget) {
    const bool floor = b.stat == "min_throughput";
    s += std::string("<tr") + (b.pass ? "" : " class=\"failed\"") + "><td>" + html_escape(b.stat) +
         "</td><td class=\"num\">" +
         (b.observed ? html_escape(format_in_unit(*b.observed, b.unit)) : std::string("not measured")) +
         "</td><td class=\"num\">" + (floor ? "&#8805; " : "&#8804; ") +
         html_escape(format_in_unit(b.limit, b.unit)) + "</td><td class=\"num " +
         (b.margin && *b.margin < 0 ? "neg" : "pos") + "\">" +
         (b.margin ? html_escape(format_signed_percent(*b.margin)) : std::string("&#8212;")) + "</td><td>" +
         pill(b.pass ? "pass" : "fail") + "</td><td>" + html_escape(b.reason) + "</td></tr>";
  }
  return s + "</tbody></table>";
}

std::string context_line(const TestRecord& t, const ChartData& v) {
  std::vector<std::string> parts;
  parts.push_back("<b>" + html_escape(t.metric.empty() ? "latency" : t.metric) + "</b>");
  parts.push_back(html_escape(t.kind + " via " + (t.tool.empty() ? "unknown tool" : t.tool)));
  if (const stats::Figure* n = t.figures.find("samples"))
    parts.push_back(html_escape(format_count(n->value)) + " samples" +
                    (v.duration_s && *v.duration_s > 0 ? " over " + html_escape(format_duration(*v.duration_s)) : "") +
                    " (" + html_escape(figure_origin(*n)) + ")");
  if (t.measurement.is_null()) {
    parts.push_back("no measurement was taken");
  } else {
    parts.push_back("warm-up excluded: " + (v.warmup_s ? html_escape("first " + format_duration(*v.warmup_s))
                                                       : std::string("not recorded")));
    if (v.cooldown_s > 0)
      parts.push_back("cool-down excluded: last " + html_escape(format_duration(v.cooldown_s)));
    if (v.tool_time)
      parts.push_back(html_escape("the tool's own start-up " + format_duration(v.tool_time->startup_s) +
                                  " before its run and wrap-up " + format_duration(v.tool_time->wrapup_s) +
                                  " after it (not measuring)"));
    parts.push_back("CPU placement: " + html_escape(cpu_placement(v)));
  }
  if (const stats::Figure* f = t.figures.find("throughput")) parts.push_back("throughput " + html_escape(figure_text(*f)));
  if (const stats::Figure* f = t.figures.find("dropped")) parts.push_back(html_escape(figure_text(*f)) + " dropped");
  if (const stats::Figure* f = t.figures.find("loss")) parts.push_back("loss " + html_escape(figure_text(*f)));
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? " &#183; " : "") + parts[i];
  return "<p class=\"meta\">" + s + "</p>";
}

std::string details(const TestRecord& t, const ChartData& v) {
  std::string s;
  if (!v.parameters.empty()) {
    s += "<details><summary>Parameters as measured</summary><table class=\"params\">";
    for (const auto& [k, value] : v.parameters)
      s += "<tr><th>" + html_escape(k) + "</th><td>" + html_escape(value) + "</td></tr>";
    s += "</table></details>";
  }
  if (!v.events.empty()) {
    // The largest first: the ones worth chasing (an interrupt, a daemon waking up).
    std::vector<EventPoint> top = v.events;
    std::sort(top.begin(), top.end(),
              [](const EventPoint& a, const EventPoint& b) { return a.value_ns > b.value_ns; });
    if (top.size() > 20) top.resize(20);
    s += "<details><summary>" + std::to_string(v.events.size()) +
         " events over the threshold, placed in time</summary><table class=\"params\"><tr><th>At</th><th>" +
         html_escape(t.metric.empty() ? "value" : t.metric) + "</th><th>CPU</th></tr>";
    for (const auto& e : top)
      s += "<tr><td class=\"num\">" + html_escape(format_plain(e.at_s)) + " s</td><td class=\"num\">" +
           html_escape(format_ns(static_cast<double>(e.value_ns))) + "</td><td>" +
           (e.cpu >= 0 ? std::to_string(e.cpu) : std::string("&#8212;")) + "</td></tr>";
    s += "</table></details>";
  }
  if (!t.raw_files.empty()) {
    s += "<details><summary>Raw output kept in the results folder</summary><ul>";
    for (const auto& f : t.raw_files) s += "<li><code>" + html_escape(f) + "</code></li>";
    s += "</ul></details>";
  }
  return s;
}

// Every judged figure with its source: what the verdict, JUnit and compare read.
std::string figure_table(const TestRecord& t) {
  if (t.figures.empty()) return "";
  std::string s =
      "<details><summary>Figures and their sources</summary><table class=\"params\"><tr><th>Figure</th>"
      "<th class=\"num\">Value</th><th>Source</th></tr>";
  for (const stats::Figure& f : t.figures.list())
    s += "<tr><th>" + html_escape(f.stat) + "</th><td class=\"num\">" + html_escape(figure_text(f)) + "</td><td>" +
         html_escape(figure_origin(f)) + "</td></tr>";
  return s + "</table></details>";
}

}  // namespace

std::string figure_cells(const TestRecord& t) {
  std::string s;
  for (const char* stat : {"p50", "p99", "p99_9", "max"}) {
    const stats::Figure* f = t.figures.find(stat);
    s += "<td class=\"num\">" + (f ? html_escape(figure_text(*f)) : std::string("&#8212;")) + "</td>";
  }
  // Each kind's own figure: the MTU found both ways, ping's loss, a stream's
  // throughput, a disk's IOPS, a command's failures, UDP drops.
  std::string own;
  const std::pair<const char*, const char*> shown[] = {
      {"mtu_forward", "MTU forward"}, {"mtu_reverse", "MTU reverse"}, {"throughput", "throughput"},
      {"iops", "IOPS"},               {"loss", "loss"},               {"dropped", "dropped"},
      {"mean", nullptr},              {"failures", "failures"}};
  for (const auto& [stat, label] : shown) {
    const stats::Figure* f = t.figures.find(stat);
    if (!f || !label) continue;
    own += (own.empty() ? "" : ", ") + std::string(label) + " " + figure_text(*f);
  }
  if (t.kind == "ping_flood")
    if (const stats::Figure* f = t.figures.find("mean")) own += (own.empty() ? "" : ", ") + ("rtt avg " + figure_text(*f));
  return s + "<td>" + (own.empty() ? std::string("&#8212;") : html_escape(own)) + "</td>";
}

std::string mesh_schedule_note(const TestRecord& t) {
  if (t.mesh_schedule == "disjoint")
    return "<p class=\"meta\">Mesh schedule: disjoint" +
           (t.round > 0 ? ", round " + std::to_string(t.round) : std::string()) +
           ". The pairs of a round were measured at the same time (no host in two pairs): they shared the "
           "switch, so one pair's figures include the others' traffic.</p>";
  if (!t.mesh_schedule.empty())
    return "<p class=\"meta\">Mesh schedule: " + html_escape(t.mesh_schedule) + ", one pair at a time.</p>";
  return "";
}

std::string test_section(const TestRecord& t, const std::string& anchor, int& charts) {
  const ChartData v = chart_data(t.measurement);
  std::string s = "<section class=\"card test\" id=\"" + html_escape(anchor) + "\"><h3>" +
                  html_escape(t.suite_name()) + " &#183; " + html_escape(t.name) + " &#183; " +
                  html_escape(t.pair) + " " + pill(to_string(t.verdict)) + "</h3>";
  s += context_line(t, v);
  s += mesh_schedule_note(t);
  if (t.conformance == results::Conformance::kNo)
    s += "<p class=\"warn\">Measured on a non-conforming system: preconditions failed, so these numbers do "
         "not describe the servers as the profile wants them.</p>";
  else if (t.conformance == results::Conformance::kNotChecked)
    s += "<p class=\"warn\">Measured on a system whose preconditions were not checked.</p>";
  if (t.accounting.checked)
    s += std::string("<p class=\"") + (t.accounting.pass ? "meta" : "warn") + "\">" +
         html_escape(t.accounting.message) + "</p>";
  if (!t.failure.empty()) s += "<pre class=\"failure\">" + html_escape(t.failure) + "</pre>";
  s += budget_table(t);
  std::string plots;
  for (const std::string& svg : {histogram_chart(t, v), percentile_chart(t, v), series_chart(t, v)}) {
    if (svg.empty()) continue;
    plots += "<figure>" + svg + "</figure>";
    ++charts;
  }
  if (!plots.empty()) {
    s += "<div class=\"charts\">" + plots + "</div>";
  }
  s += figure_table(t);
  s += tail_section(t);
  if (const std::string ow = measure::one_way_line(measure::one_way_of_record(t.measurement)); !ow.empty())
    s += "<p class=\"meta\">" + html_escape(ow) + "</p>";
  std::vector<std::string> notes = v.warnings;
  for (const auto& p : v.problems) notes.push_back("measurement JSON: " + p);
  if (!notes.empty()) {
    s += "<ul class=\"notes\">";
    for (const auto& n : notes) s += "<li>" + html_escape(n) + "</li>";
    s += "</ul>";
  }
  return s + details(t, v) + "</section>";
}

}  // namespace labgate::report::html

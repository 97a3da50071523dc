// report.html's "Why the tail" part of a test (issue 25): the worst outliers
// with their split and cause, the ranked causes, and what each host could not show.
#include <algorithm>

#include "html_sections.h"
#include "labgate/report/format.h"
#include "labgate/report/markup.h"

namespace labgate::report::html {
namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_at(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

/// A tool's case (no outliers of its own): the join's depth, each host's watch
/// over the run on the tool's CPUs, the causes named with their evidence.
std::string over_run_table(const json& tail) {
  std::string s = "<table class=\"params\"><tr><th>Host</th><th>CPU</th><th>Over the run</th></tr>";
  for (const auto& [host, h] : tail["over_run"].items()) {
    const auto cpus = h.find("cpus");
    if (cpus == h.end() || !cpus->is_array()) {
      s +=
          "<tr><td>" + html_escape(host) + "</td><td></td><td>" + html_escape(str(h, "watch")) + "</td></tr>";
      continue;
    }
    for (const json& c : *cpus) {
      std::string what = "IRQ " + format_ns(number_at(c, "irq_ms") * 1e6) + ", softirq " +
                         format_ns(number_at(c, "softirq_ms") * 1e6) + ", steal " +
                         format_ns(number_at(c, "steal_ms") * 1e6);
      for (const json& t : c.value("tasks", json::array()))
        what += "; " + str(t, "comm") + " (pid " + t.value("pid", json(0)).dump() + ") ran " +
                format_ns(number_at(t, "ran_ns"));
      s += "<tr><td>" + html_escape(host + " (" + str(h, "role") + ")") + "</td><td class=\"num\">" +
           c.value("cpu", json(0)).dump() + "</td><td>" + html_escape(what) + "</td></tr>";
    }
  }
  return s + "</table>";
}

std::string tool_tail_section(const json& tail) {
  std::string s = "<div class=\"tail\"><h4>Why the tail</h4><p class=\"meta\">" +
                  html_escape(str(tail, "top")) + "</p><p class=\"meta\">" + html_escape(str(tail, "join")) +
                  "</p>" + over_run_table(tail);
  std::vector<std::string> notes;
  for (const char* key : {"causes", "limits"})
    for (const json& c : tail.value(key, json::array()))
      notes.push_back(c.is_string() ? c.get<std::string>() : str(c, "text"));
  if (!notes.empty()) {
    s += "<ul class=\"notes\">";
    for (const std::string& n : notes) s += "<li>" + html_escape(n) + "</li>";
    s += "</ul>";
  }
  return s + "</div>";
}

}  // namespace

std::string tail_section(const results::TestRecord& t) {
  const json& tail = t.tail;
  if (!tail.is_object()) return "";
  // A case the tail cannot be explained for (an external tool): why, plainly.
  if (const std::string why_not = str(tail, "why_not"); !why_not.empty())
    return "<div class=\"tail\"><h4>Why the tail</h4><p class=\"meta\">" + html_escape(why_not) +
           "</p></div>";
  // A tool's case without a per-sample join (sockperf's full_log has one: shown as the probes').
  if (tail.contains("over_run") && !tail.contains("outliers")) return tool_tail_section(tail);
  const std::string top = str(tail, "top");
  std::string s = "<div class=\"tail\"><h4>Why the tail</h4><p class=\"meta\">" +
                  (top.empty() ? std::string("No outliers were kept.") : html_escape(top)) + " &#183; " +
                  html_escape(format_count(number_at(tail, "unexplained"))) +
                  " unexplained (no evidence on either host: counted, never guessed)</p>";
  const auto ranked = tail.find("ranked");
  if (ranked != tail.end() && ranked->is_array() && !ranked->empty()) {
    s += "<table class=\"params\"><tr><th class=\"num\">Outliers</th><th>Cause</th><th>Kind</th></tr>";
    for (const json& r : *ranked)
      s += "<tr><td class=\"num\">" + html_escape(format_count(number_at(r, "count"))) + "</td><td>" +
           html_escape(str(r, "cause")) + "</td><td>" + html_escape(str(r, "kind")) + "</td></tr>";
    s += "</table>";
  }
  const auto outliers = tail.find("outliers");
  if (outliers != tail.end() && outliers->is_array() && !outliers->empty()) {
    const std::size_t shown = std::min<std::size_t>(outliers->size(), 20);
    s += "<details open><summary>The " + std::to_string(shown) + " worst of " +
         std::to_string(outliers->size()) +
         " outliers</summary><table class=\"params\"><tr><th class=\"num\">" +
         html_escape(tail.value("seq_name", std::string("Request"))) + "</th><th class=\"num\">" +
         // A stream's are the receiver's gaps, not the sender's metric (send_time).
         html_escape(tail.value("value_name", t.metric.empty() ? std::string("value") : t.metric)) +
         "</th><th>Cause and evidence</th><th>Split</th></tr>";
    for (std::size_t i = 0; i < shown; ++i) {
      const json& o = (*outliers)[i];
      std::string evidence;
      const auto ev = o.find("evidence");
      if (ev != o.end() && ev->is_array())
        for (const json& e : *ev) evidence += (evidence.empty() ? "" : "<br>") + html_escape(str(e, "text"));
      s += "<tr><td class=\"num\">" + html_escape(format_count(number_at(o, "seq"))) +
           "</td><td class=\"num\">" + html_escape(format_ns(number_at(o, "value_ns"))) + "</td><td>" +
           (evidence.empty() ? std::string("unexplained") : evidence) + "</td><td>" +
           html_escape(str(o, "split")) + "</td></tr>";
    }
    s += "</table></details>";
  }
  const auto limits = tail.find("limits");
  if (limits != tail.end() && limits->is_array() && !limits->empty()) {
    s += "<p class=\"meta\">What the hosts could not show:</p><ul class=\"notes\">";
    for (const json& l : *limits)
      if (l.is_string()) s += "<li>" + html_escape(l.get<std::string>()) + "</li>";
    s += "</ul>";
  }
  // A tool's per-sample join keeps the whole run's beside it.
  if (tail.contains("over_run"))
    s += "<p class=\"meta\">" + html_escape(str(tail, "join")) + "</p>" + over_run_table(tail);
  return s + "</div>";
}

}  // namespace labgate::report::html

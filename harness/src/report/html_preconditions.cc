// report.html's precondition table: one row per rule, the hosts side by side.
#include <algorithm>
#include <map>
#include <vector>

#include "html_sections.h"
#include "labgate/report/markup.h"

namespace labgate::report::html {

using results::CheckRecord;
using results::CheckVerdict;

std::string pill(const std::string& verdict) {
  std::string cls = verdict == "pass"    ? "pass"
                    : verdict == "fail"  ? "fail"
                    : verdict == "error" ? "error"
                                         : "skip";
  return "<span class=\"pill " + cls + "\">" + html_escape(verdict) + "</span>";
}

namespace {

std::string verdict_name(CheckVerdict v) {
  return v == CheckVerdict::kNotCheckable ? "not checkable" : to_string(v);
}

std::string cell(const CheckRecord& c) {
  const std::string cls = c.verdict == CheckVerdict::kPass   ? "ok"
                          : c.verdict == CheckVerdict::kFail ? "bad"
                                                             : "na";
  const std::string tip =
      c.message.empty() ? c.source : c.message + (c.source.empty() ? "" : " (" + c.source + ")");
  const std::string shown =
      c.verdict == CheckVerdict::kNotCheckable && c.found.empty() ? "not checkable" : c.found;
  return "<td class=\"found " + cls + "\" title=\"" + html_escape(tip) + "\">" + html_escape(shown) + "</td>";
}

}  // namespace

std::string preconditions(const results::RunResult& run) {
  if (run.checks.empty()) return "";
  // Host columns in profile order, then any host only the checks mention.
  std::vector<std::string> hosts;
  for (const auto& h : run.hosts) hosts.push_back(h.name);
  for (const auto& c : run.checks)
    if (c.host != "pair" && std::find(hosts.begin(), hosts.end(), c.host) == hosts.end())
      hosts.push_back(c.host);
  std::vector<std::string> rules;
  std::map<std::string, std::map<std::string, const CheckRecord*>> by_rule;
  for (const auto& c : run.checks) {
    if (!by_rule.count(c.rule)) rules.push_back(c.rule);
    by_rule[c.rule][c.host] = &c;
  }
  int pass = 0, fail = 0, na = 0;
  for (const auto& c : run.checks)
    (c.verdict == CheckVerdict::kPass ? pass : c.verdict == CheckVerdict::kFail ? fail : na)++;

  std::string s = "<section class=\"card\" id=\"preconditions\"><h2>Preconditions</h2><p class=\"meta\">" +
                  std::to_string(run.checks.size()) + " checks: " + std::to_string(pass) + " passed, " +
                  std::to_string(fail) + " failed, " + std::to_string(na) +
                  " not checkable. Values are what each host reported; hover a cell for its source.</p>";
  s += "<table class=\"checks\"><thead><tr><th>Rule</th>";
  for (const auto& h : hosts) s += "<th>host " + html_escape(h) + ": found</th>";
  s += "<th>Expected</th><th>Verdict</th></tr></thead><tbody>";
  for (const auto& rule : rules) {
    const auto& row = by_rule[rule];
    std::string expected;
    bool any_fail = false, all_na = true;
    for (const auto& [host, c] : row) {
      if (expected.empty()) expected = c->expected;
      any_fail |= c->verdict == CheckVerdict::kFail;
      all_na &= c->verdict == CheckVerdict::kNotCheckable;
    }
    s += std::string("<tr") + (any_fail ? " class=\"failed\"" : "") + "><td class=\"rule\">" +
         html_escape(rule) + "</td>";
    if (const auto it = row.find("pair"); it != row.end()) {
      // A rule across hosts (same_on_all_hosts) shows its values in one cell.
      CheckRecord merged = *it->second;
      s += cell(merged).insert(3, " colspan=\"" + std::to_string(hosts.size()) + "\"");
    } else {
      for (const auto& h : hosts) {
        const auto c = row.find(h);
        s += c == row.end() ? std::string("<td class=\"found none\">&#8212;</td>") : cell(*c->second);
      }
    }
    s += "<td class=\"expected\">" + html_escape(expected) + "</td><td>" +
         pill(any_fail ? "fail"
              : all_na ? "not checkable"
                       : "pass") +
         "</td></tr>";
  }
  s += "</tbody></table>";

  std::string failures;
  for (const auto& c : run.checks) {
    if (c.verdict == CheckVerdict::kPass) continue;
    failures += "<li>" + pill(verdict_name(c.verdict)) + " <b>" + html_escape(c.test_name()) +
                "</b> &#8212; " +
                html_escape(c.message.empty() ? "found " + c.found + ", expected " + c.expected : c.message);
    if (!c.fix.empty()) failures += "<pre class=\"fix\">" + html_escape(c.fix) + "</pre>";
    failures += "</li>";
  }
  if (!failures.empty())
    s += "<h3>Failed and not checkable, with the fix</h3><ul class=\"failures\">" + failures + "</ul>";
  return s + "</section>";
}

}  // namespace labgate::report::html

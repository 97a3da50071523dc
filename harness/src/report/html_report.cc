// report.html: page skeleton, styles, run summary, test overview and the
// small inline self-check script the browser test reads.
#include "labgate/report/html_report.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "html_sections.h"
#include "labgate/report/format.h"
#include "labgate/report/markup.h"
#include "labgate/report/sweep_chart.h"

namespace labgate::report {

using results::RunResult;

namespace {

constexpr const char* kStyle = R"css(
:root{--pass:#15803d;--fail:#dc2626;--line:#e5e7eb;--muted:#6b7280}
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#111827;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1380px;margin:0 auto;padding:20px 24px 40px}
h1,h2,h3{margin:0 0 8px}
h2{font-size:18px}h3{font-size:15px;display:flex;align-items:center;gap:10px}
.banner{display:flex;align-items:baseline;gap:18px;flex-wrap:wrap;padding:14px 20px;border-radius:8px;color:#fff}
.banner h1{font-size:24px;letter-spacing:.04em}
.banner.passed{background:var(--pass)}.banner.failed{background:var(--fail)}
.banner.error{background:#7f1d1d}.banner.incomplete{background:#b45309}
.banner .sub{opacity:.92}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:14px 0}
.meta{color:#374151;margin:4px 0 10px}
.warn{background:#fef3c7;border-left:4px solid #d97706;padding:6px 10px;margin:6px 0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(210px,1fr));gap:10px 24px;margin-bottom:10px}
.grid .k{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.grid .v{font-weight:500;overflow-wrap:anywhere}
.grid .v.bad{color:var(--fail);font-weight:600}
table.hosts{width:auto;min-width:520px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:#f9fafb;font-weight:600;color:#374151;white-space:nowrap}
.num{text-align:right;font-family:ui-monospace,"SF Mono",Menlo,Consolas,monospace;white-space:nowrap}
td.neg{color:var(--fail);font-weight:600}td.pos{color:var(--pass)}
tr.failed td:first-child{box-shadow:inset 3px 0 0 var(--fail)}
td.found{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
td.found.ok{background:#f0fdf4}td.found.bad{background:#fef2f2;color:#991b1b;font-weight:600}
td.found.na{background:#f9fafb;color:var(--muted)}td.found.none{color:#d1d5db}
td.rule,td.expected{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.pill{display:inline-block;padding:1px 9px;border-radius:999px;font-size:12px;font-weight:600;white-space:nowrap}
.pill.pass{background:#dcfce7;color:#166534}.pill.fail{background:#fee2e2;color:#991b1b}
.pill.error{background:#fde68a;color:#78350f}.pill.skip{background:#e5e7eb;color:#374151}
pre{white-space:pre-wrap;margin:6px 0;padding:8px 10px;border-radius:6px;font-size:12.5px}
pre.failure{background:#fef2f2;border:1px solid #fecaca;color:#7f1d1d}
pre.fix{background:#f8fafc;border:1px solid var(--line)}
ul.failures li{margin:6px 0}
.charts{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px;margin-top:12px}
.charts figure{margin:0}
.charts svg{display:block;width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
details{margin-top:8px}summary{cursor:pointer;color:#374151}
a{color:#1d4ed8;text-decoration:none}a:hover{text-decoration:underline}
footer{color:var(--muted);font-size:12px;margin-top:18px}
@media (max-width:1000px){.charts{grid-template-columns:1fr}}
)css";

// Marks the page so a headless browser can tell "rendered" from "broke":
// data-lg-status is "ok" only when the script ran without errors and every
// chart the C++ drew is in the DOM with a non-empty box.
constexpr const char* kScript = R"js(
(function () {
  var errors = [];
  window.addEventListener('error', function (e) {
    errors.push(String(e.message));
    document.body.setAttribute('data-lg-status', 'js-error: ' + errors.join('; '));
  });
  function check() {
    var want = Number(document.body.getAttribute('data-lg-charts'));
    var svgs = document.querySelectorAll('svg.lg-chart');
    var empty = [];
    for (var i = 0; i < svgs.length; i++) {
      var b = svgs[i].getBBox();
      if (!(b.width > 0 && b.height > 0)) empty.push(svgs[i].getAttribute('aria-label'));
    }
    if (errors.length) return;
    document.body.setAttribute('data-lg-status', svgs.length === want && empty.length === 0
        ? 'ok' : 'charts ' + svgs.length + '/' + want + (empty.length ? ', empty: ' + empty.join(', ') : ''));
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', check); else check();
})();
)js";

std::string banner_class(const RunResult& run) {
  if (!run.exit_code) return "incomplete";
  if (*run.exit_code == 0) return "passed";
  if (*run.exit_code == 1) return "failed";
  return "error";
}

// The banner's second line: never "conforming" unless every precondition was checked and held.
std::string conformance_banner(const RunResult& run) {
  switch (run.conformance()) {
    case results::Conformance::kYes: return "conforming system";
    case results::Conformance::kNo: return "NON-CONFORMING system";
    case results::Conformance::kNotChecked: return "conformance NOT CHECKED";
  }
  return "";
}

std::string summary_field(const std::string& name, const std::string& value_html, bool bad = false) {
  return "<div><div class=\"k\">" + html_escape(name) + "</div><div class=\"v" + (bad ? " bad" : "") + "\">" +
         value_html + "</div></div>";
}

// "2024-05-01 12:00:00 UTC": the stored ISO form, made easier on the eye.
std::string display_time(results::Clock::time_point t) {
  std::string s = results::format_time(t);  // 2024-05-01T12:00:00.000Z
  return s.substr(0, 10) + " " + s.substr(11, 8) + " UTC";
}

// Which schedule each mesh test ran, once per test: concurrent pairs share a switch.
std::string mesh_schedules(const results::RunResult& run) {
  std::vector<std::pair<std::string, std::string>> seen;  // test name, schedule
  std::map<std::string, int> rounds;
  for (const auto& t : run.tests) {
    if (t.mesh_schedule.empty()) continue;
    if (std::find(seen.begin(), seen.end(), std::pair(t.name, t.mesh_schedule)) == seen.end())
      seen.emplace_back(t.name, t.mesh_schedule);
    rounds[t.name] = std::max(rounds[t.name], t.round);
  }
  std::string s;
  for (const auto& [name, schedule] : seen)
    s += "<p class=\"meta\">Mesh <b>" + html_escape(name) + "</b>: schedule " + html_escape(schedule) +
         (schedule == "disjoint"
              ? " (" + std::to_string(rounds[name]) +
                    " rounds; the pairs of a round were measured at the same time and shared the switch)"
              : std::string(" (one pair at a time)")) +
         ".</p>";
  return s;
}

std::string summary(const RunResult& run) {
  std::string duration = "not finished";
  if (run.end_time)
    duration = format_duration(std::chrono::duration<double>(*run.end_time - run.start_time).count());
  int tp = 0, tf = 0, te = 0, tn = 0;
  for (const auto& t : run.tests)
    (t.verdict == results::TestVerdict::kPass     ? tp
     : t.verdict == results::TestVerdict::kFail   ? tf
     : t.verdict == results::TestVerdict::kNotRun ? tn
                                                  : te)++;
  std::string s = "<section class=\"card\" id=\"summary\"><h2>Run</h2><div class=\"grid\">";
  s += summary_field("Profile", "<code>" + html_escape(run.profile_path) + "</code>");
  s += summary_field("Lab", html_escape(run.lab_name));
  s += summary_field("Run", "<code>" + html_escape(run.run_id) + "</code>");
  s += summary_field("labgate version", html_escape(run.labgate_version));
  s += summary_field("Started", html_escape(display_time(run.start_time)));
  s += summary_field("Ended",
                     run.end_time ? html_escape(display_time(*run.end_time)) : std::string("not finished"));
  s += summary_field("Duration", html_escape(duration));
  s += summary_field("Exit code",
                     run.exit_code ? std::to_string(*run.exit_code) + " (" + html_escape(run.verdict()) + ")"
                                   : std::string("none yet"));
  const results::Conformance conformance = run.conformance();
  const std::string conforming_word = conformance == results::Conformance::kYes  ? "yes"
                                      : conformance == results::Conformance::kNo ? "no"
                                                                                 : "not checked";
  s += summary_field("Conforming", html_escape(conforming_word + ": " + run.conformance_why()),
                     conformance != results::Conformance::kYes);
  int cp = 0, cf = 0, cn = 0;
  for (const auto& c : run.checks)
    (c.verdict == results::CheckVerdict::kPass ? cp : c.verdict == results::CheckVerdict::kFail ? cf : cn)++;
  s += summary_field("Preconditions",
                     std::to_string(cp) + " held, " + std::to_string(cf) + " failed, " + std::to_string(cn) +
                         " not checkable",
                     cf + cn > 0);
  s +=
      summary_field("Measurements",
                    std::to_string(tp) + " passed, " + std::to_string(tf) + " failed, " + std::to_string(te) +
                        " could not run" + (tn ? ", " + std::to_string(tn) + " not started" : std::string()),
                    tf + te + tn > 0);
  s += "</div>";
  if (!run.hosts.empty()) {
    s +=
        "<table class=\"hosts\"><thead><tr><th>Host</th><th>Management address</th><th>Test address</th></tr>"
        "</thead><tbody>";
    for (const auto& h : run.hosts)
      s += "<tr><td><b>" + html_escape(h.name) + "</b></td><td><code>" + html_escape(h.address) +
           "</code></td><td><code>" + html_escape(h.test_address) + "</code></td></tr>";
    s += "</tbody></table>";
  }
  if (!run.overrides.empty()) {
    // The profile.toml beside this report is the file as written: say what won over it.
    s += "<p class=\"warn\">Run with command-line overrides, which win over the profile:</p>"
         "<table class=\"overrides\"><thead><tr><th>Override</th><th>Test</th><th>Replaced</th></tr></thead><tbody>";
    for (const auto& o : run.overrides) {
      const std::string flag = "<code>" + html_escape(profile::override_flag(o.parameter) + " " + o.value) + "</code>";
      if (o.replaced.empty()) s += "<tr><td>" + flag + "</td><td colspan=\"2\">no test has a " + html_escape(o.parameter) + "</td></tr>";
      for (const auto& v : o.replaced)
        s += "<tr><td>" + flag + "</td><td>" + html_escape(v.test) + "</td><td>" + html_escape(v.was) + "</td></tr>";
    }
    s += "</tbody></table>";
  }
  if (run.imported)
    s += "<p class=\"warn\" id=\"imported\">Imported from a saved " + html_escape(run.imported->tool) +
         " output, not measured by labgate: <code>" + html_escape(run.imported->file) + "</code> (sha256 <code>" +
         html_escape(run.imported->sha256) + "</code>); started: " + html_escape(run.imported->time_source) +
         "; no precondition was checked.</p>";
  if (!run.error.empty()) s += "<pre class=\"failure\">" + html_escape(run.error) + "</pre>";
  for (const auto& w : run.warnings) s += "<p class=\"warn\">" + html_escape(w) + "</p>";
  return s + mesh_schedules(run) + "</section>";
}

std::string overview(const RunResult& run) {
  if (run.tests.empty()) return "";
  std::string s =
      "<section class=\"card\" "
      "id=\"tests\"><h2>Measurements</h2><table><thead><tr><th>Suite</th><th>Test</th>"
      "<th>Pair</th><th>Metric</th><th class=\"num\">p50</th><th class=\"num\">p99</th><th "
      "class=\"num\">p99.9</th>"
      "<th class=\"num\">max</th><th>Figure</th><th>Verdict</th></tr></thead><tbody>";
  for (std::size_t i = 0; i < run.tests.size(); ++i) {
    const auto& t = run.tests[i];
    s += std::string("<tr") + (t.verdict == results::TestVerdict::kPass ? "" : " class=\"failed\"") +
         "><td>" + html_escape(t.suite_name()) + "</td><td><a href=\"#test-" + std::to_string(i) + "\">" +
         html_escape(t.name) + "</a></td><td>" + html_escape(t.pair) + "</td><td>" + html_escape(t.metric) +
         "</td>";
    s += html::figure_cells(t) + "<td>" + html::pill(to_string(t.verdict)) + "</td></tr>";
  }
  return s + "</tbody></table></section>";
}

}  // namespace

std::string html_report(const RunResult& run) {
  int charts = 0;
  std::string tests;
  for (std::size_t i = 0; i < run.tests.size(); ++i)
    tests += html::test_section(run.tests[i], "test-" + std::to_string(i), charts);
  const std::string sweeps = sweep_section(run, charts);
  const std::string verdict = run.verdict();
  std::string upper = verdict;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string title = "labgate " + verdict + ": " + run.lab_name + " " + run.run_id;
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<title>" +
         html_escape(title) + "</title><style>" + kStyle +
         "</style></head>\n"
         "<body data-lg-status=\"pending\" data-lg-charts=\"" +
         std::to_string(charts) +
         "\"><main>"
         "<header class=\"banner " +
         banner_class(run) + "\"><h1>" + html_escape(upper) + "</h1><span class=\"sub\">" +
         html_escape("lab " + run.lab_name + " \u00b7 " + run.run_id) + "</span><span class=\"sub\">" +
         (conformance_banner(run)) + "</span>" +
         (run.imported ? "<span class=\"sub\">IMPORTED from " + html_escape(run.imported->tool) + " output " +
                             html_escape(std::filesystem::path(run.imported->file).filename().string()) + "</span>"
                       : std::string()) +
         "</header>" + summary(run) + html::preconditions(run) + overview(run) + sweeps + tests +
         "<footer>Generated by labgate " + html_escape(run.labgate_version) +
         " from run.json; regenerate with <code>labgate report results/" + html_escape(run.run_id) +
         "</code>. Latencies are " +
         "round trips for rr tests, per-send times for stream tests, clock gaps for "
         "jitter.</footer></main><script>" +
         kScript + "</script></body></html>\n";
}

}  // namespace labgate::report

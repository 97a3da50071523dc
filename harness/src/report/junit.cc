// Writes the merged JUnit XML of a run for Jenkins from the results model alone.
#include "labgate/report/junit.h"

#include "junit_model.h"
#include "labgate/report/markup.h"

namespace labgate::report {

using namespace junit_detail;

namespace {

std::string render_case(const std::string& classname, const Case& k) {
  std::string s =
      "    <testcase" + attr("name", k.name) + attr("classname", classname) + attr("time", seconds(k.time_s));
  s += ">\n";
  if (!k.properties.empty()) {
    s += "      <properties>\n";
    for (const auto& [n, v] : k.properties)
      s += "        <property" + attr("name", n) + attr("value", v) + "/>\n";
    s += "      </properties>\n";
  }
  switch (k.outcome) {
    case Outcome::kPass:
      break;
    case Outcome::kSkipped:
      s += "      <skipped" + attr("message", k.message) + "/>\n";
      break;
    case Outcome::kFailure:
    case Outcome::kError: {
      const char* tag = k.outcome == Outcome::kFailure ? "failure" : "error";
      s += std::string("      <") + tag + attr("message", k.message) + attr("type", k.type) + ">" +
           xml_escape_text(k.detail) + "</" + tag + ">\n";
      break;
    }
  }
  if (!k.out.empty()) s += "      <system-out>" + xml_escape_text(k.out) + "</system-out>\n";
  return s + "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const results::RunResult& run) {
  const Document doc = document_of(run);
  std::string body;
  for (const auto& suite : doc.suites) {
    // Jenkins merges <testsuite>s by name and files each case under its
    // classname (package "lab-pair6", class "Latency"): the identity is in both.
    const std::string qualified = doc.identity + "." + suite.name;
    body += "  <testsuite" + attr("name", qualified) + attr("tests", std::to_string(suite.cases.size())) +
            attr("failures", std::to_string(suite.failures)) + attr("errors", std::to_string(suite.errors)) +
            attr("skipped", std::to_string(suite.skipped)) + attr("time", seconds(suite.time_s)) +
            attr("timestamp", results::format_time(suite.timestamp)) + attr("hostname", doc.hostname) + ">\n";
    body += "    <properties>\n";
    for (const auto& [n, v] : doc.run_properties)
      body += "      <property" + attr("name", n) + attr("value", v) + "/>\n";
    body += "    </properties>\n";
    for (const auto& k : suite.cases) body += render_case(qualified, k);
    if (!doc.warnings.empty()) body += "    <system-out>" + xml_escape_text(doc.warnings) + "</system-out>\n";
    body += "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
         attr("name", "labgate " + doc.identity + " " + run.run_id) + attr("tests", std::to_string(doc.tests)) +
         attr("failures", std::to_string(doc.failures)) + attr("errors", std::to_string(doc.errors)) +
         attr("time", seconds(doc.time_s)) + ">\n" + body + "</testsuites>\n";
}

}  // namespace labgate::report

// Writes junit-strict.xml: the run's JUnit suites in the strict Ant format.
#include "labgate/report/junit_strict.h"

#include <ctime>

#include "junit_model.h"
#include "labgate/report/markup.h"

namespace labgate::report {

using namespace junit_detail;

namespace {

// The strict schema's timestamp has no zone and no fraction: UTC is implied.
std::string strict_time(results::Clock::time_point t) {
  const std::time_t secs = results::Clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

std::string render_strict_case(const std::string& classname, const Case& k) {
  std::string s =
      "    <testcase" + attr("name", k.name) + attr("classname", classname) + attr("time", seconds(k.time_s));
  switch (k.outcome) {
    case Outcome::kPass:
      return s + "/>\n";
    case Outcome::kSkipped:
      return s + ">\n      <skipped" + attr("message", k.message) + "/>\n    </testcase>\n";
    case Outcome::kFailure:
    case Outcome::kError: {
      const char* tag = k.outcome == Outcome::kFailure ? "failure" : "error";
      return s + ">\n      <" + tag + attr("message", k.message) + attr("type", k.type) + ">" +
             xml_escape_text(k.detail) + "</" + tag + ">\n    </testcase>\n";
    }
  }
  return s + "/>\n";
}

}  // namespace

std::string junit_strict_xml(const results::RunResult& run) {
  const Document doc = document_of(run);
  std::string body;
  int id = 0;
  for (const auto& suite : doc.suites) {
    const std::string classname = doc.identity + "." + suite.name;
    body += "  <testsuite" + attr("name", suite.name) + attr("package", doc.identity) +
            attr("id", std::to_string(id++)) + attr("timestamp", strict_time(suite.timestamp)) +
            attr("hostname", doc.hostname) + attr("tests", std::to_string(suite.cases.size())) +
            attr("failures", std::to_string(suite.failures)) + attr("errors", std::to_string(suite.errors)) +
            attr("skipped", std::to_string(suite.skipped)) + attr("time", seconds(suite.time_s)) + ">\n";
    body += "    <properties>\n";
    for (const auto& [n, v] : doc.run_properties)
      body += "      <property" + attr("name", n) + attr("value", v) + "/>\n";
    for (const auto& k : suite.cases)
      for (const auto& [n, v] : k.properties)
        body += "      <property" + attr("name", k.name + "." + n) + attr("value", v) + "/>\n";
    body += "    </properties>\n";
    std::string out = doc.warnings;
    for (const auto& k : suite.cases) {
      body += render_strict_case(classname, k);
      if (!k.out.empty()) out += "--- " + k.name + "\n" + k.out;
    }
    body += "    <system-out>" + xml_escape_text(out) + "</system-out>\n";
    body += "    <system-err></system-err>\n";
    body += "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + body + "</testsuites>\n";
}

}  // namespace labgate::report

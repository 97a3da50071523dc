// End-to-end test of the reports: a results folder written through the results
// API from a synthetic run (histograms recorded from random data), its
// junit.xml validated with xmllint against the Jenkins JUnit schema, its
// report.html opened in headless Chromium (DOM checked, screenshot saved), and
// the `labgate report` / `labgate compare` commands run on it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "labgate/report/junit.h"
#include "labgate/report/publish.h"
#include "labgate/results/atomic_file.h"
#include "labgate/results/run_dir.h"
#include "report/synthetic_run.h"
#include "run_process.h"

namespace labgate::report_test {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;
using ::testing::HasSubstr;

const fs::path kOut = LABGATE_REPORT_TEST_OUT;
const fs::path kXsd = fs::path(LABGATE_SOURCE_DIR) / "tests/report/junit.xsd";
const std::string kLabgate = LABGATE_BINARY;

// A fresh results folder for one test, kept in the test output dir for a look.
results::RunDir publish_run(const results::RunResult& run, const std::string& suffix) {
  // Keep only the latest folder of this test; every test uses its own suffix.
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kOut / "results", ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 16 && name.substr(16, suffix.size()) == suffix) fs::remove_all(e.path(), ec);
  }
  const auto dir = results::RunDir::create(kOut / "results", suffix, results::Clock::now());
  report::publish(dir, run);
  return dir;
}

ProcessResult xmllint(const fs::path& xml, const std::string& log) {
  return run_process({"xmllint", "--noout", "--schema", kXsd.string(), xml.string()}, seconds(60),
                     (kOut / log).string());
}

std::vector<std::string> chromium(const std::vector<std::string>& extra, const fs::path& profile_dir) {
  return chromium_argv(extra, profile_dir.string());
}

TEST(JunitSchema, MergedJunitOfARealisticRunIsValid) {
  const auto dir = publish_run(report::testing::synthetic_run(), "schema");
  const ProcessResult r = xmllint(dir.path() / "junit.xml", "xmllint-valid.log");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("validates"));
}

TEST(JunitSchema, HostileNamesStillGiveValidXml) {
  results::RunResult run = report::testing::synthetic_run(7);
  run.checks[0].rule = "sysctl/\"quoted\" <tag> & \x01\x1b[31m";
  run.checks[6].message = "bad \xff utf-8\nnext line <b>";
  run.tests[0].name = "rr 'x' <&>\x07";
  run.tests[0].failure = "]]> CDATA end & <failure>";
  run.error = "\x02 gate & stuff";
  const auto dir = publish_run(run, "hostile");
  const ProcessResult r = xmllint(dir.path() / "junit.xml", "xmllint-hostile.log");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(JunitSchema, TheSchemaRejectsWhatJenkinsWouldNotRead) {
  // Proves the validation can fail: a testsuite without its required counts.
  const fs::path bad = kOut / "bad-junit.xml";
  results::write_file_atomic(bad,
                             "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"x\">"
                             "<testcase name=\"t\"/></testsuite></testsuites>\n");
  const ProcessResult r = xmllint(bad, "xmllint-bad.log");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("tests"));
}

TEST(Browser, ReportRendersInHeadlessChromiumWithoutErrors) {
  const auto dir = publish_run(report::testing::synthetic_run(), "browser");
  const fs::path html = fs::absolute(dir.path() / "report.html");
  const fs::path profile = kOut / "chromium-profile";
  fs::remove_all(profile);
  fs::create_directories(profile);

  const ProcessResult dom = run_process(chromium({"--dump-dom", "file://" + html.string()}, profile),
                                        seconds(120), (kOut / "chromium-dom.html").string());
  ASSERT_FALSE(dom.timed_out) << "chromium --dump-dom did not finish in 120 s";
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  // The page's own script checked every chart is in the DOM with a non-empty box.
  EXPECT_THAT(dom.output, HasSubstr("data-lg-status=\"ok\""));
  const std::regex chart("<svg class=\"lg-chart\"");
  const auto charts = std::distance(std::sregex_iterator(dom.output.begin(), dom.output.end(), chart),
                                    std::sregex_iterator());
  EXPECT_EQ(charts, 12);
  EXPECT_THAT(dom.output, HasSubstr("Percentile curve of round-trip time"));
  EXPECT_THAT(dom.output, HasSubstr("b/sysctl/net.ipv4.tcp_sack"));

  const fs::path png = kOut / "report.png";
  fs::remove(png);
  const ProcessResult shot = run_process(chromium({"--hide-scrollbars", "--window-size=1400,3000",
                                                   "--screenshot=" + png.string(), "file://" + html.string()},
                                                  profile),
                                         seconds(120), (kOut / "chromium-screenshot.log").string());
  ASSERT_FALSE(shot.timed_out);
  ASSERT_EQ(shot.exit_code, 0) << shot.output;
  ASSERT_TRUE(fs::is_regular_file(png)) << shot.output;
  std::ifstream in(png, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), "\x89PNG\r\n\x1a\n");
  // A blank 1400x3000 page compresses to a few KB; plots and tables do not.
  EXPECT_GT(fs::file_size(png), 100'000u) << "screenshot looks empty";
  std::cout << "screenshot: " << png.string() << "\n";
}

int labgate(const std::vector<std::string>& args, const std::string& log, std::string* output = nullptr) {
  std::vector<std::string> argv = {kLabgate};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run_process(argv, seconds(60), (kOut / log).string());
  if (output) *output = r.output;
  return r.exit_code;
}

TEST(Cli, ReportRegeneratesFromRunJson) {
  const auto dir = publish_run(report::testing::synthetic_run(), "cli-report");
  const std::string junit = results::read_file(dir.path() / "junit.xml");
  fs::remove(dir.path() / "report.html");
  fs::remove(dir.path() / "junit.xml");
  std::string out;
  EXPECT_EQ(labgate({"report", dir.path().string()}, "labgate-report.log", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("report.html"));
  EXPECT_TRUE(fs::is_regular_file(dir.path() / "report.html"));
  EXPECT_EQ(results::read_file(dir.path() / "junit.xml"), junit);

  EXPECT_EQ(labgate({"report", (kOut / "no-such-run").string()}, "labgate-report-bad.log", &out), 2);
  EXPECT_THAT(out, HasSubstr("no-such-run is not a directory"));
}

TEST(Cli, CompareFailsOnRegressionBeyondTheThreshold) {
  const results::RunResult base = report::testing::synthetic_run(1);
  results::RunResult slower = report::testing::synthetic_run(1);
  // Run B: every round trip of tcp_rr 20% slower (recorded again, not edited figures).
  report::testing::LatencyShape shape;
  shape.median_ns = 72'000;
  shape.spike_at_s = 41;
  shape.spike_ns = 1'210'000;
  slower.tests[0] = report::testing::latency_test("tcp_rr_64", "tcp_rr", "a->b", shape, 1,
                                                  {{"p50", 90'000}, {"p99", 140'000}, {"max", 1'300'000}});
  const auto a = publish_run(base, "cmp-a");
  const auto b = publish_run(slower, "cmp-b");
  std::string out;
  EXPECT_EQ(labgate({"compare", a.path().string(), a.path().string(), "--fail-on-regression", "10%"},
                    "labgate-compare-same.log", &out),
            0)
      << out;
  EXPECT_EQ(labgate({"compare", a.path().string(), b.path().string(), "--fail-on-regression", "10%"},
                    "labgate-compare-slower.log", &out),
            1)
      << out;
  EXPECT_THAT(out, HasSubstr("Latency.tcp_rr_64/a->b"));
  EXPECT_THAT(out, HasSubstr("REGRESSION"));
  EXPECT_EQ(labgate({"compare", a.path().string(), b.path().string()}, "labgate-compare-report.log", &out), 0)
      << "without --fail-on-regression compare only reports";
  EXPECT_EQ(
      labgate({"compare", a.path().string(), (kOut / "nope").string()}, "labgate-compare-bad.log", &out), 2);
  EXPECT_EQ(labgate({"compare", a.path().string(), b.path().string(), "--fail-on-regression", "ten"},
                    "labgate-compare-badpct.log", &out),
            2);
  EXPECT_THAT(out, HasSubstr("--fail-on-regression"));
  EXPECT_EQ(labgate({"compare", a.path().string(), b.path().string(), "--stats", "p97x"},
                    "labgate-compare-badstat.log", &out),
            2);
}

}  // namespace
}  // namespace labgate::report_test

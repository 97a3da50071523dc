// One statistic, one number (issue 12): for a netperf -k run with its decade
// histogram, the p99 that `labgate import` writes in run.json, the p99 a live
// netperf case records, the report's table and histogram chart, junit.xml,
// `compare` and the verdict are the same number from the same source ("tool"),
// never the p99 rebuilt from netperf's decade-wide buckets. The live case is the
// gate's real path from the tool driver on (tools::run_tool_test over a scripted
// transport that returns the saved netperf output as the client's stdout, then
// record_case and the results writer); only the SSH hop to the hosts is scripted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "labgate/gate/case_step.h"
#include "labgate/gate/import_run.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"
#include "labgate/report/compare.h"
#include "labgate/report/format.h"
#include "labgate/report/markup.h"
#include "labgate/results/atomic_file.h"
#include "labgate/results/run_dir.h"
#include "labgate/stats/histogram.h"
#include "labgate/tools/tool_driver.h"
#include "labgate/transport/fake_transport.h"
#include "results/temp_dir.h"
#include "tools/parse_test_util.h"

namespace labgate::gate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using transport::FakeTransport;

const std::string kSaved = tools::test_util::kToolFixtures +
                           "netperf/000-01.txt";  // seed 000: netperf -k P99_LATENCY=136 and -v 2 buckets

// /proc/net/tcp with netserver listening on 0.0.0.0:41000 (A028).
const char* kListening =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 00000000:A028 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1\n";

/// A live netperf case of tcp_rr_64_netperf, recorded into a new results folder.
fs::path live_run(const profile::Profile& p, const fs::path& root) {
  const TestCase c = expand_cases(p, "tcp_rr_64_netperf").front();
  FakeTransport a("a"), b("b");
  b.on({"netserver"}, FakeTransport::ok()).on({"cat", "/proc/net/tcp"}, FakeTransport::ok(kListening));
  a.on({"netperf"}, FakeTransport::ok(results::read_file(kSaved)));
  tools::ToolRun t = tools::run_tool_test(*c.spec, a, b, {"198.19.210.2", "198.19.210.1", 41000});
  EXPECT_THAT(t.measurement.parameters.at("client_command"), HasSubstr("netperf "));
  CaseRun run;  // what case_runner's run_tool keeps of a tool run
  run.raw_files = {{"client.out", t.client.out}, {"server.out", t.server.out}};
  run.measurements.push_back(std::move(t.measurement));
  RunBook book(results::RunDir::create(root, "live", results::parse_time("2026-12-01T10:00:00Z")), p, "live");
  book.set_not_checked("-L latency left the preconditions out");
  record_case(book, c, run, results::parse_time("2026-12-01T10:00:00Z"), 120.0);
  book.finish(static_cast<int>(exit_code_of(book.run())));
  book.publish();
  return book.dir().path();
}

TEST(OneStatistic, ImportLiveRunReportJunitCompareAndVerdictReadTheSameP99) {
  results::testing::TempDir root("labgate-one-statistic");
  const profile::Profile p = profile::load_or_throw(tools::test_util::kToolFixtures + "import-profile.toml");
  ImportRequest req;
  req.file = kSaved;
  req.profile = &p;
  req.test = "tcp_rr_64_netperf";
  req.started = results::parse_time("2019-03-12T10:15:00Z");
  const fs::path imported = import_run(root.path() / "imported", req).dir;
  const fs::path live = live_run(p, root.path() / "live");

  const double p99 = 136000;  // ns: netperf's own P99_LATENCY=136 (us)
  const std::string source = "netperf's own p99 (tool)";
  // The decade buckets put p99 elsewhere: a reader that rebuilt it from them would differ.
  const results::RunResult imp = results::RunDir::open(imported).load_run();
  const results::RunResult liv = results::RunDir::open(live).load_run();
  ASSERT_EQ(imp.tests.size(), 1u);
  ASSERT_EQ(liv.tests.size(), 1u);
  const auto buckets = stats::Histogram::from_json(imp.tests[0].measurement.at("histogram"));
  ASSERT_GT(buckets.count(), 0u);
  const double bucket_p99 = static_cast<double>(buckets.percentile(99.0));
  EXPECT_NE(report::format_ns(bucket_p99), report::format_ns(p99));

  for (const fs::path& dir : {imported, live}) {
    SCOPED_TRACE(dir.filename().string());
    // run.json: the figure and its source.
    const nlohmann::json j = nlohmann::json::parse(results::read_file(dir / "run.json"));
    const nlohmann::json& fig = *std::find_if(j["tests"][0]["figures"].begin(), j["tests"][0]["figures"].end(),
                                              [](const nlohmann::json& f) { return f["stat"] == "p99"; });
    EXPECT_EQ(fig["value"], p99);
    EXPECT_EQ(fig["source"], "tool");
    // The verdict judged that number.
    EXPECT_EQ(j["tests"][0]["budget"][0]["stat"], "p99");
    EXPECT_EQ(j["tests"][0]["budget"][0]["observed"], p99);
    EXPECT_EQ(j["tests"][0]["verdict"], "pass");
    // junit.xml: the same number in microseconds, its source beside it.
    const std::string junit = results::read_file(dir / "junit.xml");
    EXPECT_THAT(junit, HasSubstr("<property name=\"p99_us\" value=\"136\"/>"));
    EXPECT_THAT(junit, HasSubstr("<property name=\"p99_us.source\" value=\"" + report::html_escape(source) + "\"/>"));
    // report.html: the measurements table and the figures-and-sources table.
    const std::string html = results::read_file(dir / "report.html");
    EXPECT_THAT(html, HasSubstr("<td class=\"num\">85.0 \u00b5s</td><td class=\"num\">136 \u00b5s</td>"));
    EXPECT_THAT(html, HasSubstr("<tr><th>p99</th><td class=\"num\">136 \u00b5s</td><td>" +
                                report::html_escape(source) + "</td></tr>"));
    // The histogram chart marks the same p50/p99/max, never the buckets' own.
    const std::size_t chart = html.find("Histogram of round-trip time");
    ASSERT_NE(chart, std::string::npos);
    const std::string svg = html.substr(chart, html.find("</svg>", chart) - chart);
    EXPECT_THAT(svg, HasSubstr(">p50 85.0 \u00b5s<"));
    EXPECT_THAT(svg, HasSubstr(">p99 136 \u00b5s<"));
    EXPECT_THAT(svg, HasSubstr(">max 1.10 ms<"));
    EXPECT_THAT(svg, ::testing::Not(HasSubstr(">p99 " + report::format_ns(bucket_p99) + "<")));
  }
  EXPECT_THAT(results::read_file(imported / "report.html"),
              HasSubstr("IMPORTED from netperf output 000-01.txt"));
  EXPECT_THAT(results::read_file(live / "report.html"), ::testing::Not(HasSubstr("IMPORTED")));

  // compare: the imported 2019 run against the live one reads the same p99 on both sides.
  report::CompareOptions o;
  o.fail_on_regression = 0.0;
  const report::Comparison c = report::compare_runs(imp, liv, o);
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_EQ(c.tests[0].key, "Latency.tcp_rr_64_netperf/a->b");
  const auto d = std::find_if(c.tests[0].stats.begin(), c.tests[0].stats.end(),
                              [](const report::StatDelta& s) { return s.stat == "p99"; });
  ASSERT_NE(d, c.tests[0].stats.end());
  EXPECT_EQ(d->a, p99);
  EXPECT_EQ(d->b, p99);
  EXPECT_FALSE(c.regression()) << "the same p99 is no regression even at a 0% threshold";
}

}  // namespace
}  // namespace labgate::gate

// Tests of the import -> results step on recorded tool outputs: a saved
// netperf/sockperf/iperf3 run becomes a results folder through the gate's own
// record path, marked as imported, judged by a profile test's budget exactly as
// a live run of it, or recorded without one; its time, and errors naming file:line.
#include "labgate/gate/import_run.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "labgate/deploy/digest.h"
#include "labgate/gate/records.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"
#include "labgate/results/atomic_file.h"
#include "labgate/results/run_dir.h"
#include "labgate/util/exit_code.h"
#include "results/temp_dir.h"
#include "tools/parse_test_util.h"

namespace labgate::gate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using results::testing::TempDir;

struct Imported {
  TempDir root{"labgate-import"};
  profile::Profile profile = profile::load_or_throw(tools::test_util::kToolFixtures + "import-profile.toml");
  ImportedRun run;
  ImportedRun import(const std::string& file, const std::string& test = "",
                     std::optional<results::Clock::time_point> started = results::parse_time("2019-03-12T10:15:00Z")) {
    ImportRequest r;
    r.file = tools::test_util::kToolFixtures + file;
    r.started = started;
    if (!test.empty()) {
      r.profile = &profile;
      r.test = test;
    }
    return run = import_run(root.path(), r);
  }
};

TEST(ImportRun, NetperfRunBecomesAResultsFolderMarkedImported) {
  Imported t;
  const ImportedRun r = t.import("netperf/000-01.txt", "tcp_rr_64_netperf");
  for (const char* f : {"run.json", "checks.json", "junit.xml", "junit-strict.xml", "metrics.prom", "report.html",
                        "profile.toml", "tests/tcp_rr_64_netperf/a-to-b/measurement.json"})
    EXPECT_TRUE(fs::is_regular_file(r.dir / f)) << f;
  EXPECT_EQ(results::read_file(r.dir / "tests/tcp_rr_64_netperf/a-to-b/000-01.txt"),
            results::read_file(tools::test_util::kToolFixtures + "netperf/000-01.txt"))
      << "the saved output is kept verbatim";
  EXPECT_EQ(r.dir.filename(), "20190312-101500-imported");

  // What compare and trend read: run.json, through the one reader.
  const results::RunResult run = results::RunDir::open(r.dir).load_run();
  const nlohmann::json j = nlohmann::json::parse(results::read_file(r.dir / "run.json"));
  EXPECT_EQ(j.at("format"), "labgate-run-2");
  ASSERT_TRUE(run.imported.has_value());
  EXPECT_EQ(run.imported->tool, "netperf");
  EXPECT_EQ(run.imported->file, tools::test_util::kToolFixtures + "netperf/000-01.txt");
  EXPECT_EQ(run.imported->sha256,
            deploy::sha256_file_hex(tools::test_util::kToolFixtures + "netperf/000-01.txt"));
  EXPECT_EQ(run.imported->time_source, "--started");
  EXPECT_EQ(run.conformance(), results::Conformance::kNotChecked);
  EXPECT_EQ(run.conformance_why(), "imported: no preconditions were checked");
  EXPECT_EQ(j.at("conforming_why"), "imported: no preconditions were checked");
  EXPECT_EQ(run.verdict(), "passed");
  EXPECT_EQ(run.lab_name, "import-test");
  ASSERT_EQ(run.hosts.size(), 2u);
  ASSERT_EQ(run.tests.size(), 1u);
  const results::TestRecord& rec = run.tests[0];
  EXPECT_EQ(rec.test_name(), "tcp_rr_64_netperf/a->b");
  EXPECT_EQ(rec.tool, "netperf");
  EXPECT_EQ(rec.measurement.at("parameters").at("imported_from"),
            tools::test_util::kToolFixtures + "netperf/000-01.txt");
  EXPECT_EQ(rec.conformance, results::Conformance::kNotChecked);
  ASSERT_EQ(rec.budget.size(), 2u);
  EXPECT_EQ(rec.budget[0].stat, "p99");
  EXPECT_EQ(rec.budget[0].observed, 136000.0);
  EXPECT_EQ(rec.started, results::parse_time("2019-03-12T10:15:00Z"));

  EXPECT_THAT(results::read_file(r.dir / "report.html"),
              HasSubstr("IMPORTED from netperf output 000-01.txt"));
  EXPECT_THAT(results::read_file(r.dir / "report.html"), HasSubstr("no precondition was checked"));
  EXPECT_THAT(results::read_file(r.dir / "junit.xml"),
              HasSubstr("name=\"labgate.imported_from\" value=\"" + tools::test_util::kToolFixtures));
  EXPECT_THAT(results::read_file(r.dir / "metrics.prom"),
              HasSubstr("labgate_run_conformance{lab=\"import-test\",state=\"not_checked\"} 1"));
}

TEST(ImportRun, ARegressionInA2019LogFailsExactlyAsALiveRunWould) {
  Imported t;
  // Seed 000's fourth TCP_STREAM run: a 12 ms send stall (avahi-daemon), over tcp_stream_64's 500 us max.
  const ImportedRun r = t.import("netperf/000-04.txt", "tcp_stream_64");
  EXPECT_EQ(r.run.exit_code, 1);
  ASSERT_EQ(r.run.tests.size(), 1u);
  const results::TestRecord& imported = r.run.tests[0];
  EXPECT_EQ(imported.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(imported.failure, HasSubstr("max"));
  EXPECT_THAT(r.run.warnings, ::testing::Contains(HasSubstr("runs builtin today")));

  // The live gate's judge on the same parsed output, for the same test: the same verdict, lines and figures.
  const profile::TestSpec& test = find_test(t.profile, "tcp_stream_64");
  profile::TestSpec spec = test;
  spec.tool = profile::Tool::kNetperf;
  TestCase c = expand_cases(t.profile, "tcp_stream_64").front();
  c.spec = &spec;
  measure::Measurement m =
      read_saved_output(tools::test_util::kToolFixtures + "netperf/000-04.txt", std::nullopt, {test.kind, {}})
          .measurements.at(0);
  const results::TestRecord live = judge_case(c, m, c.pair);
  EXPECT_EQ(live.verdict, imported.verdict);
  EXPECT_EQ(live.failure, imported.failure);
  EXPECT_EQ(results::to_json(live)["budget"], results::to_json(imported)["budget"]);
  EXPECT_EQ(stats::to_json(live.figures), stats::to_json(imported.figures));
}

TEST(ImportRun, WithoutAProfileTheFiguresAreRecordedAndOnlyTheSamplesJudged) {
  Imported t;
  const ImportedRun r = t.import("netperf/000-01.txt");
  ASSERT_EQ(r.run.tests.size(), 1u);
  const results::TestRecord& rec = r.run.tests[0];
  EXPECT_EQ(rec.test_name(), "netperf_tcp_rr/a->b") << "the same name in every import, so compare pairs them";
  EXPECT_TRUE(rec.budget.empty());
  EXPECT_EQ(rec.verdict, results::TestVerdict::kPass);
  EXPECT_EQ(rec.figures.value("p99"), 136000.0);
  EXPECT_TRUE(r.run.hosts.empty());
  EXPECT_THAT(r.run.warnings, ::testing::Contains(HasSubstr("no budget judged these figures")));
  EXPECT_EQ(r.run.conformance(), results::Conformance::kNotChecked);

  // A UDP_RR that stalled on lost replies is not a pass, budget or none.
  const ImportedRun stalled = t.import("netperf/crafted-udp-rr-stalled.txt");
  ASSERT_EQ(stalled.run.tests.size(), 1u);
  EXPECT_EQ(stalled.run.tests[0].verdict, results::TestVerdict::kFail);
  EXPECT_THAT(stalled.run.tests[0].failure, HasSubstr("lost samples"));
  EXPECT_EQ(stalled.run.exit_code, 1);
}

TEST(ImportRun, SockperfAndIperf3AreToldByTheirOutput) {
  Imported t;
  const ImportedRun s = t.import("sockperf/000-02-udp.txt", "udp_rr_64");
  EXPECT_EQ(s.run.imported->tool, "sockperf");
  EXPECT_EQ(s.run.tests.at(0).verdict, results::TestVerdict::kPass) << s.run.tests.at(0).failure;
  const ImportedRun i = t.import("iperf3/iperf312-udp.json", "", std::nullopt);
  EXPECT_EQ(i.run.imported->tool, "iperf3");
  EXPECT_EQ(i.run.tests.at(0).name, "iperf3_udp_stream");
  EXPECT_TRUE(i.run.tests.at(0).figures.find("throughput"));
}

TEST(ImportRun, EachDirectionIperf3SentIsItsOwnPairSenderToReceiver) {
  Imported t;
  // --bidir: both directions, neither dropped; -R: the server's send, b->a.
  for (const char* f : {"iperf3/iperf321-tcp-bidir.json", "iperf3/iperf312-tcp-bidir.txt"}) {
    SCOPED_TRACE(f);
    const ImportedRun r = t.import(f);
    ASSERT_EQ(r.run.tests.size(), 2u);
    EXPECT_EQ(r.run.tests[0].test_name(), "iperf3_tcp_stream/a->b");
    EXPECT_EQ(r.run.tests[1].test_name(), "iperf3_tcp_stream/b->a");
    EXPECT_NE(r.run.tests[0].figures.value("throughput"), r.run.tests[1].figures.value("throughput"));
    EXPECT_TRUE(fs::is_regular_file(r.dir / "tests/iperf3_tcp_stream/b-to-a/measurement.json"));
    EXPECT_EQ(r.run.verdict(), "passed");
  }
  for (const char* f : {"iperf3/iperf321-tcp-reverse.json", "iperf3/iperf312-tcp-reverse.txt"}) {
    SCOPED_TRACE(f);
    const ImportedRun r = t.import(f);
    ASSERT_EQ(r.run.tests.size(), 1u);
    EXPECT_EQ(r.run.tests[0].test_name(), "iperf3_tcp_stream/b->a");
    EXPECT_EQ(r.run.tests[0].measurement.at("host"), "b");
    EXPECT_EQ(r.run.tests[0].measurement.at("parameters").count("iperf3.tcp_srtt_mean_us"), 0u);
  }
}

TEST(ImportRun, StartTimeIsTheToolsOwnElseTheFilesElseStarted) {
  Imported t;
  // iperf3 -J dates its run (start.timestamp.timesecs).
  const ImportedRun i = t.import("iperf3/iperf312-tcp.json", "", std::nullopt);
  EXPECT_EQ(i.run.start_time, results::Clock::time_point(std::chrono::seconds(1796046037)));
  EXPECT_THAT(i.run.imported->time_source, HasSubstr("iperf3's own start timestamp"));
  EXPECT_GT(*i.run.end_time, i.run.start_time) << "ends after its measured time";

  // netperf prints no date: the file's modification time, said as such.
  TempDir dir("labgate-import-mtime");
  const fs::path copy = dir.path() / "tcp_rr-2019.txt";
  fs::copy_file(tools::test_util::kToolFixtures + "netperf/000-01.txt", copy);
  const struct timespec times[2] = {{1552385700, 0}, {1552385700, 0}};  // 2019-03-12T10:15:00Z
  ASSERT_EQ(::utimensat(AT_FDCWD, copy.c_str(), times, 0), 0);
  ImportRequest req;
  req.file = copy.string();
  const ImportedRun n = import_run(t.root.path(), req);
  EXPECT_EQ(n.run.start_time, results::parse_time("2019-03-12T10:15:00Z"));
  EXPECT_THAT(n.run.imported->time_source, HasSubstr("the file's modification time"));
  EXPECT_THAT(n.run.imported->time_source, HasSubstr("netperf printed no date"));

  req.started = results::parse_time("2020-01-02T03:04:05Z");  // --started wins
  EXPECT_EQ(import_run(t.root.path(), req).run.start_time, *req.started);
}

TEST(ImportRun, BadInputNamesTheFileAndLineAndWritesNothing) {
  Imported t;
  auto fails = [&](const std::string& file, const std::string& test, std::optional<profile::Tool> tool) {
    ImportRequest r;
    r.file = file;
    r.tool = tool;
    if (!test.empty()) {
      r.profile = &t.profile;
      r.test = test;
    }
    try {
      import_run(t.root.path(), r);
    } catch (const Failure& f) {
      EXPECT_EQ(f.code(), ExitCode::kUsageError);
      return std::string(f.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(
      fails(tools::test_util::kToolFixtures + "netperf/000-03.txt", "tcp_rr_64_netperf", std::nullopt),
      HasSubstr("000-03.txt:2: this is a tcp_stream run, not the tcp_rr that was asked for"));
  TempDir junk_dir("labgate-import-junk");
  const std::string junk = (junk_dir.path() / "notes.txt").string();
  std::ofstream(junk) << "ran the test again after lunch\nlooked fine\n";
  EXPECT_THAT(fails(junk, "", std::nullopt), HasSubstr("notes.txt:1: neither netperf, sockperf nor iperf3"));
  EXPECT_THAT(fails(tools::test_util::kToolFixtures + "netperf/000-01.txt", "", profile::Tool::kIperf3),
              HasSubstr("000-01.txt:1: not iperf3 -J output"));
  EXPECT_THAT(fails(tools::test_util::kToolFixtures + "netperf/000-01.txt", "nope", std::nullopt),
              HasSubstr("has no test 'nope'"));
  EXPECT_THAT(fails("/nonexistent/run.txt", "", std::nullopt), HasSubstr("/nonexistent/run.txt: cannot read"));
  EXPECT_TRUE(fs::is_empty(t.root.path())) << "a refused import leaves no folder";
}

}  // namespace
}  // namespace labgate::gate

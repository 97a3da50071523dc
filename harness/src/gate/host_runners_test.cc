// The one-host kinds on a fake host answering with recorded outputs: command
// (the cmdrun probe), the disk probe and sysbench fileio (prepare, run, and a
// cleanup that runs whatever happened).
#include "labgate/gate/host_runners.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/records.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

using HostKinds = lt::FakeLabTest;

/// A raw output the runner kept for the results folder.
std::string file(const CaseRun& run, const std::string& name) {
  for (const auto& [n, content] : run.raw_files)
    if (n == name) return content;
  return "(no " + name + ")";
}

const std::string kTrue5 =
    "[[test]]\nname = \"t\"\nkind = \"command\"\non = \"a\"\nargv = [\"true\"]\ncount = 5\n";

TEST_F(HostKinds, ACommandsRunsAreOneMeasurementJudgedOnItsWallTimes) {
  const TestCase c = open_case(kTrue5 + "budget = { max = \"500us\", max_failures = 0 }\n", {"a"});
  lab_.host("a").on(
      {"$RUN/cmdrun"},
      FakeTransport::ok(lt::testdata("harness/src/cmdlatency/testdata/cmdrun-count5-true.json")));
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(lab_.host("a").count({"$RUN/cmdrun"}), 1);
  // The argv goes to the probe as is, after the probe's own options.
  const auto cmd = lab_.host("a").commands().back();
  EXPECT_EQ(cmd.back(), "true");
  EXPECT_THAT(file(run, "command.txt"), HasSubstr("a: /tmp/labgate-fakelab.a."));
  EXPECT_THAT(file(run, "command.txt"), HasSubstr("--count 5 -- true"));
  const results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  EXPECT_EQ(r.metric, "wall time per run");
  EXPECT_EQ(r.figures.value("samples").value_or(0), 5);
  EXPECT_EQ(r.figures.value("max").value_or(0), 833612) << "the slowest of the five recorded runs";
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail) << "833 us is over the 500 us budget";
  EXPECT_THAT(r.failure, HasSubstr("max"));
}

TEST_F(HostKinds, ACmdrunThatCannotRunNamesHostCaseAndWhy) {
  const TestCase c = open_case(kTrue5 + "budget = { max = \"1s\" }\n", {"a"});
  lab_.host("a").on({"$RUN/cmdrun"}, FakeTransport::exit_with(2, "cmdrun: unknown option --frob\n"));
  CaseRun run;
  const std::string msg = could_not_run(c, &run);
  EXPECT_THAT(msg, HasSubstr("host a: t/a: cmdrun exit 2: cmdrun: unknown option --frob"));
  EXPECT_EQ(file(run, "cmdrun.err"), "cmdrun: unknown option --frob\n") << "its stderr is kept";
}

const std::string kDisk =
    "[[test]]\nname = \"rndrd\"\nkind = \"disk_random_read\"\non = \"a\"\ndir = \"/tmp/lgdisk\"\nfile_size = "
    "\"1MiB\"\n"
    "duration = \"300ms\"\nwarmup = \"100ms\"\ninterval = \"100ms\"\n";

TEST_F(HostKinds, TheDiskProbesIopsAndIoTimesAreOneMeasurement) {
  const TestCase c = open_case(kDisk + "budget = { min_iops = 1000, p99 = \"40ms\" }\n", {"a"});
  lab_.host("a").on({"$RUN/disk"},
                    FakeTransport::ok(lt::testdata("harness/src/storage/testdata/disk-read-cached.json")));
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  const results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  EXPECT_EQ(r.metric, "I/O time");
  EXPECT_NEAR(r.figures.value("iops").value_or(0), 570023.333, 0.01);
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass) << r.failure;
  EXPECT_THAT(file(run, "disk.out"), HasSubstr("\"probe\":\"disk\""));
}

TEST_F(HostKinds, TheDiskProbesOwnReasonBeatsItsExitStatus) {
  const TestCase c = open_case(kDisk + "budget = { min_iops = 1000 }\n", {"a"});
  lab_.host("a").on({"$RUN/disk"},
                    transport::RunResult{3,
                                         "",
                                         R"j({"format":"labgate-probe-1","probe":"disk","status":"error",)j"
                                         R"j("error":"O_DIRECT is not supported on /tmp (tmpfs)"})j",
                                         "",
                                         {},
                                         false});
  CaseRun run;
  const std::string msg = could_not_run(c, &run);
  EXPECT_THAT(msg, HasSubstr("host a: rndrd/a: "));
  EXPECT_THAT(msg, HasSubstr("O_DIRECT is not supported on /tmp (tmpfs)"));
}

const std::string kSysbench =
    "[[test]]\nname = \"sb\"\nkind = \"disk_random_read\"\ntool = \"sysbench\"\non = \"a\"\ndir = \"/data\"\n"
    "path = \"/data/lg/file.dat\"\nfile_size = \"64MiB\"\nblock_size = \"16KiB\"\n";

/// Whether `argv` is a sysbench fileio step (run in the test's dir through /bin/sh).
bool fileio(const std::vector<std::string>& argv) {
  return std::find(argv.begin(), argv.end(), "fileio") != argv.end();
}
int fileio_steps(const lt::FakeHost& h) {
  int n = 0;
  for (const auto& c : h.commands()) n += fileio(c);
  return n;
}

/// sysbench 1.0.20 answering by its last word, as the recorded run did.
void sysbench_host(lt::FakeHost& h, transport::RunResult prepare, int* cleanups) {
  h.on({"sysbench", "--version"}, FakeTransport::ok("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"));
  h.respond = [prepare,
               cleanups](const std::vector<std::string>& argv) -> std::optional<transport::RunResult> {
    if (!fileio(argv)) return std::nullopt;
    if (argv.back() == "prepare") return prepare;
    if (argv.back() == "run")
      return FakeTransport::ok(
          lt::testdata("tests/fixtures/seeds-extra/sysbench/sysbench1020-rndrd-direct.txt"));
    if (argv.back() == "cleanup") {
      ++*cleanups;
      return FakeTransport::ok(lt::testdata("tests/fixtures/seeds-extra/sysbench/sysbench1020-cleanup.txt"));
    }
    return std::nullopt;
  };
}

TEST_F(HostKinds, SysbenchPreparesRunsAndCleansUp) {
  const TestCase c = open_case(kSysbench + "budget = { min_iops = 10 }\n", {"a"});
  int cleanups = 0;
  sysbench_host(
      lab_.host("a"),
      FakeTransport::ok(lt::testdata("tests/fixtures/seeds-extra/sysbench/sysbench1020-prepare.txt")),
      &cleanups);
  const CaseRun run = run_case(*session_, c);
  EXPECT_EQ(cleanups, 1);
  EXPECT_EQ(fileio_steps(lab_.host("a")), 3);
  EXPECT_THAT(lab_.host("a").commands().back(), ::testing::Contains("/data/lg"))
      << "cleanup runs in the file's dir";
  ASSERT_EQ(run.measurements.size(), 1u);
  const results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  EXPECT_GT(r.figures.value("iops").value_or(0), 0);
  EXPECT_EQ(run.measurements[0].parameters.at("sysbench"), "1.0");
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass) << r.failure;
}

TEST_F(HostKinds, AFailedSysbenchPrepareStillCleansUpAndSaysWhy) {
  const TestCase c = open_case(kSysbench + "budget = { min_iops = 10 }\n", {"a"});
  int cleanups = 0;
  sysbench_host(lab_.host("a"),
                FakeTransport::exit_with(1, "FATAL: Cannot open file: No space left on device\n"), &cleanups);
  CaseRun run;
  const std::string msg = could_not_run(c, &run);
  EXPECT_THAT(msg, HasSubstr("host a: sb/a: "));
  EXPECT_THAT(msg, HasSubstr("fileio"));
  EXPECT_THAT(msg, HasSubstr("prepare exit 1: FATAL: Cannot open file: No space left on device"));
  EXPECT_EQ(cleanups, 1) << "the test file was left on the host";
  EXPECT_EQ(fileio_steps(lab_.host("a")), 2) << "prepare and cleanup; never run";
}

TEST_F(HostKinds, AMissingSysbenchIsSaidSo) {
  const TestCase c = open_case(kSysbench + "budget = { min_iops = 10 }\n", {"a"});
  lab_.host("a").on({"sysbench"}, FakeTransport::exit_with(127, "sh: sysbench: command not found\n"));
  CaseRun run;
  EXPECT_THAT(could_not_run(c, &run), HasSubstr("host a: sb/a: sysbench is not installed"));
}

}  // namespace
}  // namespace labgate::gate

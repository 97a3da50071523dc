// RunBook: one record per case (a re-run replaces it), counts and conformance in
// run.json and JUnit that match the verdicts, a not-run case skipped in JUnit
// with its reason, and a later step reading what an earlier one published.
#include "labgate/gate/run_book.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/gate_run.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace lt = testing;

results::TestRecord record(const std::string& name, results::TestVerdict v, const std::string& failure = "") {
  results::TestRecord r;
  r.suite = "Latency";
  r.name = name;
  r.pair = "a->b";
  r.kind = "tcp_rr";
  r.verdict = v;
  r.failure = failure;
  r.duration_s = 1.25;
  return r;
}

results::CheckRecord host_check(const std::string& host, results::CheckVerdict v) {
  results::CheckRecord c;
  c.host = host;
  c.rule = "sysctl/net.ipv4.tcp_sack";
  c.verdict = v;
  return c;
}

class Book : public ::testing::Test {
 protected:
  void SetUp() override {
    profile_ = lt::write_profile(tmp_.path(), lt::two_hosts());
    dir_.emplace(results::RunDir::create(tmp_.path() / "results", "nightly", results::Clock::now()));
  }
  std::string read(const std::string& relative) {
    std::ifstream in(dir_->path() / relative);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  lt::TempDir tmp_;
  profile::Profile profile_;
  std::optional<results::RunDir> dir_;
};

TEST_F(Book, ANewRunIsStartedWithTheProfileCopiedBeside) {
  RunBook book(*dir_, profile_, "nightly");
  EXPECT_EQ(book.run().run_id, dir_->id());
  EXPECT_EQ(book.run().lab_name, "fakelab");
  EXPECT_EQ(book.run().suffix, "nightly");
  ASSERT_EQ(book.run().hosts.size(), 2u);
  EXPECT_EQ(book.run().hosts[1].test_address, "192.168.1.2");
  EXPECT_THAT(read("profile.toml"), HasSubstr("name = \"fakelab\""));
}

TEST_F(Book, AStepOpensTheFolderItsStateFileNamesAndAnEmptyOneIsAnError) {
  // What CTest's set-up fixture hands each step: a state file on its command line.
  RunBook(*dir_, profile_, "nightly").checkpoint();  // what run-start leaves: a run.json
  const auto state = tmp_.path() / "current-run";
  { std::ofstream(state) << dir_->path().string() << "\n"; }
  EXPECT_EQ(open_or_create_run_dir("ignored", state.string()).path(), dir_->path());
  { std::ofstream truncated(state); }
  try {
    open_or_create_run_dir("ignored", state.string());
    FAIL() << "an empty state file opened a folder";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(), HasSubstr("--state " + state.string() + " names no run folder"));
  }
}

TEST_F(Book, AResultsPathReplacedMidRunIsSaidOnceAndTheRunStaysWhole) {
  RunBook book(*dir_, profile_, "nightly");
  book.publish();
  EXPECT_TRUE(book.run().warnings.empty());
  // The results folder's parent is swapped for a symlink to an empty folder.
  namespace fs = std::filesystem;
  fs::rename(tmp_.path() / "results", tmp_.path() / "moved");
  fs::create_directory(tmp_.path() / "decoy");
  fs::create_directory_symlink(tmp_.path() / "decoy", tmp_.path() / "results");
  book.put_test(record("rr", results::TestVerdict::kPass));
  book.publish();
  book.publish();
  ASSERT_EQ(book.run().warnings.size(), 1u);
  EXPECT_THAT(book.run().warnings[0],
              HasSubstr(dir_->path().string() + " no longer leads to this run's folder"));
  const fs::path moved = tmp_.path() / "moved" / dir_->id();
  std::ifstream in(moved / "run.json");
  const std::string run_json{std::istreambuf_iterator<char>(in), {}};
  EXPECT_THAT(run_json, HasSubstr("\"rr\""));
  EXPECT_THAT(run_json, HasSubstr("no longer leads"));
  EXPECT_TRUE(fs::is_regular_file(moved / "report.html"));
  EXPECT_TRUE(fs::is_empty(tmp_.path() / "decoy"));
}

TEST_F(Book, PutTestReplacesTheSameCaseAndKeepsOthersInOrder) {
  RunBook book(*dir_, profile_);
  book.put_test(record("rr", results::TestVerdict::kError, "host b: connection refused"));
  book.put_test(record("stream", results::TestVerdict::kPass));
  book.put_test(record("rr", results::TestVerdict::kPass));  // measured again in the same run
  ASSERT_EQ(book.run().tests.size(), 2u);
  EXPECT_EQ(book.run().tests[0].name, "rr");
  EXPECT_EQ(book.run().tests[0].verdict, results::TestVerdict::kPass);
  EXPECT_EQ(book.run().tests[1].name, "stream");
  results::TestRecord other_pair = record("rr", results::TestVerdict::kFail);
  other_pair.pair = "b->a";
  book.put_test(other_pair);
  EXPECT_EQ(book.run().tests.size(), 3u) << "another pair of the same test is its own record";
}

TEST_F(Book, TheCountsAndConformanceInJunitMatchTheVerdicts) {
  RunBook book(*dir_, profile_);
  book.set_checks(
      {host_check("a", results::CheckVerdict::kPass), host_check("b", results::CheckVerdict::kFail)});
  book.put_test(record("p1", results::TestVerdict::kPass));
  book.put_test(record("f1", results::TestVerdict::kFail, "p99 over budget"));
  book.put_test(record("f2", results::TestVerdict::kFail, "max over budget"));
  book.put_test(record("e1", results::TestVerdict::kError, "host a: probe exit 3"));
  book.put_test(record("n1", results::TestVerdict::kNotRun, "not started: interrupted by SIGINT"));
  book.publish();
  EXPECT_EQ(book.run().conformance(), results::Conformance::kNo);
  EXPECT_EQ(exit_code_of(book.run()), ExitCode::kCouldNotRun);
  const std::string junit = read("junit.xml");
  EXPECT_THAT(junit,
              HasSubstr("name=\"fakelab.Latency\" tests=\"5\" failures=\"2\" errors=\"1\" skipped=\"1\""));
  EXPECT_THAT(
      junit,
      HasSubstr("name=\"fakelab.Preconditions\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\""));
  EXPECT_THAT(junit, HasSubstr("<skipped message=\"not started: interrupted by SIGINT\"/>"));
  EXPECT_THAT(junit, HasSubstr("labgate.conforming\" value=\"no\""));
  // run.json says the same.
  const auto run = results::run_result_from_json(nlohmann::json::parse(read("run.json")));
  EXPECT_EQ(run.tests.size(), 5u);
  EXPECT_EQ(run.tests[4].verdict, results::TestVerdict::kNotRun);
  EXPECT_EQ(run.conformance(), results::Conformance::kNo);
  EXPECT_EQ(read("checks.json").find("\"fail\"") != std::string::npos, true);
}

TEST_F(Book, NotCheckedPreconditionsAreNeverConforming) {
  RunBook book(*dir_, profile_);
  book.set_not_checked("-L latency left the preconditions out");
  book.set_not_checked("a second reason is not kept");
  book.put_test(record("p1", results::TestVerdict::kPass));
  book.publish();
  EXPECT_EQ(book.run().conformance(), results::Conformance::kNotChecked);
  EXPECT_EQ(book.run().not_checked_why, "-L latency left the preconditions out");
  EXPECT_THAT(read("junit.xml"), Not(HasSubstr("labgate.conforming\" value=\"yes\"")));
  EXPECT_EQ(exit_code_of(book.run()), ExitCode::kPassed);
}

TEST_F(Book, ACheckpointWritesRunJsonAloneAndPublishTheRest) {
  RunBook book(*dir_, profile_);
  book.put_test(record("p1", results::TestVerdict::kPass));
  book.checkpoint();
  EXPECT_EQ(results::run_result_from_json(nlohmann::json::parse(read("run.json"))).tests.size(), 1u);
  for (const char* f : {"junit.xml", "junit-strict.xml", "report.html", "metrics.prom"})
    EXPECT_FALSE(std::filesystem::exists(dir_->path() / f)) << f << " written by a checkpoint";
  book.publish();
  for (const char* f : {"junit.xml", "junit-strict.xml", "report.html", "metrics.prom"})
    EXPECT_THAT(read(f), HasSubstr("p1")) << f;
}

TEST_F(Book, ALaterStepReadsWhatAnEarlierOnePublished) {
  {
    RunBook first(*dir_, profile_);
    first.set_checks({host_check("a", results::CheckVerdict::kPass)});
    first.set_error("preconditions: host b: facts probe exit 2");
    first.publish();
  }
  RunBook later(results::RunDir::open(dir_->path()), profile_);
  ASSERT_EQ(later.run().checks.size(), 1u);
  EXPECT_EQ(stopped_why(later.run()).value_or(""), "preconditions: host b: facts probe exit 2");
  later.set_error("clean-up: host a");
  EXPECT_EQ(later.run().error, "preconditions: host b: facts probe exit 2; clean-up: host a");
  later.finish(3);
  EXPECT_EQ(later.run().exit_code, 3);
  EXPECT_TRUE(later.run().end_time.has_value());
}

TEST_F(Book, TheFixScriptTakesTransparentHugePagesFromTheFactsTheRunKept) {
  // Host a's facts (written by the preconditions step): huge pages always on.
  // With outliers in the run, fix-tail.sh carries the rule under that fact;
  // host b, whose facts are not kept, gets none.
  RunBook book(*dir_, profile_);
  book.dir().write_facts(
      "a", {{"schema", "labgate.facts/1"},
            {"probe", "facts 0.1.0"},
            {"root", "/"},
            {"cpu",
             {{"transparent_hugepage",
               {{"value", "always"}, {"source", "/sys/kernel/mm/transparent_hugepage/enabled"}}}}}});
  results::TestRecord r = record("rr", results::TestVerdict::kFail);
  r.tail = {{"outliers", {{{"seq", 7}, {"evidence", nlohmann::json::array()}}}}};
  book.put_test(r);
  book.publish();
  const std::string script = read("fix-tail.sh");
  EXPECT_THAT(script,
              HasSubstr("# --- host a: transparent huge pages\n# seen in the facts of host a: transparent "
                        "huge pages always (/sys/kernel/mm/transparent_hugepage/enabled)\n"));
  EXPECT_THAT(script, HasSubstr("echo never > /sys/kernel/mm/transparent_hugepage/enabled\n"));
  EXPECT_THAT(script, Not(HasSubstr("host b")));
}

}  // namespace
}  // namespace labgate::gate

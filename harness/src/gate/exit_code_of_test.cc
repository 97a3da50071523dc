// Tests of the one exit-code policy of a gate run (run_book.h exit_code_of).
#include <gtest/gtest.h>

#include "labgate/gate/run_book.h"

namespace labgate::gate {
namespace {

using results::CheckVerdict;
using results::TestVerdict;

results::TestRecord test(TestVerdict v, const std::string& name = "rr") {
  results::TestRecord r;
  r.verdict = v;
  r.name = name;
  return r;
}
results::CheckRecord check_record(CheckVerdict v) {
  results::CheckRecord r;
  r.verdict = v;
  return r;
}

TEST(ExitCodeOf, PassedOnlyWhenNothingFailedOrErred) {
  results::RunResult run;
  EXPECT_EQ(exit_code_of(run), ExitCode::kPassed);
  run.checks = {check_record(CheckVerdict::kPass), check_record(CheckVerdict::kNotCheckable)};
  run.tests = {test(TestVerdict::kPass)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kPassed);
}

TEST(ExitCodeOf, AFailedCheckOrTestIsOne) {
  results::RunResult run;
  run.checks = {check_record(CheckVerdict::kPass), check_record(CheckVerdict::kFail)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kGateFailed);
  run.checks = {check_record(CheckVerdict::kPass)};
  run.tests = {test(TestVerdict::kPass), test(TestVerdict::kFail)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kGateFailed);
}

TEST(ExitCodeOf, AnErrorRecordOrARunErrorIsThreeEvenBesideFailures) {
  results::RunResult run;
  run.checks = {check_record(CheckVerdict::kFail)};
  run.tests = {test(TestVerdict::kFail), test(TestVerdict::kError)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kCouldNotRun);
  run.tests = {test(TestVerdict::kPass)};
  run.error = "host b: connection refused";
  EXPECT_EQ(exit_code_of(run), ExitCode::kCouldNotRun);
}

// The table every process of a run goes by: `labgate run` (the whole run) and
// each CTest step (its own part of the shared run.json).
TEST(ExitCodeOf, EachProcessAnswersForItsScopeOnly) {
  results::RunResult run;
  run.checks = {check_record(CheckVerdict::kFail)};
  run.tests = {test(TestVerdict::kFail, "rr"), test(TestVerdict::kError, "jitter"),
               test(TestVerdict::kPass, "stream")};
  const ExitScope whole;
  const ExitScope stream{"stream", false};
  const ExitScope rr{"rr", false};
  const ExitScope jitter{"jitter", false};
  const ExitScope preconditions{"", true};
  struct Row {
    const char* what;
    ExitScope scope;
    ExitCode code;
  };
  const Row rows[] = {
      {"the whole run: an error anywhere", whole, ExitCode::kCouldNotRun},
      {"a passing step beside others' failures and errors", stream, ExitCode::kPassed},
      {"a step whose own test failed", rr, ExitCode::kGateFailed},
      {"a step whose own test erred", jitter, ExitCode::kCouldNotRun},
  };
  for (const Row& r : rows) EXPECT_EQ(exit_code_of(run, r.scope), r.code) << r.what;
  run.tests = {test(TestVerdict::kPass, "rr")};
  EXPECT_EQ(exit_code_of(run, rr), ExitCode::kPassed) << "a measurement step does not answer for the rules";
  EXPECT_EQ(exit_code_of(run, preconditions), ExitCode::kGateFailed) << "the preconditions step does";
  run.checks.clear();
  EXPECT_EQ(exit_code_of(run, ExitScope{"rr", false, true}), ExitCode::kGateFailed)
      << "a failure the runner saw outside any record";
  EXPECT_EQ(exit_code_of(run, ExitScope{"rr", false, false, true}), ExitCode::kCouldNotRun) << "a signal";
  // A test named like the start of another is not its part.
  run.tests = {test(TestVerdict::kFail, "rr_64")};
  EXPECT_EQ(exit_code_of(run, rr), ExitCode::kPassed);
  // Its records per pair or CPU are ("rr" with pair "a/cpu2").
  run.tests = {test(TestVerdict::kFail, "rr")};
  run.tests[0].pair = "a/cpu2";
  EXPECT_EQ(exit_code_of(run, rr), ExitCode::kGateFailed);
  run.error = "could not reach the hosts";
  EXPECT_EQ(exit_code_of(run, stream), ExitCode::kCouldNotRun) << "a stopped run stops every step";
}

}  // namespace
}  // namespace labgate::gate

// Tests of the one exit-code policy of a gate run (run_book.h exit_code_of).
#include <gtest/gtest.h>

#include "labgate/gate/run_book.h"

namespace labgate::gate {
namespace {

using results::CheckVerdict;
using results::TestVerdict;

results::TestRecord test(TestVerdict v) {
  results::TestRecord r;
  r.verdict = v;
  return r;
}
results::CheckRecord check(CheckVerdict v) {
  results::CheckRecord r;
  r.verdict = v;
  return r;
}

TEST(ExitCodeOf, PassedOnlyWhenNothingFailedOrErred) {
  results::RunResult run;
  EXPECT_EQ(exit_code_of(run), ExitCode::kPassed);
  run.checks = {check(CheckVerdict::kPass), check(CheckVerdict::kNotCheckable)};
  run.tests = {test(TestVerdict::kPass)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kPassed);
}

TEST(ExitCodeOf, AFailedCheckOrTestIsOne) {
  results::RunResult run;
  run.checks = {check(CheckVerdict::kPass), check(CheckVerdict::kFail)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kGateFailed);
  run.checks = {check(CheckVerdict::kPass)};
  run.tests = {test(TestVerdict::kPass), test(TestVerdict::kFail)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kGateFailed);
}

TEST(ExitCodeOf, AnErrorRecordOrARunErrorIsThreeEvenBesideFailures) {
  results::RunResult run;
  run.checks = {check(CheckVerdict::kFail)};
  run.tests = {test(TestVerdict::kFail), test(TestVerdict::kError)};
  EXPECT_EQ(exit_code_of(run), ExitCode::kCouldNotRun);
  run.tests = {test(TestVerdict::kPass)};
  run.error = "host b: connection refused";
  EXPECT_EQ(exit_code_of(run), ExitCode::kCouldNotRun);
}

}  // namespace
}  // namespace labgate::gate

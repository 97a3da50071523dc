// Test helper: run something that must fail as labgate::Failure with exit 3
// ("could not run") and hand back its message for the test to read.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "labgate/util/exit_code.h"

namespace labgate::failure_test_util {

/// The message of the Failure(kCouldNotRun) `f` throws; "(no failure)" if none.
inline std::string could_not_run_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Failure& e) {
    EXPECT_EQ(e.code(), ExitCode::kCouldNotRun) << e.what();
    return e.what();
  }
  return "(no failure)";
}

}  // namespace labgate::failure_test_util

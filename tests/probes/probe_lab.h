// GoogleTest fixture for tests that need the namespace pair: one pair per test
// suite, created on first use and deleted after the suite. Without root the
// tests FAIL loudly (a skipped gate test is a silent hole) unless
// LABGATE_SKIP_LAB=1 says to skip them.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "netns_pair.h"

namespace labgate::probes_test {

class ProbeLab : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { pair_.reset(); }

  void SetUp() override {
    std::string why;
    if (!lab_possible(&why)) {
      const char* skip = std::getenv("LABGATE_SKIP_LAB");
      if (skip != nullptr && std::string(skip) == "1") GTEST_SKIP() << why;
      FAIL() << why;
    }
    if (!pair_) pair_ = std::make_unique<NetnsPair>();
  }

  NetnsPair& lab() { return *pair_; }

 private:
  static inline std::unique_ptr<NetnsPair> pair_;
};

}  // namespace labgate::probes_test

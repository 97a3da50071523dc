// The tail concept's tests read their recorded run from testdata/.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace labgate::tail {

inline std::string testdata(const std::string& name) {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) + "/harness/src/tail/testdata/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace labgate::tail

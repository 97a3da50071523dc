// For unit tests: a file of the source tree (a recorded probe or tool output) as
// a string; an empty or missing file is a test failure, never an empty input.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace labgate::test_files {

/// LABGATE_SOURCE_DIR/<relative>, whole.
inline std::string source_file(const std::string& relative) {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) + "/" + relative);
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().empty()) throw std::runtime_error("missing or empty test file " + relative);
  return s.str();
}

}  // namespace labgate::test_files

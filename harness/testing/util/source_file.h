// For unit tests: a file of the source tree (a recorded probe or tool output) as
// a string; a missing file is a test failure, never an empty input, and so is an
// empty one unless the test says it may be.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace labgate::test_files {

/// LABGATE_SOURCE_DIR/<relative>, whole, where an empty file is a real input (a
/// command's recorded empty stderr); a missing file is still a test failure.
inline std::string source_file_may_be_empty(const std::string& relative) {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) + "/" + relative);
  if (!in) throw std::runtime_error("missing test file " + relative);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// LABGATE_SOURCE_DIR/<relative>, whole.
inline std::string source_file(const std::string& relative) {
  std::string text = source_file_may_be_empty(relative);
  if (text.empty()) throw std::runtime_error("empty test file " + relative);
  return text;
}

}  // namespace labgate::test_files

// Where a profile value came from (file:line:column), carried into every message
// that talks about it, from the loader's errors to a budget failure at run time.
#pragma once

#include <string>

namespace labgate::profile {

/// A position in a profile file; line and column are 1-based, 0 = unknown.
struct SourcePos {
  std::string file;
  int line = 0;
  int column = 0;
  /// "profile.toml:42:3", or just the file when the line is unknown.
  std::string str() const;
};

}  // namespace labgate::profile

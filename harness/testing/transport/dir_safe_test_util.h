// What a script using transport::dir_safe_shell prints when every directory on
// the way to `dir` passes (root's, sticky, 01777): for a fake host's answer.
#pragma once

#include <string>

#include "labgate/transport/remote_dir.h"

namespace labgate::transport::testing {

inline std::string dir_safe_reply(const std::string& dir) {
  std::string out;
  for (std::size_t i = 0; i < remote_dir_paths(dir).size(); ++i) out += "path 43ff 0 4096\n";
  return out;
}

}  // namespace labgate::transport::testing

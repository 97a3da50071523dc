// What a script using transport::dir_safe_shell prints when every directory on
// the way to `dir` passes (root's, sticky, 01777), or as a fake host's own
// lstat sees them: for a fake host's answer.
#pragma once

#include <cstdio>
#include <string>

#include "labgate/transport/remote_dir.h"

namespace labgate::transport::testing {

inline std::string dir_safe_reply(const std::string& dir) {
  std::string out;
  for (std::size_t i = 0; i < remote_dir_paths(dir).size(); ++i) out += "path 43ff 0 4096\n";
  return out;
}

/// The "path" lines dir_safe prints for `dir` on a host whose lstat is `t`'s
/// (a fake scripted with its probe_dir's stats): up to the first that is
/// absent, a symlink or not a directory, where dir_safe stops.
inline std::string dir_safe_reply_from(Transport& t, const std::string& dir) {
  std::string out;
  for (const std::string& p : remote_dir_paths(dir)) {
    const auto info = t.lstat(p);
    if (!info) return out + "path ABSENT\n";
    char line[64];
    const unsigned type = info->is_symlink ? 0120000u : info->is_dir ? 0040000u : 0100000u;
    std::snprintf(line, sizeof line, "path %x %ld %llu\n", type | info->mode, info->uid,
                  static_cast<unsigned long long>(info->size));
    out += line;
    if (info->is_symlink || !info->is_dir) break;
  }
  return out;
}

}  // namespace labgate::transport::testing

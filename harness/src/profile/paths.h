// Resolving the local file paths a profile names (identity, known_hosts): `~` is
// the user's home, a relative path is relative to the profile's own directory.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace labgate::profile::detail {

struct ResolvedPath {
  std::optional<std::string> path;  ///< absolute, lexically normal
  std::string error;                ///< why not (empty when `path` is set)
};

/// `value` as an absolute path; `base_dir` (absolute) is the profile's directory.
/// The home directory is $HOME, else the password database's entry.
ResolvedPath resolve_local_path(std::string_view value, const std::string& base_dir);

/// The absolute directory holding the profile file `profile_path`.
std::string profile_dir(const std::string& profile_path);

}  // namespace labgate::profile::detail

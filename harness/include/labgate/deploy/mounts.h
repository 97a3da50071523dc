// Which mount holds a path, from /proc/mounts text: how a failed exec in the
// run directory becomes "probe_dir is on a filesystem mounted noexec".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace labgate::deploy {

struct MountEntry {
  std::string device;
  std::string mount_point;
  std::string fstype;
  std::string options;  ///< "rw,nosuid,nodev,noexec,relatime"

  /// True if `option` is one of the comma-separated options.
  bool has_option(std::string_view option) const;
};

/// The mount whose mount point is the longest prefix of `path` (the last one
/// listed wins when several mounts stack on one point, as the kernel does).
/// Mount points in /proc/mounts escape space, tab, newline and backslash as
/// octal (\040); they are decoded.
std::optional<MountEntry> mount_for(const std::string& path, const std::string& proc_mounts);

}  // namespace labgate::deploy

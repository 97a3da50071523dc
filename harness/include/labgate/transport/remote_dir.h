// A remote directory (probe_dir, lease_dir) resolved component by component on its
// host, so a symlink anywhere on the path (probe_dir = "/tmp/etclink/default" with
// etclink -> /etc) cannot send a run, or root under sudo, somewhere else.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/transport/transport.h"

namespace labgate::transport {

/// One directory of the path, as lstat saw it.
struct DirComponent {
  std::string path;  ///< "/tmp", "/tmp/lg" (or "/" when it is the directory)
  Transport::FileInfo info;
};

/// lstats every component of the absolute, normal `dir` below "/", in order. Throws
/// Failure(kCouldNotRun) "`who`: `key` DIR ..." when one is missing, not a
/// directory, a symlink (naming what it resolves to, which the profile may name
/// instead), or writable by every user without the sticky bit (anyone could
/// rename what follows it away). Returns the components, `dir` last.
std::vector<DirComponent> resolve_remote_dir(Transport& t, const std::string& dir, const std::string& who,
                                             const std::string& key);

/// The paths resolve_remote_dir lstats for `dir`, in order: every directory
/// below "/" on the way, `dir` last ("/" only when it is `dir`).
std::vector<std::string> remote_dir_paths(const std::string& dir);

/// resolve_remote_dir's checks (and messages) on lstats already read, one per
/// remote_dir_paths(dir) in order; fewer when the script that read them stopped
/// at a refused one (dir_safe_shell). A path with none is "not reported".
std::vector<DirComponent> check_remote_dir(Transport& t, const std::string& dir,
                                           const std::vector<std::optional<Transport::FileInfo>>& infos,
                                           const std::string& who, const std::string& key);

/// For a script that acts below a directory in the same request that resolves
/// it (issue 23: a round trip fewer): defines the shell function `dir_safe
/// PATH...`, which prints "path " and each PATH's lstat (kStatFormat, or
/// ABSENT) in order and returns 1 at the first one resolve_remote_dir refuses
/// (missing, a symlink, not a directory, writable by all without the sticky
/// bit), printing no more. The caller passes remote_dir_paths(dir), reads the
/// lines with parse_dir_safe and checks them with check_remote_dir.
std::string dir_safe_shell();

/// The "path " lines of such a script's output, in order.
std::vector<std::optional<Transport::FileInfo>> parse_dir_safe(const std::string& out);

/// Why a component the login user `login_uid` relies on could be replaced by
/// someone else: the first one owned by neither root nor that user (uid -1:
/// the transport cannot tell, and nothing is said). Empty when none is.
std::string foreign_owner(const std::vector<DirComponent>& components, long login_uid, const std::string& who,
                          const std::string& key, const std::string& dir);

}  // namespace labgate::transport

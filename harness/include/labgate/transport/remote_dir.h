// A remote directory (probe_dir, lease_dir) resolved component by component on its
// host, so a symlink anywhere on the path (probe_dir = "/tmp/etclink/default" with
// etclink -> /etc) cannot send a run, or root under sudo, somewhere else.
#pragma once

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

/// Why a component the login user `login_uid` relies on could be replaced by
/// someone else: the first one owned by neither root nor that user (uid -1:
/// the transport cannot tell, and nothing is said). Empty when none is.
std::string foreign_owner(const std::vector<DirComponent>& components, long login_uid, const std::string& who,
                          const std::string& key, const std::string& dir);

}  // namespace labgate::transport

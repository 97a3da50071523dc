// File operations over plain command channels through /bin/sh, for a host whose
// SFTP cannot be used (a login shell that prints a banner on stdout corrupts the
// SFTP stream: sshd starts sftp-server through that shell), and the diagnosis of
// a failed remote write (no space, read-only, quota) whichever way it was made.
// Same guarantees as the SFTP path: written beside the target, never over an
// existing name or through a symlink, moved into place atomically.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/transport/stat_line.h"  // parse_stat_line
#include "labgate/transport/transport.h"
#include "labgate/transport/write_failure.h"  // describe_write_failure

namespace labgate::transport {

/// Writes `data` to `remote_path` (mode `mode`) with cat on stdin; a hard link
/// puts it in place, so an existing name (file or symlink) is never replaced.
/// Throws Failure(kCouldNotRun) naming the host, the path and the real cause.
void exec_upload(Transport& t, std::string_view data, const std::string& remote_path, int mode);
/// Reads a remote file with cat; throws Failure if it cannot or if it is larger than `limit`.
std::string exec_read(Transport& t, const std::string& remote_path, std::size_t limit);
/// lstat through stat(1) (coreutils 5.97 has -c); nullopt if nothing has that name.
std::optional<Transport::FileInfo> exec_lstat(Transport& t, const std::string& remote_path);
/// The same for several paths in one command (one round trip), in order.
std::vector<std::optional<Transport::FileInfo>> exec_lstat_each(Transport& t,
                                                                const std::vector<std::string>& remote_paths);

}  // namespace labgate::transport

// One line of `stat -c '%f %u %s'` (or ABSENT) read as a Transport::FileInfo: how
// a host's shell reports an lstat, whether in a file step (exec_files) or in a
// script that also acts on the path (the run directory's mkdir, deploy).
#pragma once

#include <optional>
#include <string>

#include "labgate/transport/transport.h"

namespace labgate::transport {

/// The format every such script gives stat(1) (coreutils 5.97 has -c; stat
/// without -L never follows a symlink): raw mode in hex, owner uid, size.
inline constexpr const char* kStatFormat = "%f %u %s";

/// Parses one such line; nullopt for "ABSENT" (nothing has that name) or an
/// empty line; throws std::invalid_argument for anything else.
std::optional<Transport::FileInfo> parse_stat_line(const std::string& out);

}  // namespace labgate::transport

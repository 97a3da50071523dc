// Why a remote write failed (no space, read-only, quota), asked of the host
// itself: shared by the transport's file uploads and by the lease, which
// writes its holder file into lease_dir with a command of its own.
#pragma once

#include <cstdint>
#include <string>

#include "labgate/transport/transport.h"

namespace labgate::transport {

/// Why a write of `needed` bytes into `dir` fails, from a small test write there
/// and df: "No space left on device; 0 bytes free on /u01", "no space left for
/// it: 147888 bytes needed, 94208 bytes free on /u01", "Read-only file system",
/// "Disk quota exceeded", or what the test write said. Call it before removing
/// what the failed write left, or the space it took is free again. Never throws
/// ("" if the host cannot be asked).
std::string describe_write_failure(Transport& t, const std::string& dir, std::uint64_t needed = 0);

}  // namespace labgate::transport

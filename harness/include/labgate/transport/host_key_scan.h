// `labgate keyscan`'s work: each host's and each jump hop's host key, reached
// through labgate's own SSH stack (libssh, legacy algorithms offered, so an
// OpenSSH 4.3p2 server answers where today's ssh-keyscan cannot), judged against
// the known_hosts labgate would use, and recorded only when asked.
#pragma once

#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/known_hosts.h"

namespace labgate::transport {

struct ScannedKey {
  std::string who;          ///< "jump host 1 of 1 (root@198.18.1.46:22)" or "host a (...)"
  std::string known_hosts;  ///< the file its verdict is from (and written to)
  HostKeyInfo key;
  HostKeyVerdict verdict;
  bool written = false;  ///< appended by --write (only an unknown key ever is)
};

struct HostScan {
  std::string host;
  std::vector<std::string> resolution;  ///< describe_resolution's lines
  std::vector<ScannedKey> keys;         ///< hops first, then the host; stops at a failure
  std::string error;                    ///< why the scan stopped early ("" if it did not)
};

/// Scans host `h` (writes nothing). A jump hop whose key known_hosts does not
/// vouch for is shown but not logged in to (nothing is sent to an unverified
/// server): its host is reached once the hop's key is checked and recorded.
HostScan scan_host(const profile::Host& h);

/// After every host was scanned (so a key written now vouches for nothing in
/// this scan): appends each key whose verdict is kUnknown, once per file and
/// line; never a revoked, changed or other-type one. Marks them written.
void write_unknown_keys(std::vector<HostScan>& scans);

/// "known (line 3 of PATH)", "UNKNOWN", "REVOKED (PATH:4)", ...
std::string describe_verdict(const ScannedKey& k);

}  // namespace labgate::transport

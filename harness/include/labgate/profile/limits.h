// The limits a probe, a tool, the filesystem or the OS put on a profile's values,
// in one table that validate and the argument builders (measure/probe_command,
// tools/tool_commands, deploy) all read, so that what validates can start: each
// refusal says which program or rule sets the limit and what the limit is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "labgate/profile/test_spec.h"

namespace labgate::profile {

/// The message sizes one tool accepts for one kind (paced: the test has a rate).
struct SizeLimit {
  std::uint64_t min = 1;
  std::uint64_t max = 0;
  std::string who;  ///< "the built-in pingpong probe (udp)", "sockperf -m (tcp)"
  std::string why;  ///< why the minimum, when it is above 1 byte
};
SizeLimit message_size_limit(Tool tool, TestKind kind, bool paced);

/// Why this rr/stream test cannot run as written, naming the limit; empty when it
/// can. Validate reports each at its key; the argument builders refuse with the same text.
std::string message_size_refusal(const TestSpec& spec);
std::string rate_refusal(const TestSpec& spec);
/// The built-in probes' series: an interval of at least 1 ms, at most 10 million per run.
std::string interval_refusal(const TestSpec& spec);

/// A test's name is a folder of the results (tests/NAME/...), a JUnit name and a
/// disk test's file name on the host (labgate-NAME.dat), all within NAME_MAX.
inline constexpr std::size_t kMaxTestNameBytes = 128;
/// A host's name is part of a pair's folder name ("a-to-b") and of file names.
inline constexpr std::size_t kMaxHostNameBytes = 64;
/// Why `name` is too long for `what` ("a test name"), or empty.
std::string name_length_refusal(std::string_view name, std::size_t max, const char* what);

/// Linux's limits on one path component and on a whole path.
inline constexpr std::size_t kNameMax = 255;
inline constexpr std::size_t kPathMax = 4096;
/// A remote directory (probe_dir, lease_dir) leaves this much of PATH_MAX to what
/// a run makes below it (its run directory, the probes, the parts of a download).
inline constexpr std::size_t kMaxRemoteDirBytes = kPathMax - 1024;
/// Why `dir` cannot be a remote directory: not absolute, not in normal form
/// ("." or ".." or an empty component, which the host would resolve through
/// whatever symlinks it has), a component over NAME_MAX, or too long. Empty
/// when it can; one trailing '/' is allowed (and dropped by the readers).
std::string remote_dir_refusal(std::string_view dir);

}  // namespace labgate::profile

// tool = "sysbench" for the disk kinds: `sysbench fileio` prepare/run/cleanup
// command lines for 0.4.x (RHEL 5 era, as in seeds 002 and 004) and 1.0.x
// (Debian), and its output parsed into the same Measurement the disk probe gives.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"

namespace labgate::storage {

enum class SysbenchVersion { k04, k10 };

/// From `sysbench --version` ("sysbench 0.4.12", "sysbench 1.0.20") or the first
/// line of any sysbench output; nullopt for anything else (0.5 and 1.1+ included:
/// their options are not checked against labgate's command lines).
std::optional<SysbenchVersion> parse_sysbench_version(const std::string& text);

/// The three steps of a run. Each argv runs `sh -c 'cd "$1" ... exec "$@"'` with
/// the directory and sysbench's words as arguments (sysbench writes its
/// test_file.N in the current directory), so nothing is pasted into a script.
struct SysbenchCommands {
  std::string dir;  ///< where the test files live: the directory of the test's `path`
  std::vector<std::string> prepare, run, cleanup;
  std::chrono::nanoseconds prepare_timeout, run_timeout, cleanup_timeout;
};

/// The command lines for a disk test run by sysbench `version`: one file of
/// file_size, block_size, random read/write/rw (read_mix as --file-rw-ratio),
/// O_DIRECT when `direct`, no periodic fsync (so latency is the I/O's), threads,
/// duration, and --percentile=99 so the p99 budget has a figure.
SysbenchCommands sysbench_commands(const profile::TestSpec& spec, SysbenchVersion version);

/// Why sysbench output could not be judged.
enum class SysbenchFailure { kMalformed, kToolFailed, kDirectUnsupported };

class SysbenchError : public std::runtime_error {
 public:
  SysbenchError(SysbenchFailure kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  SysbenchFailure kind() const { return kind_; }

 private:
  SysbenchFailure kind_;
};

/// Parses `sysbench fileio ... run` output of 0.4.x or 1.0.x (copied from a web
/// page too: non-breaking spaces, elided lines). Sets reported "iops" (reads +
/// writes per second, fsyncs excluded), latency "min"/"mean"/"max" and "p<rank>"
/// in ns (p99 when run with --percentile=99), throughput_bps, and 1.0's
/// --histogram as the histogram. `kind`, when given, must match the test mode the
/// output names. Throws SysbenchError naming `origin`: kDirectUnsupported when
/// O_DIRECT was refused (tmpfs), with the fix.
measure::Measurement parse_sysbench_fileio(const std::string& output, const std::string& origin,
                                           std::optional<profile::TestKind> kind = std::nullopt);

}  // namespace labgate::storage

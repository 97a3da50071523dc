// The counter snapshots of a case folded into the commands it runs anyway (the
// probe server and client): one shell line reads /proc/net/{snmp,netstat,dev},
// runs the probe, and reads them again once it has ended, so "before" and
// "after" cost no channel round trip of their own (issue 16).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::gate {

/// Marker lines framing the snapshots in the command's stdout (\037 never occurs
/// in a probe's JSON, which escapes control characters).
inline constexpr std::string_view kBeforeMarker = "\037labgate-counters-before ";  ///< + cat's status, \n
inline constexpr std::string_view kAfterMarker = "\037labgate-counters-after\n";
inline constexpr std::string_view kEndMarker = "\037labgate-counters-end ";  ///< + cat's status, \n
/// Frames the noise watch's output (issue 25), between the program's and the after snapshot.
inline constexpr std::string_view kWatchMarker = "\037labgate-watch ";  ///< + the watch's status, \n

/// The noise watch probe run beside the program, on the same shell line (no
/// channel of its own): started just before it, stopped (SIGTERM) when it ends.
struct NoiseWatch {
  std::string binary;    ///< the deployed watch probe
  std::string cpus;      ///< "2" or "2,3"; empty: every CPU of the host (the first 16)
  std::string duration;  ///< its own deadline, a backstop ("90s")
  /// Its window (watch_argv only): a long run gets longer windows, so its ring
  /// of 6000 still holds all of it in the same memory.
  std::string interval = "10ms";
};

/// /bin/sh -c SCRIPT labgate-sh ARGV...: prints counters::snapshot_command()'s output (its
/// errors included) and kBeforeMarker with cat's status, runs `argv`, then prints
/// kAfterMarker, the snapshot again and kEndMarker with its status. It exits as
/// `argv` did; a program killed by a signal has the signal raised again, so the
/// transport reports "killed by SIGTERM" as it would for the program alone. A
/// failing cat never keeps the program from running. Plain POSIX sh (RHEL 5's
/// bash 3.2, dash); the transport's own wrapper makes it safe for csh.
/// With `watch`, the watch runs from just before the program until it ended; its
/// output (kept in a file beside the probe, so it never mixes with the
/// program's) follows kWatchMarker and its status.
std::vector<std::string> bracketed_argv(const std::vector<std::string>& argv,
                                        const std::optional<NoiseWatch>& watch = std::nullopt);

/// The watch alone, for a channel of its own (beside an external tool): /bin/sh
/// resolves "all" CPUs as bracketed_argv() does, then execs the watch, which
/// prints its document when its duration ends or it is stopped (SIGTERM).
std::vector<std::string> watch_argv(const NoiseWatch& watch);

/// The program inside a bracketed_argv() command, nullopt for any other argv
/// (what a fake host needs to answer it as the shell would).
std::optional<std::vector<std::string>> bracketed_program(const std::vector<std::string>& argv);

/// One side of a bracketed command's stdout.
struct BracketSnapshot {
  bool seen = false;  ///< its end marker arrived (else the command died before)
  int status = -1;    ///< cat's exit status
  std::string text;   ///< what cat printed: the snapshot, or its error
  /// The snapshot when cat printed one; nullopt otherwise, with the reason in `why`.
  std::optional<std::string> snapshot(std::string& why) const;
};

struct Bracketed {
  BracketSnapshot before;
  std::string body;  ///< the program's own stdout, unchanged
  BracketSnapshot after;
  /// The noise watch's output (its stdout, then its stderr) and exit status,
  /// when the command ran one and got as far as printing it.
  std::optional<std::string> watch;
  int watch_status = -1;
};

/// Splits a bracketed command's stdout (complete or as far as it came). Output
/// without the before marker is all body, with neither snapshot seen.
Bracketed split_bracketed(std::string_view out);

}  // namespace labgate::gate

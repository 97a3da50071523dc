// The lease's remote side: shell scripts (RHEL 5-safe: bash 3.2 or dash,
// coreutils 5.97) for taking, inspecting, refreshing and releasing the lease
// directory, and the parser of what they print.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/lease/holder.h"

namespace labgate::lease {

/// What a take or inspect attempt found on one host.
struct RemoteLeaseState {
  enum class Kind { kTaken, kFree, kHeld, kNotADirectory } kind = Kind::kFree;
  std::optional<Holder> holder;       ///< when held (may be missing while being taken)
  std::optional<long> heartbeat_age;  ///< seconds since the holder's last heartbeat
  std::optional<long> dir_age;        ///< seconds since the lease directory was made
};

/// mkdir the lease dir (atomic) and write stdin into its holder file; otherwise
/// report who holds it and how old its heartbeat is (remote clock both sides).
/// With `resolve` (transport::remote_dir_paths of the lease root), first
/// transport::dir_safe_shell's "path" lines for them, and nothing taken if one
/// is refused: the run's first request resolves and takes (issue 23).
std::vector<std::string> take_argv(const std::string& lease_dir, const std::vector<std::string>& resolve = {});
/// Reports the state without taking.
std::vector<std::string> inspect_argv(const std::string& lease_dir);
/// Touches the heartbeat if the lease is still `run_id`'s; prints "ours" or "lost".
std::vector<std::string> heartbeat_argv(const std::string& lease_dir, const std::string& run_id);
/// Removes the lease only if it is held by `run_id` (never someone else's).
std::vector<std::string> release_argv(const std::string& lease_dir, const std::string& run_id);

/// Parses take_argv's / inspect_argv's output; nullopt if it makes no sense.
std::optional<RemoteLeaseState> parse_state(const std::string& out);

}  // namespace labgate::lease

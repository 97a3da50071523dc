// The few shell scripts deployment runs on a host, as argv for Transport::run.
// They use only what RHEL 5 has (bash 3.2 or dash as /bin/sh, coreutils 5.97,
// grep, tr) and take every path as a positional parameter, never pasted in.
#pragma once

#include <string>
#include <vector>

namespace labgate::deploy {

/// Environment variable every process a run starts carries, set to the run's
/// directory: cleanup kills a recorded group only if its leader still carries
/// it (or is gone), so a pid reused by someone else since is never killed.
inline constexpr const char* kRunMarkerVar = "LABGATE_RUN";

/// mkdir -m 0700 `dir` (fails if anything, even a symlink, has that name), then
/// prints "uid N" (the caller's uid) and "stat MODE UID SIZE" (`dir`'s lstat, as
/// transport::parse_stat_line reads it), and writes the machine's boot id and
/// network namespace into `dir`/boot (what the sweep tells cloned hosts on
/// shared storage apart by) and `owner_note` into `dir`/owner, never over an
/// existing name, but only once the shell has seen `dir` a directory, not a
/// symlink, ours and 0700, and every directory from `probe_dir` up owned by root
/// or us: then "owner written", else "owner refused: WHY" and neither file.
/// One request for what were three round trips (issue 23).
std::vector<std::string> make_private_dir_argv(const std::string& dir, const std::string& probe_dir,
                                              const std::string& owner_note);

/// One exec for a run's start on a host: sweep_leftovers_argv's sweep of
/// `probe_dir`/`prefix`* (each removed directory printed as "swept DIR", each one
/// whose run is not provably over as "kept DIR"), then make_private_dir_argv's
/// mkdir, report and owner note. Fails as mkdir fails.
/// Only safe while holding the lab lease.
std::vector<std::string> sweep_and_make_private_dir_argv(const std::string& dir, const std::string& probe_dir,
                                                         const std::string& prefix, const std::string& owner_note,
                                                         int grace_tenths = 20);

/// Stops every process group recorded in `dir`/pgids and every process whose
/// environment carries the run marker for `dir` (a setsid'd grandchild left the
/// group but not the marker): SIGTERM, SIGKILL after `grace_tenths` tenths of a
/// second; then removes `dir`. Does nothing to a symlink or a non-directory.
std::vector<std::string> cleanup_dir_argv(const std::string& dir, int grace_tenths = 20);

/// cleanup_dir_argv's clean-up of `dir`, then `then` (an argv, e.g. the lab
/// lease's release) in the same exec whatever the clean-up did; prints
/// "labgate-then N" with `then`'s exit status and exits with the clean-up's.
std::vector<std::string> cleanup_dir_then_argv(const std::string& dir, const std::vector<std::string>& then,
                                               int grace_tenths = 20);

/// The same for every directory `probe_dir`/`prefix`* the caller owns, except
/// `keep`, whose run is provably over: leftovers of runs that died (harness
/// killed, connection lost for good) made on this machine in this boot (its
/// `boot` file: boot id and network namespace), or older than a minute without
/// one. Never one another machine made (a clone with the same host key on
/// shared storage): "kept DIR" on stderr. Prints each directory it removed.
/// Only safe while holding the lab lease.
std::vector<std::string> sweep_leftovers_argv(const std::string& probe_dir, const std::string& prefix,
                                              const std::string& keep, int grace_tenths = 20);

}  // namespace labgate::deploy

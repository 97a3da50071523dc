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

/// First transport::dir_safe_shell's "path" lines for `probe_dir`'s components
/// (remote_dir_paths), and nothing more, exit 0, at one it refuses (issue 23:
/// probe_dir's lstat in the same request). Then
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

/// One exec for a run's start on a host: make_private_dir_argv's "path" lines
/// (and nothing else at a refused one), sweep_leftovers_argv's sweep of
/// `probe_dir`/`prefix`* (each removed directory printed as "swept DIR", each one
/// whose run is not provably over as "kept DIR"), then make_private_dir_argv's
/// mkdir, report and owner note. Fails as mkdir fails.
/// Only safe while holding the lab lease.
std::vector<std::string> sweep_and_make_private_dir_argv(const std::string& dir, const std::string& probe_dir,
                                                         const std::string& prefix, const std::string& owner_note,
                                                         int grace_tenths = 20);

/// Where a host keeps the probes earlier runs verified there (issue 23: a far
/// host need not be sent the same 180 KB again): `probe_dir`/labgate-probe-cache.
/// `tag`-u`uid`, private (0700, the login user's), one file `<probe>.<sha256>`
/// per probe. Never matched by a lab's sweep (its run directories are
/// labgate-<lab>.<tag>.<token>); left on the host between runs.
std::string probe_cache_dir(const std::string& probe_dir, const std::string& tag, long uid);

/// One request that gives the run's directory the probe `name` from the cache,
/// if the cache holds a copy whose name says `digest`: copied as `file` (never
/// over an existing name), compared byte for byte with the cached file, made
/// 0700, and run as `file --self-digest` with the run marker for `run_dir`.
/// Prints "cached DIGEST" when it printed `digest`; else "absent", with `file`
/// removed (and a cached copy that printed another digest too), so the caller
/// uploads. Nothing is run unless the cache directory is ours and 0700; a
/// copy that is not complete (cmp) is never run, nor, where the host has
/// sha256sum, a cached file whose bytes are not `digest` (it is removed).
std::vector<std::string> cached_probe_argv(const std::string& run_dir, const std::string& file,
                                           const std::string& cache_dir, const std::string& name,
                                           const std::string& digest);

/// The request after an upload: makes `file` 0700 (exactly: the upload's mode
/// went through the umask), runs `file --self-digest` and prints what it printed,
/// exiting as it did (126: it cannot be executed there). When it printed
/// `digest`, keeps a copy in `cache_dir` (made 0700 if absent; written to a part
/// file, compared, then renamed to `<name>.<digest>`, other digests of `name`
/// removed); the cache is best effort and never fails the request. Its argv
/// ends with `file` and "--self-digest", as the check it replaces did.
std::vector<std::string> verify_and_cache_probe_argv(const std::string& file, const std::string& cache_dir,
                                                     const std::string& name, const std::string& digest);

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

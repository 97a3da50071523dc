// The exact argv of the built-in probes (pingpong, stream, jitter) for one
// profile test, so the latency suite only starts the server, reads its port
// from the listening line, runs the client and parses. Pure.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"

namespace labgate::measure {

/// Which probe program runs a test kind: "pingpong", "stream", "jitter", "disk"
/// or "cmdrun". Throws std::invalid_argument naming a kind no probe serves.
const char* probe_for(profile::TestKind kind);

/// The probe binary a test deploys and runs: probe_for(kind), or its dynamically
/// linked build ("pingpong-dyn") when the test has a `preload` or a `wrapper`,
/// which a kernel-bypass stack needs to hook the probe's socket calls.
std::string probe_binary(const profile::TestSpec& spec);

/// What runs before the probe or tool: `env LD_PRELOAD=<preload>` (when set),
/// then the wrapper's words; empty for a plain test.
std::vector<std::string> launch_prefix(const profile::TestSpec& spec);

/// The server of an rr/stream test, bound to `server_address` (the far host's
/// test address) on the spec's port or 0 (any free one; read it back with
/// parse_listening_line). `probe_dir` is where the probes were deployed.
/// `peer_address` is the client host's test address: the server then answers
/// only it (`--peer`) and resets or ignores anyone else; empty = anyone (only
/// for a probe driven by hand, never by the gate).
/// Throws std::invalid_argument for a jitter test (it has no server).
std::vector<std::string> probe_server_argv(const profile::TestSpec& spec, const std::string& probe_dir,
                                           const std::string& server_address,
                                           const std::string& peer_address = "");

/// The client of an rr/stream test against the server's `port`.
std::vector<std::string> probe_client_argv(const profile::TestSpec& spec, const std::string& probe_dir,
                                           const std::string& server_address, int port);

/// The jitter probe for a jitter test (on each host of spec.on).
std::vector<std::string> probe_jitter_argv(const profile::TestSpec& spec, const std::string& probe_dir);

/// How long the harness may wait for the client (or jitter) before killing it:
/// longer than the probe's own hard deadline, so a probe reports its own error.
std::chrono::nanoseconds probe_client_timeout(const profile::TestSpec& spec);

/// "2s", "250ms", "1500us", "7ns": the largest unit that keeps the value exact.
std::string exact_duration(std::chrono::nanoseconds d);

}  // namespace labgate::measure

// The profile layer's registry of test kinds: what a kind is in a profile (its
// name, the keys it takes and their checks, which tools run it and which
// statistics they produce, its built-in probe). Each kind registers itself from
// its own file, harness/src/kinds/<kind>.cc; the loader and the statistics
// tables read the registry, so they need not name the kind.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "labgate/profile/test_spec.h"

namespace labgate::profile {

struct Profile;
namespace detail {
struct TestDraft;
class Diagnostics;
class TableReader;
}  // namespace detail

/// A key only this kind takes, and why it does not apply to another kind's test
/// ("`argv` is the command a command test runs").
struct KindKey {
  const char* key;
  const char* why;
};

using KindCheck = void (*)(detail::TestDraft&, const Profile&, detail::Diagnostics&);

struct KindTraits {
  TestKind kind;
  const char* name;             ///< the profile's spelling: kind = "command"
  const char* probe = nullptr;  ///< the built-in probe that measures it ("cmdrun"); nullptr: none
  /// Keys it shares with other kinds ("count", "duration", "on", ...): the shared
  /// key table (test_checks.cc) says why one does not fit a kind that does not take it.
  std::vector<std::string> takes;
  std::vector<KindKey> own;  ///< keys only it takes
  /// Shared keys it does not take, said its own way ("a jitter test sends no
  /// messages") instead of the shared table's.
  std::vector<KindKey> refuses;
  bool on_hosts = false;  ///< runs on the host of `on`, not from `from` to `to`
  bool on_many = false;   ///< with on_hosts: on every host `on` lists (else one)
  bool series = false;    ///< a measured series: warm-up and interval checked against the duration
  bool (*tool_runs)(Tool) = nullptr;
  /// Whether `tool` running it reports `stat` (so a budget on it can be judged).
  bool (*produces)(Tool, Stat) = nullptr;
  /// Reads its own keys from a [[test]] or [[defaults.test]] (every registered
  /// kind's, for every test: a key written for the wrong kind is refused by name).
  void (*read)(detail::TableReader&, detail::TestDraft&) = nullptr;
  /// Its own host checks in place of from/to or `on` (udp_multicast: a publisher, subscribers).
  KindCheck check_hosts = nullptr;
  /// Checks of its own keys, after the shared ones; may complete kind defaults.
  KindCheck check = nullptr;
  /// It runs `count` times or for `duration`, not both: a swept or overridden
  /// duration does not apply to a test that writes `count`.
  bool count_or_duration = false;
  /// Its checks apply the tool's or probe's limits (message_size, rate) themselves.
  bool own_limits = false;
  /// From one host's test address to another's: from/to, or a mesh's pairs
  /// (is_network); counter budgets apply when it also produces them.
  bool between_hosts = false;
  /// Why a budget does not apply to it (path_mtu: judged against `mtu`); nullptr:
  /// a budget is required.
  const char* no_budget = nullptr;
  /// What passes between the two hosts, asked through is_rr / is_stream / is_tcp
  /// by the code that differs by it (the probes' and tools' arguments, the tools'
  /// parsers, the limits, the tail): a round trip per message (tcp_rr, udp_rr) or
  /// one-way bulk sends (tcp_stream, udp_stream), over a TCP connection or not.
  bool round_trip = false;
  bool bulk = false;
  bool tcp = false;
};

/// Adds a kind (from a kinds/ file's static registration, before main).
void register_kind(KindTraits traits);
/// The kind's traits; nullptr for a kind not (yet) registered from harness/src/kinds/.
const KindTraits* find_kind(TestKind k);
/// How many times `k` was registered (the kinds test wants 1 for each).
int kind_registrations(TestKind k);

/// The registered kinds in the order of their TestKind values: the registry is
/// the only list of kinds (what `kind = ...` accepts, messages, loops).
std::span<const TestKind> registered_kinds();

/// A kinds/ file's registration: `const profile::KindRegistration kReg{{...}};`
struct KindRegistration {
  explicit KindRegistration(KindTraits traits) { register_kind(std::move(traits)); }
};

/// The histogram statistics: percentiles, max, mean, stddev (mdev and the one-way
/// figures are not a round-trip histogram's).
bool is_latency(Stat s);

}  // namespace labgate::profile

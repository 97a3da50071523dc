// Shared pieces of the rule families: the context a family judges in, result
// builders that keep every message in one shape, and shell helpers for fixes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/checks/check_result.h"
#include "labgate/facts/facts.h"
#include "labgate/profile/profile.h"

namespace labgate::checks::internal {

/// One host being judged; families append to `out`.
struct Ctx {
  const std::string& host;
  const facts::Facts& f;
  const profile::Preconditions& pre;
  std::vector<CheckResult>& out;
};

/// Starts a result for `rule` on the context's host.
CheckResult& start(Ctx& c, const std::string& rule, const std::string& expected);

/// "host b: " + text.
std::string on_host(const std::string& host, const std::string& text);

/// Records a pass: "host b: <what> is <found> as the profile wants".
void pass(CheckResult& r, const std::string& what, const std::string& found, const std::string& source);
/// Records a failure: "host b: <what> is <found>, profile wants <expected>".
void fail(CheckResult& r, const std::string& what, const std::string& found, const std::string& source,
          const std::string& fix);
/// Records a failure with a message of its own (still prefixed "host b: ").
void fail_with(CheckResult& r, const std::string& text, const std::string& found, const std::string& source,
               const std::string& fix);
/// Records "not checkable" with the reason.
void not_checkable(CheckResult& r, const std::string& reason, const std::string& source);

/// The fact's value as shown in messages, or "(absent)".
std::string shown(const facts::Text& t);
/// True when the value is missing for a reason other than "does not exist"
/// (unreadable, not gathered): the gate could not look.
template <class T>
bool unreadable(const facts::Fact<T>& f) {
  return !f.value && !f.missing && !f.error.empty();
}
/// "permission denied at /x" style reason for an unreadable fact.
template <class T>
std::string why_unreadable(const facts::Fact<T>& f) {
  return (f.source.empty() ? std::string("the snapshot") : f.source) + ": " + f.error;
}

/// Fixes are written for the host's kind of system.
enum class Style {
  kRhelSysv,  ///< SysV init: chkconfig/service, /etc/modprobe.conf, GRUB legacy
  kSystemd,   ///< systemctl, /etc/modprobe.d, GRUB 2 or grubby
};
Style style_of(const facts::Facts& f);

/// A shell comment line "# text": line breaks in names from a profile or a host
/// become spaces, so no text can step out of a comment into a command.
std::string note(std::string_view text);
/// Single-quotes for sh: abc -> 'abc', it's -> 'it'\''s'.
std::string sh_quote(std::string_view s);
/// Escapes a literal for a sed basic regular expression and `/` delimiters.
std::string sed_escape(std::string_view s);
/// Whitespace-separated words.
std::vector<std::string> words(std::string_view s);
/// The words joined by single spaces (the inverse of words()).
std::string joined_words(const std::vector<std::string>& ws);
/// Parses a whole decimal integer.
std::optional<long long> to_int(std::string_view s);

/// What an interface's snapshot says about one test address of either family.
struct AddressOnNic {
  std::optional<bool> holds;  ///< nullopt: the addresses of that family could not be read
  std::string found;          ///< the interface's addresses of that family ("(none)" when it has none)
  std::string source;         ///< where they came from
  std::string family;         ///< "IPv4" or "IPv6"
};
/// Whether `i` holds `address` (IPv4 against ipv4_address, IPv6 against
/// ipv6_addresses; any spelling of an IPv6 address matches).
AddressOnNic address_on(const facts::InterfaceFacts& i, const std::string& address);

/// The snapshot's entry for service `name`, or nullptr after marking `r` not
/// checkable because the snapshot does not report it.
const facts::ServiceFacts* reported_service(const Ctx& c, CheckResult& r, const std::string& name);

/// The kernel line the next boot would use once `add` are added and `remove`
/// removed (GRUB legacy), and the command that makes it so, as fix text.
std::string boot_args_fix(const facts::Facts& f, const std::vector<std::string>& add,
                          const std::vector<std::string>& remove);

/// The C-state limit in force and how it was worked out (see check_cpu.cc).
struct CstateLimit {
  std::optional<long long> value;
  std::string source;
  std::string explanation;
};
CstateLimit cstate_in_force(const facts::Facts& f);

// The rule families, one file each.
void check_release(Ctx& c);
void check_cmdline(Ctx& c);
void check_sysctl(Ctx& c);
void check_modules(Ctx& c);
void check_interfaces(Ctx& c);
void check_services(Ctx& c);
void check_cpu(Ctx& c);
/// clock synchronized, max_error, source (check_clock.cc).
void check_clock(Ctx& c);
/// The NIC tuning rules of one present interface (check_nic.cc), from check_interfaces.
void check_nic(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i);
/// The multicast rules of one present interface (check_multicast.cc), from check_interfaces.
void check_multicast(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i);
/// "sysctl -w" is not kept across a boot: the line that keeps it (check_sysctl.cc).
std::string persist_sysctl_fix(const facts::Facts& f, const std::string& key, const std::string& value);
/// services enabled = [...]: enabled at boot and running (check_enabled.cc).
void check_services_enabled(Ctx& c);
/// cpu isolation, clocksource, THP, tuned, and the test_cpus_* rules (check_isolation.cc).
void check_isolation(Ctx& c);
/// The interface that holds the test address of `network` on the context's host, or "".
std::string nic_of_network(const Ctx& c, const std::string& network);

}  // namespace labgate::checks::internal

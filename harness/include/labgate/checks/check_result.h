// The outcome of one precondition rule on one host (or on a pair of hosts).
#pragma once

#include <string>
#include <vector>

namespace labgate::checks {

enum class Verdict {
  kPass,          ///< the host is as the profile wants
  kFail,          ///< it is not: the servers are not fit
  kNotCheckable,  ///< the host cannot show it (e.g. no cpufreq): neither pass nor fail
};

/// "pass", "fail", "not_checkable".
const char* to_string(Verdict v);

/// One host's value in a pair rule, shown side by side with the others.
struct HostValue {
  std::string host;
  std::string value;  ///< "(absent)" when the host has none
  std::string source;
};

struct CheckResult {
  std::string host;      ///< the host, or "pair" for same_on_all_hosts rules
  std::string rule;      ///< "sysctl/net.ipv4.tcp_sack", "service/avahi-daemon", "pair/same/kernel_release"
  std::string expected;  ///< what the profile wants, as text
  std::string found;     ///< what the host has, as text ("(absent)" when nothing)
  std::string source;    ///< where `found` was read: a path, path:line or ioctl
  Verdict verdict = Verdict::kNotCheckable;
  /// One sentence for a failure message or a report cell:
  /// "host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0".
  std::string message;
  std::string reason;              ///< not_checkable: why the host cannot show it
  std::vector<std::string> notes;  ///< further findings, e.g. "the next boot changes this: ..."
  /// What a RHEL 5 sysadmin would run (or do, as # comments) to fix a failure;
  /// empty when nothing is to be done. Never executed by labgate.
  std::string fix;
  bool needs_reboot = false;      ///< the fix takes effect only after a reboot
  std::vector<HostValue> values;  ///< pair rules: every host's value

  /// The test name a dashboard reads: "b/sysctl/net.ipv4.tcp_sack", "pair/same/kernel_release".
  std::string test_name() const;
};

}  // namespace labgate::checks

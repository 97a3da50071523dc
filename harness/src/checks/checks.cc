// The entry points: every per-host family in profile order, then the pair rules.
#include "labgate/checks/checks.h"

#include <algorithm>

#include "rules.h"

namespace labgate::checks {

std::vector<CheckResult> check_host(const std::string& host, const facts::Facts& f,
                                    const profile::Preconditions& pre) {
  std::vector<CheckResult> out;
  internal::Ctx c{host, f, pre, out};
  internal::check_release(c);
  internal::check_cmdline(c);
  internal::check_sysctl(c);
  internal::check_modules(c);
  internal::check_interfaces(c);
  internal::check_services(c);
  internal::check_services_enabled(c);
  internal::check_cpu(c);
  internal::check_isolation(c);
  internal::check_clock(c);
  return out;
}

std::vector<CheckResult> check_all(const std::vector<HostFacts>& hosts, const profile::Preconditions& pre) {
  std::vector<HostFacts> in_scope;
  for (const HostFacts& h : hosts)
    if (pre.hosts.empty() || std::find(pre.hosts.begin(), pre.hosts.end(), h.host) != pre.hosts.end())
      in_scope.push_back(h);
  std::vector<CheckResult> out;
  for (const HostFacts& h : in_scope) {
    std::vector<CheckResult> one = check_host(h.host, *h.facts, pre);
    out.insert(out.end(), std::make_move_iterator(one.begin()), std::make_move_iterator(one.end()));
  }
  std::vector<CheckResult> pair = check_same(in_scope, pre);
  out.insert(out.end(), std::make_move_iterator(pair.begin()), std::make_move_iterator(pair.end()));
  return out;
}

Tally tally(const std::vector<CheckResult>& results) {
  Tally t;
  for (const CheckResult& r : results) {
    if (r.verdict == Verdict::kPass)
      ++t.passed;
    else if (r.verdict == Verdict::kFail)
      ++t.failed;
    else
      ++t.not_checkable;
  }
  return t;
}

}  // namespace labgate::checks

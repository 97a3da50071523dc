// congestion = "..." (seed 002's loop over -Z): before a case runs, both hosts
// must offer the algorithm, else a clear error lists the ones they have.
#include "labgate/gate/congestion_check.h"

#include <chrono>

#include "labgate/netpath/congestion.h"
#include "labgate/transport/connect_all.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

using namespace std::chrono_literals;

std::vector<std::string> congestion_list_command() {
  // 2.6.20+ lists them; RHEL 5 (2.6.18) has only the current one and the modules.
  return {"sh", "-c",
          "cat /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null || "
          "{ cat /proc/sys/net/ipv4/tcp_congestion_control; ls /lib/modules/$(uname -r)/kernel/net/ipv4/; }"};
}

void check_congestion(GateSession& session, const TestCase& c) {
  if (!c.spec->congestion) return;
  // Both hosts at once: one channel round trip per case, not one per host.
  const std::vector<std::string> hosts{c.client, c.server};
  std::vector<transport::RunResult> lists(hosts.size());
  transport::on_each_host(
      hosts.size(),
      [&](std::size_t i) {
        transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
        transport::RunOptions o;
        o.timeout = 10s;
        lists[i] = session.transport(hosts[i]).run(congestion_list_command(), o);
      },
      [&](std::size_t i) { return hosts[i]; })
      .throw_if_any("hosts could not list their TCP congestion controls");
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const std::string& host = hosts[i];
    const transport::RunResult& r = lists[i];
    const auto available = netpath::parse_congestion_list(r.out);
    if (available.empty())
      throw Failure(ExitCode::kCouldNotRun, "host " + host + ": " + c.name() +
                                                ": cannot list the TCP congestion controls (" + r.describe() +
                                                "): " + r.err.substr(0, 200));
    if (auto e = netpath::congestion_error(host, *c.spec->congestion, available))
      throw Failure(ExitCode::kCouldNotRun, c.name() + " [" + c.spec->pos.str() + "]: " + *e);
  }
}

}  // namespace labgate::gate

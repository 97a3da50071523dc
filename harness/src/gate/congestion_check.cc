// congestion = "..." (seed 002's loop over -Z): before a case runs, both hosts
// must offer the algorithm, else a clear error lists the ones they have.
#include "labgate/gate/congestion_check.h"

#include <chrono>

#include "labgate/netpath/congestion.h"
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
  for (const std::string& host : {c.client, c.server}) {
    transport::RunOptions o;
    o.timeout = 10s;
    const auto r = session.transport(host).run(congestion_list_command(), o);
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

// Reading the interconnect's link state after a silent peer (see link_state.h).
#include "labgate/gate/link_state.h"

#include <map>
#include <sstream>

#include "labgate/transport/shell_quote.h"

namespace labgate::gate {

using namespace std::chrono_literals;

std::vector<std::string> link_state_argv() {
  return transport::sh_argv(R"SH(
for d in /sys/class/net/*; do
  echo "link ${d##*/} $(cat "$d/operstate" 2>/dev/null) $(cat "$d/carrier" 2>/dev/null)"
done
ip -o -4 addr show 2>/dev/null || /sbin/ip -o -4 addr show 2>/dev/null
exit 0
)SH",
                            {});
}

std::string link_state_of(const std::string& output, const std::string& address) {
  std::map<std::string, std::pair<std::string, std::string>> links;  // name -> operstate, carrier
  std::string iface;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, name, family, cidr;
    words >> first >> name;
    if (first == "link") {
      std::string oper, carrier;
      words >> oper >> carrier;
      links[name] = {oper, carrier};
    } else if (words >> family >> cidr && family == "inet" && cidr.substr(0, cidr.find('/')) == address) {
      iface = name.substr(0, name.find('@'));
    }
  }
  const auto it = links.find(iface);
  if (iface.empty() || it == links.end()) return "";
  const auto& [oper, carrier] = it->second;
  // operstate "unknown" (no driver support) with a carrier is up; no carrier is down.
  const bool up = carrier == "1" || (carrier.empty() && oper == "up");
  return iface + (up ? " up" : " down") + (carrier == "0" || (!up && carrier.empty()) ? " (no carrier)" : "");
}

std::string interconnect_now(GateSession& session, const std::vector<std::string>& hosts,
                             const std::string& network) {
  std::string out;
  for (const std::string& h : hosts) {
    std::string state;
    try {
      transport::RunOptions o;
      o.timeout = 10s;
      const auto r = session.transport(h).run(link_state_argv(), o);
      if (r.ok()) state = link_state_of(r.out, session.host(h).test_address_of(network));
    } catch (const std::exception&) {
      continue;  // only the hint is lost
    }
    if (!state.empty()) out += (out.empty() ? "" : ", ") + state.insert(state.find(' '), " on host " + h);
  }
  return out.empty() ? "" : "; the interconnect now: " + out;
}

}  // namespace labgate::gate

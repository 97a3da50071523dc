// TCP congestion control names a host offers, and the error for one it lacks.
#include "labgate/netpath/congestion.h"

#include <algorithm>
#include <sstream>

namespace labgate::netpath {

std::vector<std::string> congestion_sources() {
  return {"/proc/sys/net/ipv4/tcp_available_congestion_control", "/proc/sys/net/ipv4/tcp_congestion_control",
          "/lib/modules/$(uname -r)/kernel/net/ipv4/"};
}

std::vector<std::string> parse_congestion_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w) {
    const std::size_t slash = w.rfind('/');
    if (slash != std::string::npos) w = w.substr(slash + 1);
    if (w.ends_with(".ko") || w.ends_with(".ko.xz")) {
      if (!w.starts_with("tcp_")) continue;  // ah4.ko, xfrm4_tunnel.ko: not congestion control
      w = w.substr(4, w.find(".ko") - 4);
      if (w == "diag" || w == "probe") continue;  // tcp_ modules that are not algorithms
    }
    if (!w.empty() && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

std::optional<std::string> congestion_error(const std::string& host, const std::string& wanted,
                                            const std::vector<std::string>& available) {
  if (std::find(available.begin(), available.end(), wanted) != available.end()) return std::nullopt;
  std::string list;
  for (const std::string& a : available) list += (list.empty() ? "" : " ") + a;
  return "host " + host + " has no TCP congestion control \"" + wanted +
         "\"; it has: " + (list.empty() ? "(none listed)" : list) + ". Load it (modprobe tcp_" + wanted +
         ") or sweep only what the kernel offers";
}

}  // namespace labgate::netpath

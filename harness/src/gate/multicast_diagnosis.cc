// Naming why a joined multicast subscriber received nothing (see multicast_diagnosis.h).
#include "labgate/gate/multicast_diagnosis.h"

#include <map>
#include <sstream>

namespace labgate::gate {
namespace {

// The output's sections, split at "@@name" lines.
std::map<std::string, std::string> sections(const std::string& out) {
  std::map<std::string, std::string> s;
  std::istringstream in(out);
  std::string line, cur;
  while (std::getline(in, line)) {
    if (line.rfind("@@", 0) == 0) {
      cur = line.substr(2);
      continue;
    }
    s[cur] += line + "\n";
  }
  return s;
}

// "... dev ic0 ..." -> "ic0" (ip route get), "" if absent.
std::string dev_of(const std::string& route) {
  std::istringstream in(route);
  std::string w, prev;
  while (in >> w) {
    if (prev == "dev") return w;
    prev = w;
  }
  return "";
}

// The interface that holds `address` (ip -o -4 addr show: "3: ic0    inet 198.19.200.2/24 ...").
std::string interface_of(const std::string& addrs, const std::string& address) {
  std::istringstream in(addrs);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string index, name, family, cidr;
    f >> index >> name >> family >> cidr;
    if (family == "inet" && cidr.substr(0, cidr.find('/')) == address) return name;
  }
  return "";
}

// rp_filter of `iface` and of "all" (lines "rp_filter /proc/sys/net/ipv4/conf/IF/rp_filter N").
int rp_filter_of(const std::string& text, const std::string& iface) {
  std::istringstream in(text);
  std::string tag, path;
  int v = 0, top = 0;
  while (in >> tag >> path >> v) {
    if (path == "/proc/sys/net/ipv4/conf/" + iface + "/rp_filter" ||
        path == "/proc/sys/net/ipv4/conf/all/rp_filter")
      top = std::max(top, v);  // the kernel applies the higher of the two
  }
  return top;
}

// Whether `iface`'s flags (ip -o link show) include MULTICAST; true when unknown.
bool multicast_flag(const std::string& links, const std::string& iface) {
  std::istringstream in(links);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string index, name;
    f >> index >> name;
    name = name.substr(0, name.find('@'));
    if (!name.empty() && name.back() == ':') name.pop_back();
    if (name == iface) return line.find("MULTICAST") != std::string::npos;
  }
  return true;
}

}  // namespace

std::vector<std::string> silent_subscriber_command(const std::string& publisher_address,
                                                   const std::string& group) {
  const std::string script =
      "PATH=$PATH:/sbin:/usr/sbin; echo @@rp_filter; for f in /proc/sys/net/ipv4/conf/*/rp_filter; do "
      "echo \"rp_filter $f $(cat $f)\"; done; echo @@addr; ip -o -4 addr show; echo @@link; ip -o link show; "
      "echo @@back; ip -4 route get " +
      publisher_address + "; echo @@group; ip -4 route get " + group + "; true";
  return {"/bin/sh", "-c", script};
}

std::string diagnose_silent_subscriber(const std::string& step_output, const std::string& subscriber,
                                       const std::string& subscriber_address,
                                       const std::string& publisher_address, const std::string& group) {
  auto s = sections(step_output);
  const std::string lead =
      subscriber + " joined " + group + " on " + subscriber_address + " but received nothing: ";
  const std::string iface = interface_of(s["addr"], subscriber_address);
  if (iface.empty())
    return lead + "no interface holds " + subscriber_address + " (the join had no interface to be made on)";
  const std::string back = dev_of(s["back"]);
  const int rp = rp_filter_of(s["rp_filter"], iface);
  if (!multicast_flag(s["link"], iface))
    return lead + "the MULTICAST flag is off on " + iface + " (ip link set " + iface +
           " multicast on; [preconditions.interfaces." + iface + "] multicast.flag checks it)";
  if (rp == 1 && !back.empty() && back != iface)
    return lead + "rp_filter is strict (1) on " + iface + " and the route back to the publisher " +
           publisher_address + " goes via " + back + ", not " + iface +
           ": the kernel's reverse path filter drops the feed. Set net.ipv4.conf." + iface +
           ".rp_filter (and .all) to 2 or 0, or route " + publisher_address + " via " + iface +
           " ([preconditions.interfaces." + iface + "] multicast.rp_filter checks it)";
  if (rp == 1)
    return lead + "rp_filter is strict (1) on " + iface +
           ", the likely cause if the feed's source is not routed back via " + iface +
           " ([preconditions.interfaces." + iface + "] multicast.rp_filter checks it)";
  const std::string gdev = dev_of(s["group"]);
  return lead + "on this host the MULTICAST flag is on and rp_filter is " + std::to_string(rp) + " on " +
         iface +
         (gdev.empty() || gdev == iface ? "" : "; 224.0.0.0/4 routes via " + gdev + ", not " + iface) +
         "; look at the publisher's route of 224.0.0.0/4 and TTL, and the switch (IGMP snooping without a "
         "querier)";
}

}  // namespace labgate::gate

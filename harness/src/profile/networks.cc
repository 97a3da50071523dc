// Test networks across the profile: a network test names the network it runs
// over when its hosts have several, the name exists on those hosts, and the
// precondition rules learn each host's networks and the CPUs its tests pin to.
#include <algorithm>
#include <set>

#include "sections.h"
#include "suggest.h"

namespace labgate::profile::detail {
namespace {

// The hosts a test measures between (network kinds) or runs on.
std::vector<std::string> hosts_of(const TestSpec& t) {
  if (t.mesh) return t.mesh->hosts;
  if (is_network(t.kind)) return {t.from, t.to};
  return t.on;
}

void check_test_network(const TestSpec& t, const Profile& p, Diagnostics& d) {
  const std::string key = "test[" + t.name + "].network";
  for (const std::string& name : hosts_of(t)) {
    const Host* h = p.find_host(name);
    if (!h) continue;  // reported by the test's own checks
    const std::vector<std::string> nets = h->network_names();
    if (t.network.empty()) {
      if (nets.size() > 1)
        d.error(t.pos, key,
                "missing: host \"" + name + "\" has several test networks (" + join(nets) +
                    "); say which with network = \"" + nets.front() + "\", or a list to run it over each");
    } else if (std::find(nets.begin(), nets.end(), t.network) == nets.end()) {
      d.error(t.pos, key,
              "\"" + t.network + "\" is not a test network of host \"" + name + "\"" +
                  (nets.empty() ? std::string(" (its test_address is a plain address, one network)")
                                : "; it has " + join(nets)));
    }
  }
}

void add_pin(HostUse& use, const TestSpec& t, std::optional<int> cpu) {
  if (cpu) use.pinned.push_back({t.name, *cpu, t.network});
}

}  // namespace

void check_networks(Profile& p, Diagnostics& d) {
  for (const TestSpec& t : p.tests)
    if (is_network(t.kind) || t.mesh) check_test_network(t, p, d);
  std::map<std::string, HostUse>& use = p.preconditions.host_use;
  for (const Host& h : p.hosts) {
    HostUse& u = use[h.name];
    for (const TestNetwork& n : h.networks) u.networks[n.name] = n.address;
    if (h.networks.empty() && !h.test_address.empty()) u.networks[""] = h.test_address;
  }
  for (const TestSpec& t : p.tests) {
    if (t.mesh) {
      for (const std::string& h : t.mesh->hosts) add_pin(use[h], t, t.cpu.client), add_pin(use[h], t, t.cpu.server);
    } else if (is_network(t.kind)) {
      add_pin(use[t.from], t, t.cpu.client);
      add_pin(use[t.to], t, t.cpu.server);
    }
    for (const std::string& h : t.on)
      for (int c : t.cpus) add_pin(use[h], t, c);
  }
}

}  // namespace labgate::profile::detail

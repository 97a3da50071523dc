// Resolving a profile host through the opt-in ssh_config into SSH endpoints.
#include "labgate/transport/host_resolution.h"

#include <functional>
#include <optional>

#include "labgate/profile/proxy_jump.h"
#include "labgate/util/exit_code.h"
#include "ssh_config.h"

namespace labgate::transport {
namespace {

const char* kDefault = "default";

// A value from the profile when written there, else from ssh_config, else the default.
void pick(std::map<std::string, std::string>& origin, const profile::SshSettings& s, const std::string& key,
          const std::optional<SshConfigValue>& cfg, const std::function<void(const std::string&)>& apply) {
  if (auto it = s.origin.find(key); it != s.origin.end()) {
    origin[key] = "profile " + it->second + "." + key;
  } else if (cfg) {
    apply(cfg->value);
    origin[key] = "ssh_config " + cfg->origin;
  } else {
    origin[key] = kDefault;
  }
}

void apply_config(Endpoint& e, const profile::SshSettings& explicit_keys, const SshConfigEntry& c) {
  auto& s = e.host.ssh;
  pick(e.origin, explicit_keys, "address", c.hostname, [&](const std::string& v) { e.host.address = v; });
  pick(e.origin, explicit_keys, "user", c.user, [&](const std::string& v) { s.user = v; });
  pick(e.origin, explicit_keys, "port", c.port, [&](const std::string& v) { s.port = std::stoi(v); });
  pick(e.origin, explicit_keys, "identity", c.identity_file, [&](const std::string& v) { s.identity = v; });
  pick(e.origin, explicit_keys, "known_hosts", c.user_known_hosts_file,
       [&](const std::string& v) { s.known_hosts = v; });
}

}  // namespace

std::string Endpoint::target() const {
  return host.ssh.user + "@" + host.address + ":" + std::to_string(host.ssh.port);
}

ResolvedHost resolve_host(const profile::Host& h) {
  ResolvedHost r;
  std::optional<SshConfig> cfg;
  if (h.ssh.ssh_config) cfg = SshConfig::load(*h.ssh.ssh_config);
  const SshConfigEntry none;
  const SshConfigEntry tc = cfg ? cfg->lookup(h.address) : none;
  r.notes = tc.notes;

  r.target.host = h;
  r.target.label = "host " + h.name;
  // The address is always the profile's (hosts.NAME.address); ssh_config may only
  // turn an alias into its HostName.
  profile::SshSettings keys = h.ssh;
  apply_config(r.target, keys, tc);
  r.target.origin["address"] =
      tc.hostname ? "ssh_config " + tc.hostname->origin + " (HostName for \"" + h.address + "\")"
                  : "profile hosts." + h.name + ".address";

  std::string chain;
  if (h.ssh.proxy_jump) {
    chain = *h.ssh.proxy_jump;
    r.jump_origin = "profile " + h.ssh.origin.at("proxy_jump") + ".proxy_jump";
  } else if (tc.proxy_jump) {
    chain = tc.proxy_jump->value;
    r.jump_origin = "ssh_config " + tc.proxy_jump->origin;
  }
  if (chain.empty()) return r;
  const profile::ParsedJumps parsed = profile::parse_proxy_jump(chain);
  if (!parsed.error.empty()) throw Failure(ExitCode::kUsageError, r.jump_origin + ": " + parsed.error);
  const std::size_t n = parsed.hops.size();
  for (std::size_t i = 0; i < n; ++i) {
    const profile::JumpHop& hop = parsed.hops[i];
    Endpoint e;
    e.label = "jump host " + std::to_string(i + 1) + " of " + std::to_string(n) + " for host " + h.name;
    // A hop inherits the target's resolved login (user, identity, known_hosts,
    // timeouts, algorithms) unless the chain or ssh_config says otherwise for it.
    e.host = r.target.host;
    e.host.name = e.label;
    e.host.address = hop.host;
    e.host.ssh.port = 22;
    e.host.ssh.proxy_jump.reset();
    profile::SshSettings hop_keys;  // what the chain itself states counts as explicit
    if (hop.user) {
      e.host.ssh.user = *hop.user;
      hop_keys.origin["user"] = "";
    }
    if (hop.port) {
      e.host.ssh.port = *hop.port;
      hop_keys.origin["port"] = "";
    }
    const SshConfigEntry hc = cfg ? cfg->lookup(hop.host) : none;
    apply_config(e, hop_keys, hc);
    for (const char* k : {"user", "port"})
      if (hop_keys.origin.count(k)) e.origin[k] = r.jump_origin;
    for (const char* k : {"user", "identity", "known_hosts"})
      if (e.origin[k] == kDefault) e.origin[k] = "as for " + r.target.label + " (" + r.target.origin[k] + ")";
    e.origin["address"] = hc.hostname
                              ? "ssh_config " + hc.hostname->origin + " (HostName for \"" + hop.host + "\")"
                              : r.jump_origin;
    r.jumps.push_back(std::move(e));
  }
  return r;
}

std::vector<std::string> describe_resolution(const ResolvedHost& r) {
  std::vector<std::string> out;
  auto endpoint = [&](const Endpoint& e) {
    const auto& s = e.host.ssh;
    auto from = [&](const char* k) {
      auto it = e.origin.find(k);
      return " (" + (it == e.origin.end() ? std::string(kDefault) : it->second) + ")";
    };
    out.push_back(e.label + ":");
    out.push_back("  address      " + e.host.address + from("address"));
    out.push_back("  port         " + std::to_string(s.port) + from("port"));
    out.push_back("  user         " + s.user + from("user"));
    out.push_back("  identity     " + (s.identity ? *s.identity : std::string("ssh-agent")) +
                  from("identity"));
    out.push_back("  known_hosts  " + s.known_hosts + from("known_hosts"));
  };
  endpoint(r.target);
  if (r.jumps.empty()) {
    out.push_back("  jump chain   none (direct)");
  } else {
    std::string chain;
    for (const Endpoint& e : r.jumps) chain += e.target() + " -> ";
    out.push_back("  jump chain   " + chain + r.target.target() + " (" + r.jump_origin + ")");
    for (const Endpoint& e : r.jumps) endpoint(e);
  }
  for (const std::string& n : r.notes) out.push_back("  note: " + n);
  return out;
}

}  // namespace labgate::transport

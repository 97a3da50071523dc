// Scanning host keys through labgate's own SSH stack, hop by hop.
#include "labgate/transport/host_key_scan.h"

#include <set>

#include "jump_chain.h"
#include "labgate/transport/host_resolution.h"
#include "labgate/util/exit_code.h"
#include "ssh_endpoint.h"

namespace labgate::transport {
namespace {

// Offer everything an old server may need: a scan only looks at the key, which
// the user then checks out of band; the run itself keeps the profile's choice.
profile::Host scan_settings(profile::Host h) {
  h.ssh.legacy_algorithms = true;
  h.ssh.accept_new_host_keys = false;
  return h;
}

ScannedKey record(ssh_session s, const profile::Host& h, const std::string& who) {
  ScannedKey k;
  k.who = who;
  k.known_hosts = expand_home(h.ssh.known_hosts);
  k.key = server_host_key(s, h, who);
  k.verdict = check_host_key_file(k.known_hosts, k.key.name, k.key.type, k.key.base64);
  return k;
}

}  // namespace

std::string describe_verdict(const ScannedKey& k) {
  const std::string at = k.known_hosts + ":" + std::to_string(k.verdict.line);
  switch (k.verdict.status) {
    case HostKeyStatus::kOk:
      return "known (" + at + ")";
    case HostKeyStatus::kRevoked:
      return "REVOKED (" + at + " marks it @revoked; never written)";
    case HostKeyStatus::kChanged:
      return "CHANGED (" + at + " holds another key of this type)";
    case HostKeyStatus::kOther:
      return "known only with other key types (" + at + "); add the line by hand";
    case HostKeyStatus::kCertAuthorityOnly:
      return "vouched for only by @cert-authority " + at + " (host certificates are not supported)";
    case HostKeyStatus::kUnknown:
      break;
  }
  return k.written ? "UNKNOWN, now written to " + k.known_hosts : "UNKNOWN to " + k.known_hosts;
}

HostScan scan_host(const profile::Host& h) {
  HostScan out;
  out.host = h.name;
  try {
    const ResolvedHost r = resolve_host(h);
    out.resolution = describe_resolution(r);
    std::unique_ptr<JumpChain> chain;
    int fd = -1;
    if (!r.jumps.empty()) {
      chain = std::make_unique<JumpChain>(
          r.jumps, r.target.host.address, r.target.host.ssh.port,
          [&](const Endpoint& hop, const std::string& who, int hop_fd) {
            const profile::Host hh = scan_settings(hop.host);
            ssh_session s = open_endpoint(
                hh, who, hop_fd,
                [&](ssh_session hs) {
                  out.keys.push_back(record(hs, hh, who));
                  if (out.keys.back().verdict.status != HostKeyStatus::kOk)
                    throw Failure(
                        ExitCode::kCouldNotRun,
                        who +
                            ": not logged in to: its key is not (yet) one known_hosts vouches for, "
                            "so what lies behind it is not scanned; check the key above out of band, "
                            "record it (--write), and scan again");
                },
                true);
            return s;
          });
      fd = chain->take_fd();
    }
    const profile::Host th = scan_settings(r.target.host);
    const std::string who = "host " + h.name + " (" + r.target.target() + ")";
    ssh_session s = open_endpoint(
        th, who, fd, [&](ssh_session ts) { out.keys.push_back(record(ts, th, who)); }, false);
    ssh_disconnect(s);
    ssh_free(s);
  } catch (const Failure& f) {
    out.error = f.what();
  }
  return out;
}

void write_unknown_keys(std::vector<HostScan>& scans) {
  std::set<std::pair<std::string, std::string>> done;
  for (HostScan& s : scans) {
    for (ScannedKey& k : s.keys) {
      if (k.verdict.status != HostKeyStatus::kUnknown) continue;
      if (done.insert({k.known_hosts, k.key.line()}).second) {
        if (std::string e = append_known_hosts_line(k.known_hosts, k.key.line()); !e.empty())
          throw Failure(ExitCode::kCouldNotRun, k.who + ": " + e);
      }
      k.written = true;
    }
  }
}

}  // namespace labgate::transport

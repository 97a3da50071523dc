// Resolving test-address names on the hosts they belong to (getent ahosts).
#include "labgate/gate/test_addresses.h"

#include <chrono>
#include <sstream>

#include "labgate/profile/test_address.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

std::vector<std::string> resolve_command(const std::string& name) { return {"getent", "ahosts", name}; }

std::optional<std::string> first_ahosts_address(const std::string& out) {
  std::istringstream in(out);
  std::string word, why;
  if (!(in >> word)) return std::nullopt;
  const auto kind = profile::classify_address(word, &why);
  if (!kind || *kind == profile::AddressKind::kName) return std::nullopt;
  return word;
}

namespace {

std::string resolve_one(const std::string& host, const std::string& key, const std::string& name,
                        transport::Transport& t, std::vector<ResolvedName>& resolved) {
  std::string why;
  if (profile::classify_address(name, &why) != profile::AddressKind::kName) return name;
  const auto argv = resolve_command(name);
  transport::RunOptions o;
  o.timeout = std::chrono::seconds(15);  // a DNS timeout on the host is 5 s per try
  const transport::RunResult r = t.run(argv, o);
  const auto address = r.ok() ? first_ahosts_address(r.out) : std::nullopt;
  if (!address) {
    const std::string said = r.exit_status == 2
                                 ? "the name is not known there"
                                 : r.describe() + (r.err.empty() ? "" : ": " + r.err.substr(0, 200));
    throw Failure(ExitCode::kCouldNotRun, "host " + host + ": hosts." + host + "." + key + " = \"" + name +
                                              "\" does not resolve on " + host + " (`" +
                                              transport::shell_join(argv) + "`: " + said + ")");
  }
  resolved.push_back({host, key, name, *address});
  return *address;
}

}  // namespace

profile::Host resolve_test_addresses(const profile::Host& h, transport::Transport& t,
                                     std::vector<ResolvedName>& resolved) {
  profile::Host out = h;
  if (out.networks.empty()) {
    if (!out.test_address.empty())
      out.test_address = resolve_one(h.name, "test_address", h.test_address, t, resolved);
    return out;
  }
  for (auto& n : out.networks)
    n.address = resolve_one(h.name, "test_address." + n.name, n.address, t, resolved);
  out.test_address = out.networks.front().address;
  return out;
}

}  // namespace labgate::gate

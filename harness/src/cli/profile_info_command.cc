// `labgate profile-info PROFILE`: what tooling needs from a profile (CMake's
// gate tests, the Jenkinsfile, ci/pool), as JSON from the real TOML parser, so
// nothing outside labgate reads TOML with a regex, awk or sed.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>

#include "labgate/cli/commands.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"

namespace labgate::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The built-in lab pair N whose keys `ci/lab up --pair N` writes under this
// checkout's .lab/pairN/: a profile whose every host trusts that known_hosts is
// the lab's, and the gate may bring that pair up. nullopt for any other profile.
std::optional<int> builtin_lab_pair(const profile::Profile& p) {
  static const std::regex kLab(R"((.*)/\.lab/pair([0-9]+)/known_hosts)");
  std::optional<int> pair;
  std::error_code ec;
  const fs::path source = fs::weakly_canonical(LABGATE_SOURCE_DIR, ec);
  for (const auto& h : p.hosts) {
    std::smatch m;
    // Lexically: .lab/pairN of a checkout under /tmp is a symlink into /var/lib
    // (see ci/lab), which a canonical path would follow away from the checkout.
    const std::string path = fs::absolute(h.ssh.known_hosts, ec).lexically_normal().string();
    if (!std::regex_match(path, m, kLab) || fs::weakly_canonical(m[1].str(), ec) != source) return std::nullopt;
    const int n = std::stoi(m[2].str());
    if (pair && *pair != n) return std::nullopt;
    pair = n;
  }
  return pair;
}

json info_of(const profile::Profile& p) {
  json hosts = json::array();
  for (const auto& h : p.hosts)
    hosts.push_back({{"name", h.name},
                     {"address", h.address},
                     {"test_address", h.test_address},
                     {"user", h.ssh.user},
                     {"port", h.ssh.port},
                     {"identity", h.ssh.identity ? json(*h.ssh.identity) : json(nullptr)},
                     {"known_hosts", h.ssh.known_hosts}});
  json tests = json::array();
  for (const auto& t : p.tests) {
    // The label and suite the gate files the test under (as list-tests and the suites do).
    const auto cases = gate::expand_cases(p, t.name);
    tests.push_back({{"name", t.name},
                     {"kind", profile::to_string(t.kind)},
                     {"label", cases.empty() ? "latency" : cases.front().label},
                     {"suite", cases.empty() ? "Latency" : cases.front().suite}});
  }
  const auto pair = builtin_lab_pair(p);
  std::error_code ec;
  return {{"format", "labgate-profile-info-1"},
          {"path", fs::weakly_canonical(p.path, ec).string()},
          {"lab", p.lab_name},
          {"description", p.description},
          {"builtin_lab_pair", pair ? json(*pair) : json(nullptr)},
          {"hosts", std::move(hosts)},
          {"tests", std::move(tests)}};
}

}  // namespace

void add_profile_info_command(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "profile-info", "print what tooling needs from a profile (lab name, hosts, tests, labels) as JSON");
  cmd->add_option("profile", *path, "the profile (TOML)")->required();
  cmd->callback([&action, path] {
    action = [path] {
      // An invalid profile is exit 2 with every error, like `labgate validate`.
      std::cout << info_of(profile::load_or_throw(*path)).dump(2) << "\n";
      return ExitCode::kPassed;
    };
  });
}

}  // namespace labgate::cli

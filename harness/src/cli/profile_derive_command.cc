// `labgate profile-derive TEMPLATE --set KEY=VALUE... --out FILE`: a profile made
// from another by setting some of its values (ci/pool writes one per lab pair),
// edited where the real TOML parser found each value, checked like `labgate
// validate` as the new file (relative paths then mean paths beside FILE) before
// it is written, so no sed on TOML is needed and nothing invalid is left behind.
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/profile/derive.h"
#include "labgate/profile/load.h"
#include "labgate/results/atomic_file.h"

namespace labgate::cli {
namespace {

struct DeriveArgs {
  std::string templ, out;
  std::vector<std::string> sets;
};

ExitCode derive(const DeriveArgs& a) {
  std::vector<profile::KeySetting> settings;
  for (const std::string& s : a.sets) settings.push_back(profile::parse_key_setting(s));
  const std::string text = results::read_file(a.templ);
  const std::string derived = profile::derive_profile_text(text, a.templ, settings);
  const profile::LoadResult r = profile::load_from_string(derived, a.out);
  if (!r.profile) {
    std::string msg = a.out + " (from " + a.templ + ") would not be a valid profile, so it was not written:";
    for (const auto& e : r.errors) msg += "\n" + e.pos.str() + ": " + e.message;
    throw Failure(ExitCode::kUsageError, msg);
  }
  // A relative key path means a file beside the profile: beside FILE it may be
  // another file. Each one that now resolves elsewhere must be set explicitly.
  const profile::Profile before = profile::load_or_throw(a.templ);
  auto was_set = [&](const char* field) {
    for (const auto& s : settings)
      if (s.key.size() > std::strlen(field) && s.key.ends_with(std::string(".") + field)) return true;
    return false;
  };
  for (std::size_t i = 0; i < before.hosts.size() && i < r.profile->hosts.size(); ++i) {
    const auto& was = before.hosts[i].ssh;
    const auto& now = r.profile->hosts[i].ssh;
    const std::pair<const char*, std::pair<std::string, std::string>> paths[] = {
        {"identity", {was.identity.value_or(""), now.identity.value_or("")}},
        {"known_hosts", {was.known_hosts, now.known_hosts}}};
    for (const auto& [field, values] : paths)
      if (values.first != values.second && !was_set(field))
        throw Failure(ExitCode::kUsageError,
                      a.out + " was not written: host " + before.hosts[i].name + "'s " + field + " is " +
                          values.first + " in " + a.templ + ", but would be " + values.second + " in " + a.out +
                          " (a relative path is relative to its profile's folder); --set its " + field +
                          " (e.g. defaults.ssh." + field + "=/absolute/path) or write the new profile beside the "
                          "template");
  }
  results::write_file_atomic(a.out, derived);
  std::cout << "wrote " << a.out << " from " << a.templ << " (" << settings.size() << " values set)\n";
  return ExitCode::kPassed;
}

}  // namespace

void add_profile_derive_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<DeriveArgs>();
  CLI::App* cmd = app.add_subcommand(
      "profile-derive",
      "write a profile made from TEMPLATE with some values set (comments and layout kept), checked before it is "
      "written");
  cmd->add_option("template", args->templ, "the profile to start from")->required();
  cmd->add_option("--set", args->sets,
                  "KEY=VALUE for a value TEMPLATE has, e.g. lab.name=lab-pair7, hosts.a.address=198.18.0.50 "
                  "(repeatable)")
      ->required();
  cmd->add_option("--out", args->out, "the new profile")->required();
  cmd->callback([&action, args] { action = [args] { return derive(*args); }; });
}

}  // namespace labgate::cli

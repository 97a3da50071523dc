// `labgate facts PROFILE [--host NAME]` prints each host's facts snapshot;
// `labgate check PROFILE [--fix-script FILE]` judges the preconditions and prints
// a table per host (rule, expected, found, verdict). Exit 0 all hold, 1 a rule
// failed, 2 bad profile, 3 a host could not be reached.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "labgate/checks/checks.h"
#include "labgate/checks/fix_script.h"
#include "labgate/cli/commands.h"
#include "labgate/gate/preconditions_step.h"
#include "labgate/profile/load.h"
#include "labgate/transport/interrupt.h"

namespace labgate::cli {
namespace {

std::vector<std::string> hosts_to_check(const profile::Profile& p, const std::string& only) {
  if (!only.empty()) {
    if (!p.find_host(only)) throw Failure(ExitCode::kUsageError, "host '" + only + "' is not in " + p.path);
    return {only};
  }
  return gate::precondition_hosts(p);
}

/// The preconditions pipeline (gate::check_preconditions) on a session of its own.
gate::PreconditionsOutcome gather(const profile::Profile& p, const std::vector<std::string>& hosts) {
  transport::install_interrupt_handlers();
  gate::GateSession session(p, hosts, "facts-" + std::to_string(::getpid()));
  auto out = gate::check_preconditions(session, p, hosts);
  session.close();
  return out;
}

ExitCode print_facts(const std::string& path, const std::string& host) {
  const auto p = profile::load_or_throw(path);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& s : gather(p, hosts_to_check(p, host)).snapshots)
    out[s.host] = nlohmann::json::parse(s.raw);
  std::cout << out.dump(2) << "\n";
  return ExitCode::kPassed;
}

std::string cell(const std::string& s, std::size_t width) {
  std::string one = s;
  for (auto& ch : one)
    if (ch == '\n') ch = ' ';
  if (one.size() > width) one = one.substr(0, width - 3) + "...";
  return one;
}

void print_table(const std::string& title, const std::vector<checks::CheckResult>& rows) {
  std::cout << "\n" << title << "\n";
  std::cout << std::left << std::setw(44) << "rule" << std::setw(26) << "expected" << std::setw(26) << "found"
            << "verdict\n";
  for (const auto& r : rows) {
    std::cout << std::left << std::setw(44) << cell(r.rule, 43) << std::setw(26) << cell(r.expected, 25)
              << std::setw(26) << cell(r.found, 25) << checks::to_string(r.verdict) << "\n";
    if (r.verdict == checks::Verdict::kFail) std::cout << "    " << r.message << "\n";
    if (r.verdict == checks::Verdict::kNotCheckable && !r.reason.empty()) std::cout << "    " << r.reason << "\n";
  }
}

ExitCode check(const std::string& path, const std::string& host, const std::string& fix_file) {
  const auto p = profile::load_or_throw(path);
  const gate::PreconditionsOutcome outcome = gather(p, hosts_to_check(p, host));
  const auto& snapshots = outcome.snapshots;
  const auto& results = outcome.results;
  std::vector<std::string> groups;
  for (const auto& s : snapshots) groups.push_back(s.host);
  groups.push_back("pair");
  for (const auto& g : groups) {
    std::vector<checks::CheckResult> rows;
    for (const auto& r : results)
      if (r.host == g) rows.push_back(r);
    if (!rows.empty()) print_table(g == "pair" ? "rules across hosts" : "host " + g, rows);
  }
  const auto t = checks::tally(results);
  std::cout << "\n" << t.passed << " passed, " << t.failed << " failed, " << t.not_checkable << " not checkable\n";
  if (!fix_file.empty()) {
    std::ofstream f(fix_file);
    for (const auto& s : snapshots) f << checks::fix_script(s.host, results, path) << "\n";
    if (!f) throw Failure(ExitCode::kCouldNotRun, "cannot write the fix script " + fix_file);
    std::cout << "fix script for review: " << fix_file << " (labgate never runs it)\n";
  }
  return t.failed ? ExitCode::kGateFailed : ExitCode::kPassed;
}

}  // namespace

void add_facts_command(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  auto host = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("facts", "print each host's facts snapshot (JSON)");
  sub->add_option("profile", *path, "the profile (TOML)")->required();
  sub->add_option("--host", *host, "only this host");
  sub->callback([=, &action] { action = [=] { return print_facts(*path, *host); }; });
}

void add_check_command(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  auto host = std::make_shared<std::string>();
  auto fix = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("check", "check the preconditions only; a table per host");
  sub->add_option("profile", *path, "the profile (TOML)")->required();
  sub->add_option("--host", *host, "only this host");
  sub->add_option("--fix-script", *fix, "write the fixes per host as a shell script for review");
  sub->callback([=, &action] { action = [=] { return check(*path, *host, *fix); }; });
}

}  // namespace labgate::cli

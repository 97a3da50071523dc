// The precondition suite: collects one facts snapshot per host (one probe run
// each, in parallel), judges every rule of the profile locally, and registers
// one GoogleTest per rule per host — Preconditions.b/sysctl/net.ipv4.tcp_sack —
// so the JUnit XML names each rule. Facts and verdicts go to the run folder.
#include <iostream>
#include <memory>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "labgate/checks/checks.h"
#include "labgate/gate/bios_check.h"
#include "labgate/gate/facts_collector.h"
#include "labgate/gate/records.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"
#include "labgate/util/logging.h"
#include "suite_context.h"

namespace labgate::suites {
namespace {

class RuleTest : public ::testing::Test {
 public:
  explicit RuleTest(results::CheckRecord r) : r_(std::move(r)) {}
  void TestBody() override {
    RecordProperty("expected", r_.expected);
    RecordProperty("found", r_.found);
    RecordProperty("source", r_.source);
    if (r_.verdict == results::CheckVerdict::kNotCheckable) GTEST_SKIP() << r_.message;
    if (r_.verdict == results::CheckVerdict::kFail)
      ADD_FAILURE() << r_.message << (r_.fix.empty() ? "" : "\nfix:\n" + r_.fix);
  }

 private:
  results::CheckRecord r_;
};

class GateBroken : public ::testing::Test {
 public:
  explicit GateBroken(std::string why) : why_(std::move(why)) {}
  void TestBody() override { FAIL() << "the gate could not run: " << why_; }

 private:
  std::string why_;
};

std::vector<std::string> hosts_for(const profile::Profile& p) {
  if (!p.preconditions.hosts.empty()) return p.preconditions.hosts;
  std::vector<std::string> all;
  for (const auto& h : p.hosts) all.push_back(h.name);
  return all;
}

}  // namespace
}  // namespace labgate::suites

int main(int argc, char** argv) {
  using namespace labgate;
  ::testing::InitGoogleTest(&argc, argv);
  const auto options = suites::parse_suite_options(argc, argv, "labgate-preconditions");
  setup_console_logging(Verbosity::kNormal);
  auto profile = suites::load_profile(options.profile);
  if (!profile) return 2;
  if (suites::listing_only()) return RUN_ALL_TESTS();
  transport::install_interrupt_handlers();

  suites::Outcome outcome;
  std::optional<gate::RunBook> book;
  try {
    book.emplace(gate::open_or_create_run_dir(options.suffix), *profile, options.suffix);
    const auto hosts = suites::hosts_for(*profile);
    std::vector<results::CheckRecord> records;
    {
      gate::GateSession session(*profile, hosts, book->dir().id());
      const auto snapshots = gate::collect_facts(session, *profile, hosts);
      std::vector<checks::HostFacts> host_facts;
      for (const auto& s : snapshots) {
        book->dir().write_facts(s.host, nlohmann::json::parse(s.raw));
        host_facts.push_back({s.host, &s.facts});
      }
      for (const auto& c : checks::check_all(host_facts, profile->preconditions))
        records.push_back(gate::to_record(c));
      // [preconditions.bios]: conrep where installed, else each rule skipped with the reason.
      for (const auto& c : gate::check_bios_rules(session, profile->preconditions, hosts))
        records.push_back(gate::to_record(c));
      session.close();
    }
    for (const auto& r : records) {
      ::testing::RegisterTest("Preconditions", r.test_name().c_str(), nullptr, nullptr,
                              __FILE__, __LINE__, [r]() -> ::testing::Test* { return new suites::RuleTest(r); });
    }
    book->set_checks(std::move(records));
  } catch (const Failure& f) {
    if (f.code() == ExitCode::kUsageError) {
      std::cerr << f.what() << "\n";
      return 2;
    }
    outcome.could_not_run();
    const std::string why = f.what();
    spdlog::error("{}", why);
    if (book) book->set_error("preconditions: " + why);
    ::testing::RegisterTest("Preconditions", "gate/could_not_run", nullptr, nullptr, __FILE__, __LINE__,
                            [why]() -> ::testing::Test* { return new suites::GateBroken(why); });
  }
  const int rc = RUN_ALL_TESTS();
  if (book) {
    try {
      book->publish();
      std::cout << "results: " << book->dir().path().string() << "\n";
    } catch (const std::exception& e) {
      spdlog::error("writing the results: {}", e.what());
      outcome.could_not_run();
    }
  }
  return outcome.exit_code(rc);
}

// Tests for [preconditions.clock] on the kernel's adjtimex view and the real
// daemon reports of tests/fixtures/clock: synchronised, error bound and source
// pass and fail per daemon, and what cannot be read is not checkable.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "labgate/facts/clock_daemons.h"
#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

const std::string kDir = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/clock/";

std::string file(const std::string& name) {
  std::ifstream in(kDir + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

profile::Preconditions clock_rule(std::optional<bool> synced, std::optional<int> max_us,
                                  std::optional<std::string> source) {
  profile::Preconditions p;
  p.clock = profile::ClockRule{};
  p.clock->synchronized = synced;
  if (max_us) p.clock->max_error = std::chrono::microseconds(*max_us);
  p.clock->source = std::move(source);
  return p;
}

// A host whose kernel says `synced`, running `process`, whose daemon printed `fixture`.
facts::Facts clock_host(bool synced, long long maxerror_us, const std::string& process,
                        const std::string& daemon, const std::string& command, const std::string& fixture,
                        int exit_status = 0) {
  facts::Facts f = tuned_rhel5();
  f.sections.insert({"clock", "processes"});
  f.clock.synchronized = {synced, "adjtimex", "", false,
                          synced ? "status 0x2001 (PLL NANO)" : "status 0x40 (UNSYNC)"};
  f.clock.maxerror_us = {maxerror_us, "adjtimex", "", false, ""};
  if (!process.empty()) f.processes.push_back({2841, process, process, "/proc/2841/stat"});
  f.clock.daemons_asked = true;
  if (!daemon.empty()) {
    facts::ClockDaemonReport r;
    r.daemon = daemon;
    r.command = command;
    r.output = file(fixture);
    r.exit_status = exit_status;
    facts::read_daemon_report(r);
    f.clock.daemons.push_back(r);
  }
  return f;
}

facts::Facts chrony_synced() {
  return clock_host(true, 1500, "chronyd", "chrony", "chronyc -c tracking", "chronyc-tracking-synced.csv");
}

TEST(Clock, ChronySynchronisedWithinItsBoundPassesEveryRule) {
  const auto rs = check_host("b", chrony_synced(), clock_rule(true, 100, "chrony"));
  ASSERT_EQ(rs.size(), 3u);
  for (const auto& r : rs) EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  const CheckResult& bound = find(rs, "clock/max_error");
  EXPECT_EQ(bound.source, "chronyc -c tracking");  // the daemon's bound, not the kernel's 1500 us
  EXPECT_THAT(bound.message, HasSubstr("root dispersion"));
  EXPECT_EQ(find(rs, "clock/source").found, "chrony");
}

TEST(Clock, ABoundTighterThanTheDaemonsFailsWithAFixNote) {
  const auto rs = check_host("b", chrony_synced(), clock_rule(std::nullopt, 5, std::nullopt));
  const CheckResult& r = find(rs, "clock/max_error");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.message, HasSubstr("profile wants 5us"));
  EXPECT_THAT(r.fix, HasSubstr("/etc/chrony.conf"));
}

TEST(Clock, AnUnsynchronisedKernelFailsAndSaysWhatToLookAt) {
  const auto rs = check_host("b",
                             clock_host(false, 16000000, "chronyd", "chrony", "chronyc -c tracking",
                                        "chronyc-tracking-unsynced.csv"),
                             clock_rule(true, 100, "chrony"));
  const CheckResult& s = find(rs, "clock/synchronized");
  EXPECT_EQ(s.verdict, Verdict::kFail);
  EXPECT_THAT(s.message, HasSubstr("UNSYNC"));
  EXPECT_THAT(s.fix, HasSubstr("chronyc sources -v"));
  // No synchronised daemon: the kernel's maxerror (16 s) is the bound.
  EXPECT_EQ(find(rs, "clock/max_error").source, "adjtimex");
  EXPECT_EQ(find(rs, "clock/max_error").verdict, Verdict::kFail);
  EXPECT_EQ(find(rs, "clock/source").verdict, Verdict::kFail);
}

TEST(Clock, AKernelStillMarkedSynchronisedByALostDaemonFails) {
  const auto rs =
      check_host("b", clock_host(true, 900, "ntpd", "ntpd", "ntpq -c rv", "ntpq-rv-peer-not-disciplined.txt"),
                 clock_rule(true, std::nullopt, std::nullopt));
  EXPECT_EQ(rs[0].verdict, Verdict::kFail);
  EXPECT_THAT(rs[0].message, HasSubstr("no running daemon does"));
  EXPECT_THAT(rs[0].fix, HasSubstr("ntpq -p"));
}

TEST(Clock, Rhel5NtpdPassesAndNoDaemonRunningGetsChkconfig) {
  const auto ok =
      check_host("a", clock_host(true, 300, "ntpd", "ntpd", "ntpq -c rv", "ntpq-rv-rhel5-synced.txt"),
                 clock_rule(true, 500, "ntpd"));
  for (const auto& r : ok) EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  const auto none = check_host("a", clock_host(false, 16000000, "", "", "", ""),
                               clock_rule(std::nullopt, std::nullopt, "any"));
  EXPECT_EQ(none[0].verdict, Verdict::kFail);
  EXPECT_EQ(none[0].fix, "chkconfig ntpd on; service ntpd start");
}

TEST(Clock, Ptp4lOnSystemdAndItsGrandmasterItself) {
  facts::Facts slave = clock_host(true, 400, "ptp4l", "ptp4l", "pmc", "pmc-time-status-slave.txt");
  slave.services.init = text("systemd", "/proc/1/stat");
  const auto ok = check_host("b", slave, clock_rule(true, 1, "ptp4l"));
  for (const auto& r : ok) EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  facts::Facts gm = clock_host(true, 400, "ptp4l", "ptp4l", "pmc", "pmc-time-status-master.txt");
  EXPECT_EQ(
      find(check_host("b", gm, clock_rule(std::nullopt, std::nullopt, "ptp4l")), "clock/source").verdict,
      Verdict::kFail);
  facts::Facts nothing = clock_host(false, 16000000, "", "", "", "");
  nothing.services.init = text("systemd", "/proc/1/stat");
  EXPECT_EQ(check_host("b", nothing, clock_rule(std::nullopt, std::nullopt, "ptp4l"))[0].fix,
            "systemctl enable --now ptp4l phc2sys  # interface and options in /etc/sysconfig/ptp4l");
}

TEST(Clock, WhatCannotBeReadIsNotCheckable) {
  // chronyd runs but chronyc cannot talk to it: source is unknown, not passed.
  const auto rs = check_host(
      "b", clock_host(true, 100, "chronyd", "chrony", "chronyc -c tracking", "chronyc-no-daemon.txt", 1),
      clock_rule(std::nullopt, std::nullopt, "chrony"));
  EXPECT_EQ(rs[0].verdict, Verdict::kNotCheckable);
  EXPECT_THAT(rs[0].reason, HasSubstr("506 Cannot talk to daemon"));
  // adjtimex refused (a seccomp profile): not checkable with the error.
  facts::Facts f = chrony_synced();
  f.clock.synchronized = {std::nullopt, "adjtimex", "Operation not permitted", false, ""};
  EXPECT_EQ(check_host("b", f, clock_rule(true, std::nullopt, std::nullopt))[0].verdict,
            Verdict::kNotCheckable);
  EXPECT_THAT(check_host("b", f, clock_rule(true, std::nullopt, std::nullopt))[0].reason,
              HasSubstr("adjtimex: Operation not permitted"));
}

}  // namespace
}  // namespace labgate::checks

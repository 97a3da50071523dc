// Tests of the time daemon readers on real chronyc, ntpq and pmc outputs
// (tests/fixtures/clock, recorded by its record.sh; the RHEL 5 ntpq one written
// from ntp 4.2.2's format), of the shell step run for real with stand-in
// clients on PATH, and of the reports' round trip through the snapshot.
#include "labgate/facts/clock_daemons.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "labgate/facts/parse.h"

namespace labgate::facts {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/clock/";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ClockDaemonReport report(const std::string& daemon, const std::string& command, const std::string& file) {
  ClockDaemonReport r;
  r.daemon = daemon;
  r.command = command;
  r.output = read(kDir + file);
  const std::string rc = read(kDir + file + ".rc");
  r.exit_status = rc.empty() ? 0 : std::stoi(rc);
  read_daemon_report(r);
  return r;
}

TEST(ClockDaemons, ChronySynchronisedGivesItsBound) {
  const auto r = report("chrony", "chronyc -c tracking", "chronyc-tracking-synced.csv");
  ASSERT_TRUE(r.read) << r.not_read;
  EXPECT_EQ(r.synchronized, true);
  EXPECT_THAT(r.state, HasSubstr("leap status Normal, reference 198.18.254.1 (stratum 2)"));
  // |-0.000003476| + 0.000000487 + 0.000011125 / 2 seconds
  EXPECT_NEAR(*r.error_bound_us, 3.476 + 0.487 + 5.5625, 1e-6);
}

TEST(ClockDaemons, ChronyWithoutASourceIsReadAndUnsynchronised) {
  const auto r = report("chrony", "chronyc -c tracking", "chronyc-tracking-unsynced.csv");
  ASSERT_TRUE(r.read);
  EXPECT_EQ(r.synchronized, false);
  EXPECT_THAT(r.state, HasSubstr("Not synchronised"));
}

TEST(ClockDaemons, ChronycWithoutChronydIsNotRead) {
  const auto r = report("chrony", "chronyc -c tracking", "chronyc-no-daemon.txt");
  EXPECT_FALSE(r.read);
  EXPECT_EQ(r.not_read, "chronyc: 506 Cannot talk to daemon");
  EXPECT_FALSE(r.synchronized);
}

TEST(ClockDaemons, NtpsecLeapAlarmIsUnsynchronisedEvenWithAChosenPeer) {
  for (const char* f : {"ntpq-rv-unsynced.txt", "ntpq-rv-peer-not-disciplined.txt"}) {
    const auto r = report("ntpd", "ntpq -c rv", f);
    ASSERT_TRUE(r.read) << f << ": " << r.not_read;
    EXPECT_EQ(r.synchronized, false) << f;
    EXPECT_THAT(r.state, HasSubstr("leap=11")) << f;
  }
  EXPECT_THAT(report("ntpd", "ntpq -c rv", "ntpq-rv-peer-not-disciplined.txt").state,
              HasSubstr("refid 198.18.254.1"));
}

TEST(ClockDaemons, Rhel5NtpdSynchronisedUsesRootdispersion) {
  const auto r = report("ntpd", "ntpq -c rv", "ntpq-rv-rhel5-synced.txt");
  ASSERT_TRUE(r.read) << r.not_read;
  EXPECT_EQ(r.synchronized, true);
  EXPECT_NEAR(*r.error_bound_us, (0.021 + 0.060 + 0.412 / 2) * 1000, 1e-6);  // ms -> us
  EXPECT_THAT(r.bound, HasSubstr("rootdispersion 0.060 ms"));
}

TEST(ClockDaemons, NtpqErrorsAreInItsOutputNotItsExitStatus) {
  const auto r = report("ntpd", "ntpq -c rv", "ntpq-no-daemon.txt");
  EXPECT_FALSE(r.read);
  EXPECT_THAT(r.not_read, HasSubstr("***Socket error; probably ntpd is not running"));
}

TEST(ClockDaemons, Ptp4lSlaveAndGrandmaster) {
  const auto slave = report("ptp4l", "pmc", "pmc-time-status-slave.txt");
  ASSERT_TRUE(slave.read) << slave.not_read;
  EXPECT_EQ(slave.synchronized, true);
  EXPECT_NEAR(*slave.error_bound_us, 0.008, 1e-9);  // master_offset 8 ns
  const auto gm = report("ptp4l", "pmc", "pmc-time-status-master.txt");
  ASSERT_TRUE(gm.read);
  EXPECT_EQ(gm.synchronized, false);
  EXPECT_THAT(gm.state, HasSubstr("no grandmaster but itself"));
  const auto none = report("ptp4l", "pmc", "pmc-no-daemon.txt");
  EXPECT_FALSE(none.read);
  EXPECT_THAT(none.not_read, HasSubstr("ptp4l did not answer (not running?)"));
}

TEST(ClockDaemons, NotInstalledAndAFailedStepAreNotRead) {
  const auto r = read_clock_step(-1, "", "the clock step timed out after 30 s");
  ASSERT_EQ(r.size(), 3u);
  for (const auto& d : r) {
    EXPECT_FALSE(d.read);
    EXPECT_EQ(d.not_read, "the clock step timed out after 30 s");
  }
}

// Runs the step with PATH holding only stand-ins that print the recorded outputs.
std::string run_step(const std::string& bin) {
  auto argv = clock_daemons_command();
  int fds[2];
  if (pipe(fds) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    setenv("PATH", bin.c_str(), 1);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(126);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(ClockDaemons, TheStepRunsEachInstalledClientAndSaysWhichAreMissing) {
  const auto bin =
      std::filesystem::temp_directory_path() / ("labgate_clock_step." + std::to_string(getpid()));
  std::filesystem::create_directories(bin);
  for (const char* tool : {"sh", "cat"})
    std::filesystem::create_symlink(std::string("/bin/") + tool, bin / tool);
  {
    std::ofstream c(bin / "chronyc");
    c << "#!/bin/sh\n[ \"$*\" = '-c tracking' ] || exit 9\ncat '" << kDir << "chronyc-tracking-synced.csv'\n";
    std::ofstream p(bin / "pmc");
    p << "#!/bin/sh\n[ \"$4\" = 'GET TIME_STATUS_NP' ] || exit 9\ncat '" << kDir << "pmc-no-daemon.txt'\n";
  }
  std::filesystem::permissions(bin / "chronyc", std::filesystem::perms::owner_all);
  std::filesystem::permissions(bin / "pmc", std::filesystem::perms::owner_all);
  const auto reports = read_clock_step(0, run_step(bin.string()), "");
  std::filesystem::remove_all(bin);
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_TRUE(reports[0].read) << reports[0].not_read << " / " << reports[0].output;
  EXPECT_EQ(reports[0].synchronized, true);
  EXPECT_EQ(reports[1].exit_status, 127);
  EXPECT_EQ(reports[1].not_read, "ntpq is not installed");
  EXPECT_FALSE(reports[2].read);
  EXPECT_THAT(reports[2].not_read, HasSubstr("ptp4l did not answer"));
}

TEST(ClockDaemons, ReportsRoundTripThroughTheSnapshot) {
  const std::string probe =
      R"j({"schema":"labgate.facts/1","probe":"facts t","root":"/","clock":{)j"
      R"j("synchronized":{"value":true,"source":"adjtimex","note":"status 0x2001 (PLL NANO)"},)j"
      R"j("status":{"value":8193,"source":"adjtimex"},"state":{"value":0,"source":"adjtimex"},)j"
      R"j("maxerror_us":{"value":1500,"source":"adjtimex"},"esterror_us":{"value":2,"source":"adjtimex"}}})j";
  ClockDaemonReport chrony;
  chrony.daemon = "chrony";
  chrony.command = "chronyc -c tracking";
  chrony.output = read(kDir + "chronyc-tracking-synced.csv");
  const Facts f = parse_facts(add_daemons_to_snapshot(probe, {chrony}), "host a");
  EXPECT_EQ(f.clock.synchronized.value, true);
  EXPECT_EQ(f.clock.maxerror_us.value, 1500);
  EXPECT_TRUE(f.clock.daemons_asked);
  ASSERT_EQ(f.clock.daemons.size(), 1u);
  EXPECT_TRUE(f.clock.daemons[0].read);
  EXPECT_EQ(f.clock.daemons[0].synchronized, true);
  EXPECT_THROW(
      parse_facts(R"({"schema":"labgate.facts/1","probe":"p","root":"/","clock":{"daemons":5}})", "a"),
      FactsError);
}

}  // namespace
}  // namespace labgate::facts

// Tests of the ping -f command line and the summary parser on the seed 001
// outputs (as printed, lines wrapped), a real iputils run, and ping's refusals.
#include "labgate/netpath/ping_flood.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "util/source_file.h"

namespace labgate::netpath {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;

std::string ping_flood_file(const std::string& name) {
  return test_files::source_file("tests/fixtures/seeds-extra/ping/" + name);
}

TEST(PingFloodCommand, FloodsQuietlyAndEndsAtTheDeadline) {
  profile::TestSpec spec;
  spec.kind = profile::TestKind::kPingFlood;
  spec.ping.count = 1000;
  spec.ping.size = 1024;
  spec.duration = milliseconds(1500);
  const PingInvocation inv = ping_flood_command(spec, "198.19.1.2");
  EXPECT_EQ(inv.argv, (std::vector<std::string>{"ping", "-f", "-q", "-n", "-c", "1000", "-s", "1024", "-w",
                                                "2", "198.19.1.2"}));
  EXPECT_EQ(inv.timeout, seconds(17));
  spec.ping.interval = milliseconds(10);
  EXPECT_THAT(ping_flood_command(spec, "x").argv, ::testing::Contains("0.010"));
}

TEST(PingSummary, Seed001Flood1024ParsesToThePrintedNumbers) {
  const measure::Measurement m = parse_ping_summary(ping_flood_file("seed001-flood-1024.txt"), "seed 001");
  EXPECT_EQ(m.source, "ping");
  EXPECT_EQ(m.kind, "ping_flood");
  EXPECT_EQ(m.sent, 1000u);
  EXPECT_EQ(m.received, 1000u);
  EXPECT_EQ(m.dropped, 0u);
  EXPECT_EQ(m.loss_fraction, 0.0);
  EXPECT_DOUBLE_EQ(m.reported.at("min"), 849000);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 17959000);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 93454000);
  EXPECT_DOUBLE_EQ(m.reported.at("mdev"), 23936000);
  EXPECT_EQ(m.parameters.at("pipe"), "7");
  EXPECT_EQ(m.parameters.at("ipg_ms"), "7.022");
  EXPECT_EQ(m.parameters.at("ewma_ms"), "30.000");
  EXPECT_EQ(m.parameters.at("time_ms"), "7015");
  EXPECT_DOUBLE_EQ(m.duration_s, 7.015);
  // The budget path reads these through Measurement::stat().
  EXPECT_EQ(m.stat("max"), 93454000);
  EXPECT_EQ(m.stat("mdev"), 23936000);
  EXPECT_EQ(m.stat("max_loss"), 0.0);
}

TEST(PingSummary, Seed001Flood4096) {
  const measure::Measurement m = parse_ping_summary(ping_flood_file("seed001-flood-4096.txt"), "seed 001");
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 30375000);
  EXPECT_DOUBLE_EQ(m.reported.at("mdev"), 24913000);
  EXPECT_EQ(m.parameters.at("time_ms"), "10912");
}

TEST(PingSummary, Seed001LongFloodWrappedMidLineCountsTheOneLostPacket) {
  const measure::Measurement m = parse_ping_summary(ping_flood_file("seed001-flood-56.txt"), "seed 001");
  EXPECT_EQ(m.sent, 77214u);
  EXPECT_EQ(m.received, 77213u);
  EXPECT_EQ(m.dropped, 1u);
  EXPECT_EQ(m.parameters.at("printed_loss"), "0%");  // ping rounds it away
  EXPECT_NEAR(*m.loss_fraction, 1.0 / 77214, 1e-12);
  EXPECT_EQ(m.parameters.at("time_ms"), "750763");  // "time\n750763ms"
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 215691000);
  EXPECT_EQ(m.parameters.at("pipe"), "19");
}

TEST(PingSummary, RealIputilsRunOnLoopback) {
  const measure::Measurement m = parse_ping_summary(ping_flood_file("iputils20221126-flood-lo.txt"), "lo");
  EXPECT_EQ(m.sent, 500u);
  EXPECT_DOUBLE_EQ(m.reported.at("min"), 3000);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 56000);
  EXPECT_EQ(m.parameters.count("pipe"), 0u);  // a fast path needs no pipe
  EXPECT_EQ(m.parameters.at("ipg_ms"), "0.007");
}

TEST(PingSummary, SendsBeyondTheCountAreSaidAndTheirLossKept) {
  // iputils with -w: 500 replies asked, the last request still in flight at exit.
  measure::Measurement m = parse_ping_summary(
      "--- 198.18.0.2 ping statistics ---\n501 packets transmitted, 500 received, 0% packet loss, time 45ms\n"
      "rtt min/avg/max/mdev = 0.004/0.007/0.366/0.025 ms, ipg/ewma 0.090/0.006 ms\n",
      "a");
  note_sends_beyond_count(m, 500);
  EXPECT_EQ(m.dropped, 1u);  // never a pass by assumption
  EXPECT_EQ(m.parameters.at("sent_beyond_count"), "1");
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("1 of the 1 unanswered may be its last requests"), std::string::npos)
      << m.warnings[0];
  measure::Measurement exact = parse_ping_summary(ping_flood_file("iputils20221126-flood-lo.txt"), "lo");
  const auto before = exact.warnings.size();
  note_sends_beyond_count(exact, exact.sent);
  EXPECT_EQ(exact.warnings.size(), before);
  EXPECT_EQ(exact.parameters.count("sent_beyond_count"), 0u);
}

TEST(PingSummary, EverythingLostHasLossButNoLatency) {
  const std::string out = ping_flood_file("mtu-1472.out");  // 1 transmitted, 0 received
  const measure::Measurement m = parse_ping_summary(out, "a");
  EXPECT_EQ(m.loss_fraction, 1.0);
  EXPECT_TRUE(m.reported.empty());
  EXPECT_EQ(m.stat("max"), std::nullopt);  // a missing statistic fails its budget
  ASSERT_EQ(m.warnings.size(), 1u);
  const measure::Measurement e =
      parse_ping_summary(ping_flood_file("mtu-1473.out") + ping_flood_file("mtu-1473.err"), "a");
  EXPECT_EQ(e.parameters.at("errors"), "1");
}

TEST(PingSummary, NotRootIsSaidPlainly) {
  try {
    parse_ping_summary(ping_flood_file("flood-nonroot.out") + ping_flood_file("flood-nonroot.err"),
                       "ping on a");
    FAIL() << "no error";
  } catch (const PingError& e) {
    EXPECT_EQ(e.kind(), PingFailure::kNotPermitted);
    EXPECT_THAT(e.what(),
                HasSubstr("ping on a: ping refused: \"ping: cannot flood; minimal interval allowed for "
                          "user is 2ms\""));
    EXPECT_THAT(e.what(), HasSubstr("needs root on the target"));
  }
  // RHEL 5's iputils words it differently.
  EXPECT_THROW(parse_ping_summary("ping: cannot flood; minimal interval, allowed for user, is 200ms\n", "a"),
               PingError);
}

TEST(PingSummary, OtherFailuresAndJunk) {
  try {
    parse_ping_summary("ping: unknown host nosuch\n", "a");
    FAIL();
  } catch (const PingError& e) {
    EXPECT_EQ(e.kind(), PingFailure::kToolFailed);
  }
  try {
    parse_ping_summary("PING x (1.2.3.4) 56(84) bytes of data.\n", "a");
    FAIL();
  } catch (const PingError& e) {
    EXPECT_EQ(e.kind(), PingFailure::kMalformed);
    EXPECT_THAT(e.what(), HasSubstr("no \"N packets transmitted"));
  }
  EXPECT_THROW(parse_ping_summary("10 packets transmitted, 10 received, 0% packet loss, time 9ms\n", "a"),
               PingError);  // replies but no rtt line
  EXPECT_THROW(parse_ping_summary("1 packets transmitted, 5 received, 0% packet loss\n", "a"), PingError);
  EXPECT_THROW(parse_ping_summary(std::string(2 << 20, 'x'), "a"), PingError);
}

}  // namespace
}  // namespace labgate::netpath

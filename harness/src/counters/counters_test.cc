// Tests of the counter snapshots and deltas on /proc/net text recorded on this
// machine (a 6.x kernel) and in the RHEL 5 (2.6.18) layout, with edits that
// stand for what a test run makes the kernel count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "labgate/counters/delta.h"
#include "labgate/counters/snapshot.h"

namespace labgate::counters {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/seeds-extra/proc/";

std::string read(const std::string& name) {
  std::ifstream in(kDir + name);
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().empty()) throw std::runtime_error("missing fixture " + name);
  return s.str();
}

std::string modern() { return read("snmp.txt") + read("netstat.txt") + read("dev.txt"); }
std::string rhel5() { return read("snmp-rhel5.txt") + read("dev-rhel5.txt"); }

// Replaces the first match of `pattern` in `text` (an edit of a recorded file).
std::string edit(const std::string& text, const std::string& pattern, const std::string& with) {
  std::string out =
      std::regex_replace(text, std::regex(pattern), with, std::regex_constants::format_first_only);
  if (out == text) throw std::runtime_error("edit did not apply: " + pattern);
  return out;
}

TEST(Snapshot, ParsesTheThreeFilesAsOneCatPrintsThem) {
  EXPECT_EQ(snapshot_command(),
            (std::vector<std::string>{"cat", "/proc/net/snmp", "/proc/net/netstat", "/proc/net/dev"}));
  const Snapshot s = parse_snapshot(modern(), "counters on here");
  ASSERT_NE(s.find("Tcp", "RetransSegs"), nullptr);
  EXPECT_EQ(*s.find("Tcp", "RetransSegs"), 4);
  EXPECT_EQ(*s.find("Tcp", "MaxConn"), -1);
  EXPECT_EQ(*s.find("Udp", "RcvbufErrors"), 208005);
  EXPECT_NE(s.find("TcpExt", "ListenDrops"), nullptr);
  EXPECT_NE(s.find("IpExt", "InOctets"), nullptr);
  EXPECT_EQ(s.find("Tcp", "NoSuchField"), nullptr);
  ASSERT_EQ(s.interfaces.count("lg1a-m"), 1u);  // not indented: the name fills the column
  EXPECT_EQ(s.interfaces.at("lg1a-m").rx_bytes, 15974212);
  EXPECT_EQ(s.interfaces.at("eth0").tx_packets, 1975);
  EXPECT_EQ(s.interfaces.size(), 6u);
}

TEST(Snapshot, ReadsTheRhel5LayoutWithNoSpaceAfterTheColon) {
  const Snapshot s = parse_snapshot(rhel5(), "counters on a");
  EXPECT_EQ(s.interfaces.at("eth0").rx_bytes, 3456789012);
  EXPECT_EQ(s.interfaces.at("eth1").rx_dropped, 3);
  EXPECT_EQ(*s.find("Udp", "RcvbufErrors"), 0);
  EXPECT_EQ(s.find("Udp", "InCsumErrors"), nullptr);  // 2.6.18 has no such field
  EXPECT_EQ(*s.find("Tcp", "RetransSegs"), 37);
}

TEST(Snapshot, DevFirstThenSnmpAlsoParses) {
  const Snapshot s = parse_snapshot(read("dev-rhel5.txt") + read("snmp-rhel5.txt"), "x");
  EXPECT_EQ(s.interfaces.size(), 3u);
  EXPECT_EQ(*s.find("Tcp", "RetransSegs"), 37);
}

TEST(Snapshot, MalformedTextNamesTheLine) {
  try {
    parse_snapshot(edit(read("snmp-rhel5.txt"), "1 200 120000 -1 1532", "1 200 120000 -1 x1532"),
                   "counters on b");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("counters on b:8: Tcp ActiveOpens: 'x1532' is not an integer"));
  }
  EXPECT_THROW(parse_snapshot(edit(read("snmp-rhel5.txt"), " 0 88\n", " 0\n"), "x"),
               ParseError);                                                     // a value short
  EXPECT_THROW(parse_snapshot("Tcp: RtoAlgorithm RtoMin\n", "x"), ParseError);  // names, no values
  EXPECT_THROW(parse_snapshot("", "x"), ParseError);
  EXPECT_THROW(parse_snapshot("bash: /proc/net/snmp: No such file or directory\n", "x"), ParseError);
  EXPECT_THROW(parse_snapshot(edit(read("dev-rhel5.txt"), "   0    3    0", "   0    3"), "x"), ParseError);
}

TEST(Delta, RetransmitsDropsAndUdpBufferErrorsAfterALossyRun) {
  const std::string before = modern();
  std::string after = edit(before, "(Tcp: 1 200 120000 -1 73 24 0 2 0 1638494 1647598) 4 ", "$1 19 ");
  after = edit(after, "(Udp: 1555753 1) 208005 1763763 208005", "$1 208105 1763763 208100");
  after = edit(after, "(eth0: 162406992    3371    0)    0    0", "$1    7    2");
  after = edit(after, "(lo: 498715888 3396401)    0    0", "$1    0    9");
  const Delta d = delta(parse_snapshot(before, "before"), parse_snapshot(after, "after"));
  EXPECT_EQ(d.retransmits, 15);
  EXPECT_EQ(d.udp_rcvbuf_errors, 95);
  EXPECT_EQ(d.udp_in_errors, 100);
  EXPECT_EQ(d.rx_drops, 9);  // eth0 drop 7 + fifo 2; lo is not counted by default
  EXPECT_EQ(d.rx_errors, 0);
  EXPECT_EQ(d.listen_drops, 0);
  EXPECT_EQ(d.changed.at("Tcp.RetransSegs"), 15);
  EXPECT_EQ(d.changed.at("dev.lo.rx_dropped"), 9);  // still listed for the report
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(trouble(d).size(), 4u);
}

TEST(Delta, OnlyTheNamedInterfacesAreSummed) {
  const std::string before = rhel5();
  const std::string after = edit(before, "(eth1:1898765432 9876543    0)    3", "$1   10");
  const Delta all = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"));
  EXPECT_EQ(all.rx_drops, 7);
  const Delta eth0 = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"), {"eth0"});
  EXPECT_EQ(eth0.rx_drops, 0);
  const Delta missing = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"), {"eth9"});
  ASSERT_EQ(missing.warnings.size(), 1u);
  EXPECT_THAT(missing.warnings[0], HasSubstr("interface eth9 is not in /proc/net/dev"));
}

TEST(Delta, AQuietRunHasNoTroubleAndGaugesAreNotDifferenced) {
  const std::string before = rhel5();
  const std::string after = edit(before, "(Tcp: 1 200 120000 -1 1532 88 2 19) 6 982313", "$1 2 982400");
  const Delta d = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"));
  EXPECT_TRUE(trouble(d).empty());
  EXPECT_EQ(d.changed.count("Tcp.CurrEstab"), 0u);
  EXPECT_EQ(d.changed.at("Tcp.InSegs"), 87);
}

TEST(Delta, A32BitCounterThatWrappedIsCountedAndSaid) {
  const std::string before = rhel5();
  const std::string after = edit(before, "Ip: 2 64 4294967290", "Ip: 2 64 10");
  const Delta d = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"));
  EXPECT_EQ(d.changed.at("Ip.InReceives"), 16);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_THAT(d.warnings[0], HasSubstr("Ip.InReceives wrapped at 2^32"));
}

TEST(Delta, JsonAndMeasurementCarryBothHosts) {
  const std::string before = rhel5();
  const std::string after = edit(before, "(Tcp: 1 200 120000 -1 1532 88 2 19 6 982313 1019227) 37", "$1 40");
  Delta a = delta(parse_snapshot(before, "b"), parse_snapshot(after, "a"));
  a.host = "a";
  Delta b = delta(parse_snapshot(before, "b"),
                  parse_snapshot(edit(after, "(Udp: 374922 12 0 90230) 0", "$1 5"), "a"));
  b.host = "b";
  const nlohmann::json j = to_json(a);
  EXPECT_EQ(j["host"], "a");
  EXPECT_EQ(j["retransmits"], 3);
  EXPECT_TRUE(j["listen_drops"].is_null());  // RHEL 5's snmp text here has no TcpExt
  measure::Measurement m;
  add_to_measurement(a, m);
  add_to_measurement(b, m);
  EXPECT_DOUBLE_EQ(m.reported.at("retransmits"), 6);  // 3 on each host
  EXPECT_DOUBLE_EQ(m.reported.at("udp_rcvbuf_errors"), 5);
  EXPECT_DOUBLE_EQ(m.reported.at("rx_drops"), 0);
  EXPECT_EQ(m.parameters.at("counters.b.udp_rcvbuf_errors"), "5");
  EXPECT_EQ(m.parameters.at("counters.a.listen_drops"), "unknown");
}

}  // namespace
}  // namespace labgate::counters

// The tool driver: its decisions on a scripted transport (retry, timeout, failure,
// the server always stopped), and real sockperf and iperf3 runs over loopback and,
// as root, between two network namespaces.
#include "labgate/tools/tool_driver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "labgate/tools/sockperf_full_log.h"
#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using profile::Tool;
using ::testing::HasSubstr;
using transport::FakeTransport;
using transport::RunResult;

profile::TestSpec driver_spec(Tool tool, TestKind kind, std::chrono::nanoseconds duration = 1s) {
  profile::TestSpec s;
  s.name = "drv";
  s.tool = tool;
  s.kind = kind;
  s.duration = duration;
  s.warmup = 0s;
  s.message_size = 64;
  s.pos = {"lab.toml", 7, 1};
  return s;
}

// /proc/net/udp and /proc/net/tcp as Linux prints them: 198.19.210.2 is C6D2 13C6 -> "02D213C6".
const char* kUdpBound =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref "
    "pointer drops\n"
    "  123: 02D213C6:A028 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1 2 0 0\n";
const char* kTcpListen =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 00000000:A028 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1\n"
    "   1: 02D213C6:A029 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2\n";

TEST(PortBound, ReadsProcNet) {
  EXPECT_TRUE(port_bound(kUdpBound, "198.19.210.2", 41000, false));
  EXPECT_FALSE(port_bound(kUdpBound, "198.19.210.3", 41000, false));
  EXPECT_FALSE(port_bound(kUdpBound, "198.19.210.2", 41001, false));
  EXPECT_TRUE(port_bound(kTcpListen, "198.19.210.2", 41000, true)) << "0.0.0.0 listens on every address";
  EXPECT_FALSE(port_bound(kTcpListen, "198.19.210.2", 41001, true))
      << "an established socket is not listening";
  EXPECT_FALSE(port_bound("garbage\n\n: :\n", "198.19.210.2", 41000, true));
}

// /proc/net/tcp6 and udp6 as this kernel printed them (fd00::2 and ::1 listening
// on 41002 and 41000, UDP on the wildcard :: port 41001): four little-endian words.
const char* kTcp6Listen =
    "  sl  local_address                         remote_address                        st tx_queue rx_queue "
    "tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 000000FD000000000000000002000000:A02A 00000000000000000000000000000000:0000 0A 00000000:00000000 "
    "00:00000000 00000000     0        0 91262 1 00000000db08b078 100 0 0 10 0\n"
    "   1: 00000000000000000000000001000000:A028 00000000000000000000000000000000:0000 0A 00000000:00000000 "
    "00:00000000 00000000     0        0 91169 1 00000000db08b078 100 0 0 10 0\n";
const char* kUdp6Any =
    " 9341: 00000000000000000000000000000000:A029 00000000000000000000000000000000:0000 07 00000000:00000000 "
    "00:00000000 00000000     0        0 91170 2 00000000c6ed48ca 0\n";

TEST(PortBound, ReadsProcNetForIpv6) {
  EXPECT_TRUE(port_bound(kTcp6Listen, "fd00::2", 41002, true));
  EXPECT_TRUE(port_bound(kTcp6Listen, "fd00:0::0002", 41002, true)) << "any spelling of the address";
  EXPECT_FALSE(port_bound(kTcp6Listen, "fd00::3", 41002, true));
  EXPECT_TRUE(port_bound(kTcp6Listen, "::1", 41000, true));
  EXPECT_FALSE(port_bound(kTcp6Listen, "fd00::2", 41000, true));
  EXPECT_TRUE(port_bound(kUdp6Any, "fd4c:6762:0:19::2", 41001, false)) << ":: takes every address";
}

TEST(ToolDriver, RunsClientParsesAndStopsTheServer) {
  FakeTransport a("a"), b("b");
  b.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
  a.on({"sockperf", "pp"}, FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")));
  const ToolRun run =
      run_tool_test(driver_spec(Tool::kSockperf, TestKind::kUdpRr), a, b, test_util::kPairEndpoint);
  EXPECT_EQ(b.stopped(), 1);
  EXPECT_EQ(run.measurement.host, "a");
  EXPECT_EQ(run.measurement.peer, "b");
  EXPECT_DOUBLE_EQ(run.measurement.reported.at("mean"), 13358);
  EXPECT_EQ(run.measurement.parameters.at("server_command"), "sockperf sr -i 198.19.210.2 -p 41000");
  EXPECT_THAT(run.measurement.parameters.at("client_command"),
              HasSubstr("--full-rtt --client_ip 198.19.210.1"));
  ASSERT_EQ(a.calls().size(), 1u);
  EXPECT_EQ(a.calls()[0].timeout, run.invocation.client_timeout);
}

// full_log: after the client's run, one pass on the client host reads the log
// (and removes it) with its own timeout; a pass that fails costs the join only.
TEST(ToolDriver, TheFullLogIsReadOnTheClientHostAfterItsRun) {
  FakeTransport a("a"), b("b");
  b.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
  a.on({"sockperf", "pp"}, FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")));
  a.on({"sh", "-c"}, FakeTransport::ok("samples 2 10.000000000 10.000090000\n1, 10.00002, 10.00009, 70.000\n"));
  auto spec = driver_spec(Tool::kSockperf, TestKind::kUdpRr);
  spec.full_log = true;
  Endpoint ep = test_util::kPairEndpoint;
  ep.full_log_path = "/tmp/run1/sockperf-1.full.log";
  const ToolRun run = run_tool_test(spec, a, b, ep);
  ASSERT_EQ(a.calls().size(), 2u);
  EXPECT_EQ(a.calls()[1].argv, full_log_worst_argv(ep.full_log_path, kFullLogKept));
  ASSERT_TRUE(a.calls()[1].timeout);
  EXPECT_EQ(*a.calls()[1].timeout, spec.warmup + spec.duration + std::chrono::seconds(30));
  ASSERT_TRUE(run.full_log);
  EXPECT_EQ(parse_full_log_worst(run.full_log->out).worst.at(0).index, 1u);
  EXPECT_DOUBLE_EQ(run.measurement.reported.at("mean"), 13358) << "the measurement is sockperf's all the same";

  FakeTransport c("c"), d("d");
  d.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
  c.on({"sockperf", "pp"}, FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")));
  c.on({"sh", "-c"}, FakeTransport::exit_with(2, "awk: cannot open /tmp/run1/sockperf-1.full.log\n"));
  const ToolRun failed = run_tool_test(spec, c, d, ep);
  ASSERT_TRUE(failed.full_log);
  EXPECT_FALSE(failed.full_log->ok());
  EXPECT_DOUBLE_EQ(failed.measurement.reported.at("mean"), 13358);
}

TEST(ToolDriver, EachToolWarningIsInTheMeasurementOnce) {
  // The driver copies the invocation's warnings into the measurement; a caller
  // adding them again wrote every tool warning twice into measurement.json.
  FakeTransport a("a"), b("b");
  b.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
  a.on({"sockperf", "pp"}, FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")));
  profile::TestSpec s = driver_spec(Tool::kSockperf, TestKind::kUdpRr);
  s.warmup = 1s;  // sockperf cannot apply it, and says so
  const ToolRun run = run_tool_test(s, a, b, test_util::kPairEndpoint);
  ASSERT_FALSE(run.invocation.warnings.empty());
  for (const std::string& w : run.invocation.warnings)
    EXPECT_EQ(std::count(run.measurement.warnings.begin(), run.measurement.warnings.end(), w), 1) << w;
}

TEST(ToolDriver, RetriesWhileTheServerIsUnreachable) {
  FakeTransport a("a"), b("b");
  b.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/tcp"}, FakeTransport::ok(kTcpListen));
  a.on({"sockperf", "pp"}, FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-tcp-rtt.txt")));
  a.once({"sockperf", "pp"},
         FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-tcp-refused.txt")));
  const ToolRun run =
      run_tool_test(driver_spec(Tool::kSockperf, TestKind::kTcpRr), a, b, test_util::kPairEndpoint);
  EXPECT_EQ(a.calls().size(), 2u);
  EXPECT_EQ(run.measurement.kind, "tcp_rr");

  FakeTransport c("c"), d("d");
  d.on({"sockperf", "sr"}, FakeTransport::ok()).on({"cat", "/proc/net/tcp"}, FakeTransport::ok(kTcpListen));
  c.on({"sockperf", "pp"},
       FakeTransport::ok(test_util::fixture_text("sockperf", "sockperf37-tcp-refused.txt")));
  EXPECT_THAT(
      [&] { run_tool_test(driver_spec(Tool::kSockperf, TestKind::kTcpRr), c, d, test_util::kPairEndpoint); },
      ::testing::ThrowsMessage<Failure>(HasSubstr("host c: sockperf test 'drv' failed:")));
  EXPECT_EQ(c.calls().size(), 3u);
  EXPECT_EQ(d.stopped(), 1);
}

TEST(ToolDriver, ClientTimeoutIsCouldNotRunAndStopsTheServer) {
  FakeTransport a("a"), b("b");
  b.on({"iperf3", "-s"}, FakeTransport::ok()).on({"cat", "/proc/net/tcp"}, FakeTransport::ok(kTcpListen));
  RunResult hung;
  hung.timed_out = true;
  hung.duration = 31s;
  a.on({"iperf3", "-c"}, hung);
  try {
    run_tool_test(driver_spec(Tool::kIperf3, TestKind::kTcpStream), a, b, test_util::kPairEndpoint);
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(), HasSubstr("host a: `iperf3 -c 198.19.210.2"));
    EXPECT_THAT(f.what(), HasSubstr("the iperf3 client was killed"));
  }
  EXPECT_EQ(b.stopped(), 1);
}

TEST(ToolDriver, ServerThatEndsBeforeListeningIsNamed) {
  FakeTransport a("a"), b("b");
  b.on({"netserver"}, FakeTransport::exit_with(1, "netserver: bind: Address already in use\n"));
  b.on({"cat", "/proc/net/tcp"}, FakeTransport::ok("  sl  local_address\n"));
  try {
    run_tool_test(driver_spec(Tool::kNetperf, TestKind::kTcpRr), a, b, test_util::kPairEndpoint);
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(),
                HasSubstr("host b: `netserver -D -f -4 -L 198.19.210.2 -p 41000` ended (exit 1) before "
                          "listening on 198.19.210.2:41000: netserver: bind: Address already in use"));
  }
  EXPECT_TRUE(a.calls().empty()) << "no client without a server";
}

TEST(ToolDriver, SockperfBefore38RefusingAnIpv6AddressIsSaidSo) {
  FakeTransport a("a"), b("b");
  // Debian 12's sockperf 3.7, as it answers (exit 0, on stdout).
  b.on({"sockperf"}, FakeTransport::ok("sockperf: '-i' Invalid address: fd4c:6762:0:19::2\nserver (sr): Run "
                                       "sockperf as a server.\n"));
  b.on({"cat", "/proc/net/udp6"}, FakeTransport::ok("  sl  local_address\n"));
  try {
    run_tool_test(driver_spec(Tool::kSockperf, TestKind::kUdpRr), a, b,
                  Endpoint{"fd4c:6762:0:19::2", "fd4c:6762:0:19::1", 41000});
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(),
                HasSubstr("sockperf: '-i' Invalid address: fd4c:6762:0:19::2 (sockperf takes an IPv6 "
                          "address from 3.8 on"));
    EXPECT_THAT(f.what(), HasSubstr("tool_path = \"sockperf-3.10\""));
  }
}

TEST(ToolDriver, ChosenPortThatIsTakenIsRetriedElsewhere) {
  FakeTransport a("a"), b("b");
  b.on({"iperf3", "-s"}, FakeTransport::exit_with(1,
                                                  "iperf3: error - unable to start listener for connections: "
                                                  "Address already in use\n"));
  b.on({"cat", "/proc/net/tcp"}, FakeTransport::ok(""));
  Endpoint any = test_util::kPairEndpoint;
  any.port = 0;
  EXPECT_THROW(run_tool_test(driver_spec(Tool::kIperf3, TestKind::kUdpStream), a, b, any), Failure);
  int starts = 0;
  for (const auto& c : b.calls()) starts += c.started ? 1 : 0;
  EXPECT_EQ(starts, DriverOptions{}.port_attempts);
  EXPECT_EQ(b.stopped(), DriverOptions{}.port_attempts);
}

TEST(ToolDriver, ToolFailureAndGarbageAreCouldNotRun) {
  FakeTransport a("a"), b("b");
  b.on({"iperf3", "-s"}, FakeTransport::ok()).on({"cat", "/proc/net/tcp"}, FakeTransport::ok(kTcpListen));
  a.on({"iperf3", "-c"},
       FakeTransport::exit_with(1, "iperf3: error - control socket has closed unexpectedly\n"));
  EXPECT_THAT(
      [&] {
        run_tool_test(driver_spec(Tool::kIperf3, TestKind::kTcpStream), a, b, test_util::kPairEndpoint);
      },
      ::testing::ThrowsMessage<Failure>(HasSubstr("` exit 1: iperf3: error - control socket has closed")));
  EXPECT_EQ(b.stopped(), 1);
}

TEST(ToolDriver, WhatTheToolCannotRunIsAUsageError) {
  FakeTransport a("a"), b("b");
  try {
    run_tool_test(driver_spec(Tool::kIperf3, TestKind::kUdpRr), a, b, test_util::kPairEndpoint);
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    EXPECT_THAT(f.what(), HasSubstr("test 'drv' (lab.toml:7:1): iperf3 measures throughput"));
  }
  EXPECT_TRUE(b.calls().empty());
}

/// Real tools over loopback: the argv labgate builds is one sockperf 3.7 and iperf3 3.12 accept.
class RealTools : public ::testing::Test {
 protected:
  profile::Host local(const std::string& name) {
    profile::Host h;
    h.name = name;
    h.address = "local";
    return h;
  }
  void expect_nothing_left(transport::Transport& t, const ToolRun& run, bool tcp) {
    const RunResult r = t.run({"cat", tcp ? "/proc/net/tcp" : "/proc/net/udp"});
    EXPECT_FALSE(port_bound(r.out, run.invocation.parameters.at("server_address"),
                            std::stoi(run.invocation.parameters.at("port")), tcp))
        << "the server must be stopped";
  }
};

TEST_F(RealTools, SockperfAndIperf3OverLoopback) {
  auto a = transport::make_transport(local("a"));
  auto b = transport::make_transport(local("b"));
  const Endpoint lo{"127.0.0.1", "127.0.0.1", 0};
  for (TestKind k : {TestKind::kUdpRr, TestKind::kTcpRr}) {
    const ToolRun run = run_tool_test(driver_spec(Tool::kSockperf, k), *a, *b, lo);
    EXPECT_EQ(run.measurement.kind, profile::to_string(k));
    EXPECT_GT(run.measurement.sent, 100u);
    EXPECT_GT(*run.measurement.stat("p99"), 0);
    EXPECT_THAT(run.measurement.parameters.at("latency_normalised"), HasSubstr("--full-rtt"));
    expect_nothing_left(*b, run, k == TestKind::kTcpRr);
  }
  for (TestKind k : {TestKind::kTcpStream, TestKind::kUdpStream}) {
    auto s = driver_spec(Tool::kIperf3, k);
    s.rate_per_sec = 10000;  // 5 Mbit/s of 64-byte messages: gentle on a shared CI machine
    const ToolRun run = run_tool_test(s, *a, *b, lo);
    EXPECT_EQ(run.measurement.kind, profile::to_string(k));
    EXPECT_GT(*run.measurement.throughput_bps, 1e6);
    expect_nothing_left(*b, run, true);
  }
}

/// Two namespaces joined by a veth, like the built-in lab's interconnect (root only).
class LabNamespaces : public RealTools {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to create network namespaces";
    const std::string id = std::to_string(getpid() % 100000);
    ns_a_ = "lgt-drv" + id + "a";
    ns_b_ = "lgt-drv" + id + "b";
    const std::string va = "lgtd" + id + "a", vb = "lgtd" + id + "b";
    sh("ip netns add " + ns_a_ + " && ip netns add " + ns_b_ + " && ip link add " + va +
       " type veth peer name " + vb + " && ip link set " + va + " netns " + ns_a_ + " && ip link set " + vb +
       " netns " + ns_b_ + " && ip -n " + ns_a_ + " addr add 198.19.212.1/24 dev " + va + " && ip -n " +
       ns_b_ + " addr add 198.19.212.2/24 dev " + vb + " && ip -n " + ns_a_ + " link set " + va +
       " up && ip -n " + ns_b_ + " link set " + vb + " up && ip -n " + ns_a_ + " link set lo up && ip -n " +
       ns_b_ + " link set lo up");
  }
  void TearDown() override {
    if (!ns_a_.empty())
      sh("ip netns del " + ns_a_ + " 2>/dev/null; ip netns del " + ns_b_ + " 2>/dev/null; true");
  }
  void sh(const std::string& cmd) { ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd; }
  profile::Host in_ns(const std::string& name, const std::string& ns) {
    profile::Host h = local(name);
    h.netns = ns;
    return h;
  }
  std::string ns_a_, ns_b_;
};

TEST_F(LabNamespaces, ServerBoundToTheTestAddressOfTheFarHost) {
  auto a = transport::make_transport(in_ns("a", ns_a_));
  auto b = transport::make_transport(in_ns("b", ns_b_));
  const Endpoint ep{"198.19.212.2", "198.19.212.1", 0};
  const ToolRun rr = run_tool_test(driver_spec(Tool::kSockperf, TestKind::kUdpRr), *a, *b, ep);
  EXPECT_GT(rr.measurement.received, 100u);
  EXPECT_EQ(rr.measurement.dropped, 0u);
  expect_nothing_left(*b, rr, false);
  auto s = driver_spec(Tool::kIperf3, TestKind::kUdpStream);
  s.rate_per_sec = 10000;
  const ToolRun udp = run_tool_test(s, *a, *b, ep);
  EXPECT_NEAR(*udp.measurement.throughput_bps, 10000 * 64 * 8, 10000 * 64 * 8 * 0.2);
  EXPECT_TRUE(udp.measurement.loss_fraction);
  expect_nothing_left(*b, udp, true);
}

}  // namespace
}  // namespace labgate::tools

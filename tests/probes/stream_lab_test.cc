// The real stream probe between two namespaces: TCP throughput with every byte
// accounted for, and UDP loss as counted by the receiver under real packet loss.
#include <chrono>
#include <thread>

#include "probe_lab.h"
#include "probe_run.h"

namespace labgate::probes_test {
namespace {

using namespace std::chrono_literals;

class StreamLab : public ProbeLab {
 protected:
  void start(const std::string& proto) {
    server_ = start_server(lab().b(), {probe_path("stream"), "server", "--bind", NetnsPair::kAddrB, "--proto",
                                       proto, "--idle-timeout", "20s"});
  }
  ClientRun stream(const std::string& proto, const std::vector<std::string>& extra = {}) {
    if (!server_.process) start(proto);
    std::vector<std::string> argv{probe_path("stream"),
                                  "client",
                                  "--connect",
                                  NetnsPair::kAddrB,
                                  "--port",
                                  std::to_string(server_.listening.port),
                                  "--proto",
                                  proto};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_client(lab().a(), argv, 15s);
  }
  Server server_;
};

// --once (what the gate passes): the server ends as soon as its one session
// is over, its report sent, so the gate reads its summary without stopping it.
TEST_F(StreamLab, WithOnceTheServerEndsRightAfterItsOneSession) {
  for (const std::string proto : {"tcp", "udp"}) {
    SCOPED_TRACE(proto);
    Server s = start_server(lab().b(), {probe_path("stream"), "server", "--bind", NetnsPair::kAddrB,
                                        "--proto", proto, "--idle-timeout", "20s", "--once"});
    const ClientRun c = run_client(
        lab().a(),
        {probe_path("stream"), "client", "--connect", NetnsPair::kAddrB, "--port",
         std::to_string(s.listening.port), "--proto", proto, "--duration", "300ms", "--warmup", "100ms"},
        15s);
    ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
    const auto done = s.process->wait(1s);  // the idle timeout is 20 s: only --once ends it this soon
    ASSERT_TRUE(done) << proto << " server still running 1 s after its session";
    const auto second = done->out.find('\n');
    const nlohmann::json sum = nlohmann::json::parse(done->out.substr(second + 1), nullptr, false);
    EXPECT_EQ(sum["exit_reason"], "once");
    EXPECT_EQ(sum["counters"]["sessions"].get<std::uint64_t>(), 1u);
  }
}

TEST_F(StreamLab, TcpThroughputWithEveryByteDelivered) {
  const ClientRun c = stream("tcp", {"--duration", "2s", "--warmup", "300ms", "--size", "16KiB"});
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  const measure::Measurement& m = c.m();
  EXPECT_EQ(m.kind, "tcp_stream");
  EXPECT_EQ(m.metric, measure::Metric::kSendTime);
  EXPECT_GT(m.histogram.count(), 100u);
  EXPECT_EQ(m.histogram.count(), m.sent);
  ASSERT_TRUE(m.throughput_bps);
  EXPECT_GT(*m.throughput_bps, 10e6);
  EXPECT_FALSE(m.loss_fraction);
  EXPECT_NEAR(m.duration_s, 2.0, 0.15);
  EXPECT_EQ(c.doc["counters"]["server_total_bytes"], c.doc["counters"]["client_total_bytes"]);
  EXPECT_GT(c.doc["counters"]["warmup"]["sent_bytes"].get<std::uint64_t>(), 0u);
}

TEST_F(StreamLab, UdpLossIsTheReceiversCount) {
  lab().add_udp_loss(20);
  const ClientRun c = stream("udp", {"--duration", "2s", "--warmup", "300ms", "--size", "1KiB"});
  lab().clear_loss();
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  const measure::Measurement& m = c.m();
  EXPECT_EQ(m.kind, "udp_stream");
  EXPECT_GT(m.sent, 1000u);
  EXPECT_LT(m.received, m.sent);
  EXPECT_EQ(m.dropped, m.sent - m.received);
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_GE(*m.loss_fraction, 0.15) << "20% of datagrams are dropped on the way";
  EXPECT_LE(*m.throughput_bps, m.reported.at("send_throughput_bps"));
  EXPECT_EQ(m.stat("max_loss"), m.loss_fraction);
}

TEST_F(StreamLab, UdpRateIsTheOfferedRateAndTheLossUnderItIsTheWires) {
  // Paced, the sender offers 2000/s whatever the machine's load (it catches up
  // when held back), so a loss is the wire's, not a starved receiver's.
  lab().add_udp_loss(10);
  const ClientRun c = stream("udp", {"--duration", "2s", "--warmup", "200ms", "--rate", "2000/s"});
  lab().clear_loss();
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  const measure::Measurement& m = c.m();
  EXPECT_EQ(c.doc["parameters"]["mode"], "open_loop");
  EXPECT_NEAR(static_cast<double>(m.sent), 2000 * m.duration_s, 40) << "the schedule, not the socket, set the count";
  ASSERT_TRUE(m.expectation);
  EXPECT_NEAR(m.expectation->expected, 2000 * m.duration_s, 1);
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_GT(*m.loss_fraction, 0.05);
  EXPECT_LT(*m.loss_fraction, 0.15) << "10% is dropped on the way, and the receiver keeps up with 2000/s";
}

TEST_F(StreamLab, UdpTotalLossIsAMeasuredLossNotAnError) {
  lab().add_udp_loss(100);
  const ClientRun c = stream("udp", {"--duration", "1s", "--warmup", "100ms"});
  lab().clear_loss();
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  EXPECT_EQ(c.m().received, 0u);
  EXPECT_EQ(c.m().loss_fraction, 1.0);
  EXPECT_EQ(c.m().throughput_bps, 0.0);
}

TEST_F(StreamLab, UdpServerVanishingIsAnError) {
  start("udp");
  std::thread killer([this] {
    std::this_thread::sleep_for(1s);
    server_.process->stop(0ms);
  });
  const ClientRun c = stream("udp", {"--duration", "3s", "--warmup", "0s", "--server-timeout", "1s"});
  killer.join();
  EXPECT_EQ(c.result.exit_status, 3);
  EXPECT_NE(c.parse_error.find("stream client could not measure"), std::string::npos) << c.parse_error;
}

}  // namespace
}  // namespace labgate::probes_test

// A profile test end to end, the way the latency suite wires it: command lines
// from the TestSpec, server port from its listening line, client output parsed,
// the measurement judged by the test's budget (one that holds, one that cannot).
#include <chrono>

#include "labgate/budget/budget.h"
#include "labgate/measure/probe_command.h"
#include "probe_lab.h"
#include "probe_run.h"

namespace labgate::probes_test {
namespace {

using namespace std::chrono_literals;
using profile::Stat;

class ProfileTestLab : public ProbeLab {
 protected:
  measure::Measurement run(const profile::TestSpec& spec) {
    Server s =
        start_server(lab().b(), measure::probe_server_argv(spec, LABGATE_PROBE_DIR, NetnsPair::kAddrB));
    const ClientRun c = run_client(
        lab().a(), measure::probe_client_argv(spec, LABGATE_PROBE_DIR, NetnsPair::kAddrB, s.listening.port),
        measure::probe_client_timeout(spec));
    EXPECT_EQ(c.result.exit_status, 0) << c.result.err;
    return c.m();
  }
};

profile::Bound bound(Stat s, double limit) { return {s, limit, {"lab.toml", 7, 1}, ""}; }

TEST_F(ProfileTestLab, UdpRrOpenLoopJudgedByItsBudget) {
  profile::TestSpec spec;
  spec.name = "udp_rr_64";
  spec.kind = profile::TestKind::kUdpRr;
  spec.duration = 2s;
  spec.warmup = 200ms;
  spec.rate_per_sec = 2000;
  spec.cpu = {1, 0};
  const measure::Measurement m = run(spec);
  EXPECT_EQ(m.sent, 4000u);
  EXPECT_EQ(m.parameters.at("mode"), "open_loop");
  EXPECT_EQ(m.parameters.at("cpu_actual"), "1");

  // The lab cannot promise a tail or zero drops on a loaded 2-core VM (a CI run
  // saw p99 184 ms and 139 drops here while other work ran): the judge is held
  // to this run's own figures instead. At them every budget holds; a hair under
  // its p99 or its drop count, the budget fails and names the figure.
  const double p99 = m.stat("p99").value();
  const double loss = m.loss_fraction.value();
  const auto holds = budget::evaluate(
      m, {bound(Stat::kP99, p99), bound(Stat::kDropped, static_cast<double>(m.dropped)), bound(Stat::kMaxLoss, loss)});
  EXPECT_TRUE(holds.pass) << holds.failure_message();
  const auto tighter = budget::evaluate(m, {bound(Stat::kP99, p99 - 1)});
  EXPECT_FALSE(tighter.pass);
  EXPECT_NE(tighter.failure_message().find("p99 = "), std::string::npos) << tighter.failure_message();
  if (m.dropped > 0) {
    const auto fewer = budget::evaluate(m, {bound(Stat::kDropped, static_cast<double>(m.dropped) - 1)});
    EXPECT_FALSE(fewer.pass) << "a drop over the budget passed";
  }
  EXPECT_NEAR(static_cast<double>(m.dropped + m.received), static_cast<double>(m.sent), 1)
      << "every open-loop request is a round trip or a counted drop (one may be in flight at the end)";

  const auto cannot = budget::evaluate(m, {bound(Stat::kP50, 1), bound(Stat::kMinThroughput, 1)});
  EXPECT_FALSE(cannot.pass);
  EXPECT_NE(cannot.failure_message().find("p50 = "), std::string::npos) << cannot.failure_message();
  EXPECT_NE(cannot.failure_message().find("exceeds the budget of 1ns"), std::string::npos);
  EXPECT_NE(cannot.failure_message().find("min_throughput: not measured"), std::string::npos)
      << "an rr run has no throughput: a budget on it fails, it does not pass";
}

TEST_F(ProfileTestLab, TcpStreamJudgedByItsThroughputFloor) {
  profile::TestSpec spec;
  spec.name = "tcp_stream_1k";
  spec.kind = profile::TestKind::kTcpStream;
  spec.duration = 2s;
  spec.warmup = 200ms;
  spec.message_size = 1024;
  const measure::Measurement m = run(spec);
  const auto r = budget::evaluate(m, {bound(Stat::kMinThroughput, 1e6), bound(Stat::kMinThroughput, 1e15)});
  ASSERT_EQ(r.verdicts.size(), 2u);
  EXPECT_TRUE(r.verdicts[0].pass);
  EXPECT_FALSE(r.verdicts[1].pass);
  EXPECT_NE(r.failure_message().find("is below the floor of 1000Tbit/s"), std::string::npos)
      << r.failure_message();
}

}  // namespace
}  // namespace labgate::probes_test

// The real pingpong probe between two namespaces: what it measures, warm-up
// exclusion, drops under loss within the planned time, the open-loop view of a
// stall, a vanishing server, binding, idle exit and memory that does not grow.
#include <signal.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "probe_lab.h"
#include "probe_run.h"

namespace labgate::probes_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class PingpongLab : public ProbeLab {
 protected:
  Server server(const std::string& proto, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv{probe_path("pingpong"), "server",  "--bind",
                                  NetnsPair::kAddrB,      "--proto", proto,
                                  "--idle-timeout",       "20s"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return start_server(lab().b(), argv);
  }
  ClientRun client(const Server& s, const std::vector<std::string>& extra,
                   std::chrono::nanoseconds timeout = 15s) {
    std::vector<std::string> argv{
        probe_path("pingpong"),           "client",  "--connect",      NetnsPair::kAddrB, "--port",
        std::to_string(s.listening.port), "--proto", s.listening.proto};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_client(lab().a(), argv, timeout);
  }
  /// The JSON summary a server prints when it exits (its second line).
  static nlohmann::json summary(const transport::RunResult& r) {
    const auto second = r.out.find('\n');
    return nlohmann::json::parse(r.out.substr(second + 1), nullptr, false);
  }
};

TEST_F(PingpongLab, TcpClosedLoopRecordsEveryRoundTripAfterTheWarmup) {
  Server s = server("tcp", {"--cpu", "0"});
  const ClientRun c = client(s, {"--duration", "2s", "--warmup", "500ms", "--cpu", "1", "--progress"});
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  const measure::Measurement& m = c.m();
  EXPECT_EQ(m.kind, "tcp_rr");
  EXPECT_GT(m.histogram.count(), 1000u);
  EXPECT_GT(*m.stat("p50"), 0);
  EXPECT_EQ(m.histogram.count(), m.received);
  EXPECT_EQ(m.sent, m.received);
  EXPECT_EQ(m.dropped, 0u);
  EXPECT_NEAR(m.duration_s, 2.0, 0.1);
  EXPECT_DOUBLE_EQ(m.warmup_s, 0.5);
  EXPECT_EQ(m.parameters.at("cpu_actual"), "1");
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
  ASSERT_EQ(m.series.size(), 2u);
  EXPECT_EQ(m.series[0].count + m.series[1].count, m.histogram.count());
  // --progress: one line per interval on stderr, stdout untouched.
  std::istringstream err(c.result.err);
  std::string line;
  int lines = 0;
  while (std::getline(err, line)) {
    const auto p = nlohmann::json::parse(line, nullptr, false);
    ASSERT_TRUE(p.is_object()) << line;
    EXPECT_EQ(p["progress"], "tcp_rr");
    EXPECT_EQ(p["count"].get<std::uint64_t>(), m.series[static_cast<std::size_t>(lines)].count);
    ++lines;
  }
  EXPECT_EQ(lines, 2);
  // The warm-up happened (and was echoed) but none of it is in the histogram.
  const auto warm = c.doc["counters"]["warmup"]["received"].get<std::uint64_t>();
  EXPECT_GT(warm, 0u);
  const nlohmann::json sum = summary(s.process->stop(2s));
  ASSERT_TRUE(sum.is_object());
  EXPECT_EQ(sum["counters"]["requests"].get<std::uint64_t>(), warm + m.sent);
  EXPECT_EQ(sum["parameters"]["cpu_actual"].get<int>(), 0);
}

TEST_F(PingpongLab, UdpDropsUnderLossAreCountedAndTheRunEndsOnTime) {
  lab().add_udp_loss(20);
  Server s = server("udp");
  const auto t0 = Clock::now();
  const ClientRun c = client(s, {"--duration", "2s", "--warmup", "300ms", "--recv-timeout", "50ms"});
  const auto wall = Clock::now() - t0;
  lab().clear_loss();
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  const measure::Measurement& m = c.m();
  EXPECT_GT(m.dropped, 0u);
  EXPECT_EQ(m.sent, m.received + m.dropped);
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_GT(*m.loss_fraction, 0.10);
  EXPECT_LT(*m.loss_fraction, 0.32);
  EXPECT_EQ(m.stat("dropped"), static_cast<double>(m.dropped));
  EXPECT_NEAR(m.duration_s, 2.0, 0.15);
  EXPECT_LT(wall, 3500ms) << "a lost reply must cost the receive timeout, never a hang";
}

TEST_F(PingpongLab, OpenLoopShowsTheStallThatClosedLoopHides) {
  Server s = server("tcp");
  const long pgid = s.process->pgid();
  // Freeze the server for 200 ms, 1 s into the measured part of each run.
  auto stall = [pgid] {
    std::this_thread::sleep_for(1300ms);
    kill(static_cast<pid_t>(-pgid), SIGSTOP);
    std::this_thread::sleep_for(200ms);
    kill(static_cast<pid_t>(-pgid), SIGCONT);
  };
  std::thread t1(stall);
  const ClientRun closed = client(s, {"--duration", "2s", "--warmup", "300ms"});
  t1.join();
  std::thread t2(stall);
  const ClientRun open = client(s, {"--duration", "2s", "--warmup", "300ms", "--rate", "5000/s"});
  t2.join();
  ASSERT_EQ(closed.result.exit_status, 0) << closed.result.err;
  ASSERT_EQ(open.result.exit_status, 0) << open.result.err;
  EXPECT_GE(*closed.m().stat("max"), 150e6);
  EXPECT_GE(*open.m().stat("max"), 150e6);
  // Closed loop waits out the stall with ONE slow request: the tail hides it.
  EXPECT_LT(*closed.m().stat("p99"), 50e6);
  // Open loop keeps the schedule: ~1000 requests fall in the stall.
  EXPECT_GE(*open.m().stat("p99"), 50e6) << "p99 " << *open.m().stat("p99");
  EXPECT_EQ(open.m().sent, 10000u);
  ASSERT_TRUE(open.m().interval_of_max());
  EXPECT_EQ(open.m().interval_of_max()->start_s, 1.0) << "the series places the stall in time";
}

TEST_F(PingpongLab, ClientExitsWithAClearErrorWhenTheServerVanishes) {
  for (const char* proto : {"tcp", "udp"}) {
    SCOPED_TRACE(proto);
    Server s = server(proto);
    std::thread killer([&s] {
      std::this_thread::sleep_for(1s);
      s.process->stop(0ms);
    });
    const auto t0 = Clock::now();
    const ClientRun c = client(s, {"--duration", "5s", "--warmup", "0s"});
    killer.join();
    EXPECT_EQ(c.result.exit_status, 3);
    EXPECT_LT(Clock::now() - t0, 4500ms) << "noticed within the server timeout, not at the end of the run";
    EXPECT_NE(c.parse_error.find("pingpong client could not measure: "), std::string::npos) << c.parse_error;
    EXPECT_NE(c.result.err.find("pingpong client: "), std::string::npos) << c.result.err;
  }
}

TEST_F(PingpongLab, ServerBindsOnlyItsAddressAndLeavesWhenIdle) {
  const auto t0 = Clock::now();
  Server s = start_server(lab().b(), {probe_path("pingpong"), "server", "--bind", NetnsPair::kAddrB,
                                      "--proto", "tcp", "--idle-timeout", "1500ms"});
  const ClientRun other = run_client(lab().b(),
                                     {probe_path("pingpong"), "client", "--connect", "127.0.0.1", "--port",
                                      std::to_string(s.listening.port), "--proto", "tcp", "--duration", "1s"},
                                     10s);
  EXPECT_EQ(other.result.exit_status, 3);
  EXPECT_NE(other.result.err.find("cannot connect to 127.0.0.1:"), std::string::npos) << other.result.err;
  const auto done = s.process->wait(5s);
  ASSERT_TRUE(done) << "the server did not leave after its idle timeout";
  EXPECT_EQ(done->exit_status, 0);
  EXPECT_LT(Clock::now() - t0, 4s);
  EXPECT_EQ(summary(*done)["exit_reason"], "idle_timeout");
}

// --once (what the gate passes): the server ends right after its one client,
// so the gate reads its summary without a second channel to stop it. UDP has
// no end of session: the client's end-of-run datagrams are what ends it, and
// they are no request (not echoed, not counted, their arrival not stamped).
TEST_F(PingpongLab, WithOnceTheServerEndsRightAfterItsOneClient) {
  for (const std::string proto : {"tcp", "udp"}) {
    SCOPED_TRACE(proto);
    Server s = server(proto, {"--once", "--size", "64"});
    const ClientRun c = client(s, {"--duration", "300ms", "--warmup", "100ms"});
    ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
    const auto done = s.process->wait(1s);  // the idle timeout is 20 s: only --once ends it this soon
    ASSERT_TRUE(done) << proto << " server still running 1 s after its client";
    EXPECT_EQ(done->exit_status, 0);
    const nlohmann::json sum = summary(*done);
    EXPECT_EQ(sum["exit_reason"], "once");
    EXPECT_EQ(sum["parameters"]["once"], true);
    EXPECT_EQ(sum["counters"]["size_mismatch"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(sum["counters"]["requests"].get<std::uint64_t>(),
              c.doc["counters"]["warmup"]["sent"].get<std::uint64_t>() + c.m().sent);
    // Every request's arrival is accounted once, stamped or not; the end datagrams are no request.
    EXPECT_EQ(sum["arrival_stamps"]["stamped"].get<std::uint64_t>() +
                  sum["arrival_stamps"]["unstamped"].get<std::uint64_t>(),
              sum["counters"]["requests"].get<std::uint64_t>());
  }
  // Without --once the end-of-run datagrams are ignored: the server serves on.
  Server s = server("udp", {"--size", "64"});
  ASSERT_EQ(client(s, {"--duration", "200ms", "--warmup", "0s"}).result.exit_status, 0);
  EXPECT_FALSE(s.process->wait(500ms)) << "a server without --once ended after its client";
  const nlohmann::json sum = summary(s.process->stop(2s));
  EXPECT_EQ(sum["counters"]["size_mismatch"].get<std::uint64_t>(), 0u);
}

// --forensics off (the baseline of what the forensics cost, bench/fidelity.py
// --forensics-off): the same round trips measured, nothing captured or stamped,
// each side saying so. A client with forensics on against such a server gets
// its own send stamps back: every reply counted unstamped, none booked.
TEST_F(PingpongLab, ForensicsOffMeasuresTheSameAndCapturesNothing) {
  for (const std::string proto : {"tcp", "udp"}) {
    SCOPED_TRACE(proto);
    Server s = server(proto, {"--once", "--forensics", "off"});
    const ClientRun c = client(s, {"--duration", "500ms", "--warmup", "100ms", "--forensics", "off"});
    ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
    EXPECT_GT(c.m().histogram.count(), 100u);
    EXPECT_EQ(c.m().histogram.count(), c.m().received);
    EXPECT_EQ(c.doc["parameters"]["forensics"], false);
    EXPECT_EQ(c.doc["outliers"]["worst_kept"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(c.doc["outliers"]["over_threshold"].get<std::uint64_t>(), 0u);
    EXPECT_TRUE(c.doc["outliers"]["items"].empty());
    EXPECT_EQ(c.doc["outlier_sources"]["context_switches"], "not available: --forensics off");
    EXPECT_TRUE(c.doc["one_way"].is_null());
    const auto done = s.process->wait(2s);
    ASSERT_TRUE(done);
    const nlohmann::json sum = summary(*done);
    EXPECT_EQ(sum["parameters"]["forensics"], false);
    EXPECT_EQ(sum["arrival_stamps"]["stamped"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(sum["arrival_stamps"]["unstamped"].get<std::uint64_t>(), 0u);
    EXPECT_TRUE(sum["turnaround_outliers"]["items"].empty());
    EXPECT_EQ(sum["counters"]["requests"].get<std::uint64_t>(),
              c.doc["counters"]["warmup"]["sent"].get<std::uint64_t>() + c.m().sent);

    Server plain = server(proto, {"--once", "--forensics", "off"});
    const ClientRun on = client(plain, {"--duration", "300ms", "--warmup", "0s"});
    ASSERT_EQ(on.result.exit_status, 0) << on.result.err;
    EXPECT_EQ(on.doc["parameters"]["forensics"], true);
    EXPECT_EQ(on.doc["one_way"]["unstamped"].get<std::uint64_t>(), on.m().received);
    EXPECT_EQ(on.doc["one_way"]["stamped"].get<std::uint64_t>(), 0u);
    EXPECT_GT(on.doc["outliers"]["worst_kept"].get<std::uint64_t>(), 0u) << "the client still captures";
  }
}

TEST_F(PingpongLab, RefusesAMessageSizeTheServerDoesNotServe) {
  Server s = server("tcp", {"--size", "64"});
  const ClientRun c = client(s, {"--size", "128", "--duration", "1s"});
  EXPECT_EQ(c.result.exit_status, 3);
  EXPECT_NE(c.result.err.find("refused message size 128 (it serves size 64)"), std::string::npos)
      << c.result.err;
}

TEST_F(PingpongLab, MemoryDoesNotGrowWithDuration) {
  Server s = server("tcp");
  const ClientRun brief = client(s, {"--duration", "1s", "--warmup", "0s"});
  const ClientRun longer = client(s, {"--duration", "4s", "--warmup", "0s"});
  ASSERT_EQ(brief.result.exit_status, 0);
  ASSERT_EQ(longer.result.exit_status, 0);
  ASSERT_GT(longer.m().duration_s, 3.5);
  ASSERT_GT(longer.m().histogram.count(), brief.m().histogram.count());
  const long kb_brief = std::stol(brief.m().parameters.at("max_rss_kb"));
  const long kb_longer = std::stol(longer.m().parameters.at("max_rss_kb"));
  EXPECT_GT(kb_brief, 0);
  EXPECT_LE(kb_longer, kb_brief + 64)
      << "max RSS " << kb_brief << " KiB for 1 s, " << kb_longer << " KiB for 4 s";
}

}  // namespace
}  // namespace labgate::probes_test

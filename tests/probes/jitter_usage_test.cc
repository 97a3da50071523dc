// The real jitter probe on this machine's CPUs, and the measuring probes'
// answers to bad command lines (exit 2 and a message naming the flag).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "probe_run.h"

namespace labgate::probes_test {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<transport::Transport> here() {
  profile::Host h;
  h.name = "local";
  h.address = "local";
  h.ssh.command_timeout = 30s;
  return transport::make_transport(h);
}

TEST(JitterProbe, EveryListedCpuSpinsAndReports) {
  const long cpus = std::min(2L, sysconf(_SC_NPROCESSORS_ONLN));
  const std::string list = cpus > 1 ? "0,1" : "0";
  auto t = here();
  const ClientRun c = run_client(*t,
                                 {probe_path("jitter"), "--cpus", list, "--duration", "2s", "--warmup",
                                  "200ms", "--threshold", "10us", "--max-events", "50"},
                                 15s);
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  ASSERT_EQ(c.measurements.size(), static_cast<std::size_t>(cpus)) << c.parse_error;
  for (long cpu = 0; cpu < cpus; ++cpu) {
    const measure::Measurement& m = c.measurements[static_cast<std::size_t>(cpu)];
    EXPECT_EQ(m.cpu, cpu);
    EXPECT_EQ(m.parameters.at("cpu_actual"), std::to_string(cpu));
    EXPECT_GT(m.histogram.count(), 100000u) << "a spinning reader takes many clock readings per second";
    EXPECT_GT(*m.stat("min"), 0);
    EXPECT_LE(m.events.size(), 50u);
    EXPECT_NEAR(m.duration_s, 2.0, 0.01);
    ASSERT_EQ(m.series.size(), 2u);
    for (const measure::Event& e : m.events) EXPECT_GT(e.value_ns, 10000u);
  }
}

TEST(JitterProbe, WithoutACpuListOneUnpinnedChildMeasures) {
  auto t = here();
  const ClientRun c = run_client(*t, {probe_path("jitter"), "--duration", "300ms"}, 15s);
  ASSERT_EQ(c.result.exit_status, 0) << c.result.err;
  ASSERT_EQ(c.measurements.size(), 1u) << c.parse_error;
  EXPECT_EQ(c.m().cpu, -1);
  EXPECT_TRUE(c.m().warnings.empty());
  EXPECT_GT(c.m().histogram.count(), 1000u);
}

TEST(JitterProbe, ACpuThatCannotBeUsedIsAClearError) {
  auto t = here();
  const ClientRun c = run_client(*t, {probe_path("jitter"), "--cpus", "4000", "--duration", "1s"}, 15s);
  EXPECT_EQ(c.result.exit_status, 3);
  EXPECT_NE(c.result.err.find("jitter: cannot pin to CPU 4000"), std::string::npos) << c.result.err;
}

TEST(ProbeUsage, BadFlagsExitTwoNamingTheFlag) {
  auto t = here();
  const struct {
    std::vector<std::string> argv;
    const char* message;
  } cases[] = {
      {{probe_path("pingpong"), "client", "--connect", "198.19.200.2", "--port", "1", "--proto", "sctp"},
       "pingpong: --proto: 'sctp' is not tcp or udp"},
      {{probe_path("pingpong"), "client", "--connect", "198.19.200.2", "--port", "1", "--proto", "udp",
        "--size", "8"},
       "--size must be >= 16 for udp"},
      {{probe_path("pingpong"), "server", "--bind", "198.19.200.2", "--proto", "tcp", "--duration", "2s"},
       "--duration is a client option"},
      {{probe_path("pingpong"), "client", "--connect", "host-b", "--port", "1", "--proto", "tcp"},
       "--connect: 'host-b' is not a numeric IPv4 or IPv6 address"},
      {{probe_path("pingpong"), "client", "--connect", "198.19.200.2", "--port", "1", "--proto", "tcp",
        "--rate", "fast"},
       "--rate: 'fast' is not a rate"},
      {{probe_path("stream"), "client", "--connect", "198.19.200.2", "--port", "1", "--proto", "tcp",
        "--duration", "2"},
       "stream: --duration: '2' is not a duration"},
      {{probe_path("stream"), "server", "--bind", "198.19.200.2", "--proto", "udp", "--size", "64"},
       "--size is for `stream client` only"},
      {{probe_path("jitter"), "--cpus", "1,1"}, "jitter: --cpus: CPU 1 listed twice"},
      {{probe_path("jitter"), "--cpus", "0", "--bogus"}, "unknown option or missing value: '--bogus'"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.argv[0] + " " + k.argv[1]);
    const transport::RunResult r = t->run(k.argv, {});
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_NE(r.err.find(k.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "nothing on stdout that a harness could mistake for a result";
  }
}

}  // namespace
}  // namespace labgate::probes_test

// run_case / run_judge_record for the kinds beside tcp_rr (case_step_test.cc):
// jitter (one record per CPU), the built-in UDP stream (loss judged), an external
// tool (sockperf) and a congestion control a host lacks, on fake hosts answering
// with recorded outputs.
#include "labgate/gate/case_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/bdp_rule.h"
#include "labgate/gate/case_step.h"
#include "labgate/gate/congestion_check.h"
#include "labgate/gate/counter_bracket.h"
#include "labgate/transport/shell_quote.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

class CaseKinds : public lt::FakeLabTest {
 protected:
  /// Loads `test`, opens the results folder and a session on a and b.
  const TestCase& open(const std::string& test) {
    load(test);
    open_book();
    open_session();
    EXPECT_EQ(cases_.size(), 1u);
    return cases_.at(0);
  }
  void no_counters() {
    for (const char* h : {"a", "b"}) lab_.host(h).fail_on({"cat", "/proc/net/snmp"}, "counters not scripted");
  }
};

TEST_F(CaseKinds, JitterIsOneRecordPerCpuEachJudged) {
  const TestCase& c = open(
      "[[test]]\nname = \"j\"\nkind = \"jitter\"\non = \"a\"\ncpus = [0, 1]\nduration = \"300ms\"\n"
      "warmup = \"0s\"\ninterval = \"100ms\"\nthreshold = \"10us\"\nbudget = { max = \"1ms\" }\n");
  lab_.host("a").on({"$RUN/jitter"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/jitter.json")));
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].test_name(), "j/a/cpu0");
  EXPECT_EQ(out.records[1].test_name(), "j/a/cpu1");
  // cpu0's recorded gaps reach 33.5 ms: over the 1 ms budget.
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kFail);
  EXPECT_EQ(out.records[0].metric, "clock gap");
  EXPECT_EQ(book_->run().tests.size(), 2u);
  EXPECT_EQ(lab_.host("a").count({"$RUN/jitter", "--duration"}), 1);
  EXPECT_EQ(lab_.host("b").count({"$RUN/jitter"}), 0);
  EXPECT_FALSE(read("tests/j/a_cpu0/measurement.json").empty());
}

TEST_F(CaseKinds, AUdpStreamsLossIsJudged) {
  const TestCase& c = open(
      "[[test]]\nname = \"us\"\nkind = \"udp_stream\"\nfrom = \"a\"\nto = \"b\"\nduration = \"300ms\"\n"
      "warmup = \"100ms\"\ninterval = \"100ms\"\nbudget = { max_loss = \"5%\" }\n");
  no_counters();
  lab_.host("b").on({"$RUN/stream", "server"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/stream-server-udp.txt")));
  lab_.host("a").on({"$RUN/stream", "client"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/stream-udp.json")));
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_NEAR(out.records[0].figures.value("loss").value_or(0), 0.5439, 1e-3);
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kFail) << "54 % lost is over a 5 % budget";
  EXPECT_THAT(out.records[0].failure, HasSubstr("loss"));
}

// 192.168.1.2:41000 bound (b's test address, little-endian hex as /proc prints it).
const char* kUdpBound =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref "
    "pointer drops\n"
    "  123: 0201A8C0:A028 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1 2 0 0\n";

/// Scripts the noise watch on a and b (watch_argv's shell line) to print the
/// recorded hog run's document when it is stopped.
void script_watch(lt::FakeLab& lab) {
  const std::vector<std::string> sh = watch_argv(NoiseWatch{"w", "", "1s"});
  for (const char* h : {"a", "b"})
    lab.host(h).on({sh[0], sh[1], sh[2]},
                   FakeTransport::ok(lt::testdata("harness/src/tail/testdata/hog_watch.json")));
}

/// A sockperf udp_rr case from a to b on port 41000, its server, client (a
/// recorded run) and both hosts' noise watches scripted, no counters.
class ToolCase : public CaseKinds {
 protected:
  const TestCase& open_sockperf_case() {
    const TestCase& c = open(
        "[[test]]\nname = \"sp\"\nkind = \"udp_rr\"\ntool = \"sockperf\"\nfrom = \"a\"\nto = \"b\"\nport = "
        "41000\nwarmup = \"0s\"\nbudget = { p50 = \"1ms\" }\n");
    no_counters();
    lab_.host("b")
        .on({"sockperf", "sr"}, FakeTransport::ok())
        .on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
    lab_.host("a").on(
        {"sockperf", "pp"},
        FakeTransport::ok(lt::testdata("tests/fixtures/tools/sockperf/sockperf37-udp-rtt.txt")));
    script_watch(lab_);
    return c;
  }
};

TEST_F(ToolCase, AToolsOwnFiguresAreJudged) {
  const TestCase& c = open_sockperf_case();
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  const results::TestRecord& r = out.records[0];
  EXPECT_EQ(r.tool, "sockperf");
  ASSERT_NE(r.figures.find("p50"), nullptr);
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass) << r.failure;
  // The sockperf server and the watch on b, the watch on a: nothing left running.
  EXPECT_EQ(lab_.host("b").stopped(), 2) << "the sockperf server or the watch was left running";
  EXPECT_EQ(lab_.host("a").stopped(), 1) << "the watch was left running";
  EXPECT_THAT(read("tests/sp/a-to-b/command.txt"),
              HasSubstr("server@b: sockperf sr -i 192.168.1.2 -p 41000"));
  // The watch ran on every CPU of each host (not pinned), on a channel of its own, before the server.
  const auto& sent_b = lab_.host("b").sent;
  const auto watch_at = std::find_if(sent_b.begin(), sent_b.end(), [](const auto& a) {
    return a.size() == 8 && a[4] == "$RUN/watch" && a[5] == "all";
  });
  ASSERT_NE(watch_at, sent_b.end());
  EXPECT_EQ((*watch_at)[7], "30ms") << "a 120 s run: windows long enough that the ring holds it";
  EXPECT_LT(watch_at - sent_b.begin(), std::find_if(sent_b.begin(), sent_b.end(), [](const auto& a) {
                                         return a[0] == "sockperf";
                                       }) - sent_b.begin());
  // Its tail: both hosts watched over the run, and how far sockperf's output goes.
  EXPECT_EQ(r.tail["over_run"]["a"]["watch"], "ok") << r.tail.dump();
  EXPECT_EQ(r.tail["over_run"]["b"]["watch"], "ok");
  EXPECT_THAT(r.tail.value("join", ""), HasSubstr("per-sample times need --full-log"));
  EXPECT_FALSE(r.tail.value("top", "").empty());
  EXPECT_THAT(read("tests/sp/a-to-b/watch-a.out"), HasSubstr("\"probe\":\"watch\""));
}

// Behind a far link each start and each stop is a round trip: the two hosts'
// watches are started at once, and stopped at once.
TEST_F(ToolCase, AToolsNoiseWatchesStartAndStopOnBothHostsAtOnce) {
  const TestCase& c = open_sockperf_case();
  transport::Rendezvous starts(2), stops(2);
  std::atomic<int> started_together{0}, stopped_together{0};
  for (const char* h : {"a", "b"})
    lab_.host(h).on_step = [&, h](const std::string& what) {
      if (what.find("--away --duration") == std::string::npos) return;  // watch_argv's line
      if (what.starts_with("stop ")) {
        if (stops.arrive(std::chrono::seconds(2))) ++stopped_together;
      } else if (starts.arrive(std::chrono::seconds(2))) {
        ++started_together;
      }
    };
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_FALSE(out.could_not_run) << out.error;
  EXPECT_EQ(started_together, 2) << "one host's watch was started only after the other's";
  EXPECT_EQ(stopped_together, 2) << "one host's watch was stopped only after the other's";
  EXPECT_EQ(out.records.at(0).tail["over_run"]["a"]["watch"], "ok") << out.records.at(0).tail.dump();
  EXPECT_EQ(out.records.at(0).tail["over_run"]["b"]["watch"], "ok");
}

TEST_F(CaseKinds, AToolOutputThatCannotBeReadIsStillKeptVerbatim) {
  const TestCase& c = open(
      "[[test]]\nname = \"sp\"\nkind = \"udp_rr\"\ntool = \"sockperf\"\nfrom = \"a\"\nto = \"b\"\nport = "
      "41000\nwarmup = \"0s\"\nbudget = { p50 = \"1ms\" }\n");
  no_counters();
  lab_.host("b")
      .on({"sockperf", "sr"}, FakeTransport::ok("sockperf: using recvfrom() to block on socket(s)\n"))
      .on({"cat", "/proc/net/udp"}, FakeTransport::ok(kUdpBound));
  // A run cut before its summary: the parser refuses it, the file must survive.
  const std::string whole = lt::testdata("tests/fixtures/tools/sockperf/sockperf37-udp-rtt.txt");
  const std::string cut = whole.substr(0, whole.find("====> avg"));
  transport::RunResult client = FakeTransport::ok(cut);
  client.err = "a line on stderr\n";
  lab_.host("a").on({"sockperf", "pp"}, client);
  script_watch(lab_);
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_TRUE(out.could_not_run);
  EXPECT_THAT(out.error, HasSubstr("truncated or failed run?"));
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kError);
  EXPECT_EQ(read("tests/sp/a-to-b/client.out"), cut);
  EXPECT_EQ(read("tests/sp/a-to-b/client.err"), "a line on stderr\n");
  EXPECT_THAT(read("tests/sp/a-to-b/server.out"), HasSubstr("to block on socket(s)"));
  EXPECT_THAT(read("tests/sp/a-to-b/command.txt"),
              HasSubstr("client@a: sockperf pp -i 192.168.1.2 -p 41000"));
  // The server and both watches stopped, the watches' outputs kept, though the tool failed.
  EXPECT_EQ(lab_.host("b").stopped(), 2) << "the sockperf server or the watch was left running";
  EXPECT_EQ(lab_.host("a").stopped(), 1) << "the watch was left running";
  EXPECT_FALSE(read("tests/sp/a-to-b/watch-a.out").empty());
  EXPECT_FALSE(read("tests/sp/a-to-b/watch-b.out").empty());
}

TEST_F(CaseKinds, ACongestionControlAHostLacksStopsTheCaseBeforeItMeasures) {
  const TestCase& c = open(
      "[[test]]\nname = \"ts\"\nkind = \"tcp_stream\"\nfrom = \"a\"\nto = \"b\"\ncongestion = \"htcp\"\n"
      "budget = { min_throughput = \"1Mbit/s\" }\n");
  no_counters();
  for (const char* h : {"a", "b"})
    lab_.host(h).on(congestion_list_command(),
                    FakeTransport::ok(std::string(h) == "a" ? "reno cubic htcp\n" : "reno cubic bbr\n"));
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  EXPECT_TRUE(out.could_not_run);
  EXPECT_THAT(out.error, HasSubstr("host b has no TCP congestion control \"htcp\"; it has: reno cubic bbr"));
  EXPECT_EQ(lab_.host("a").count({"$RUN/stream"}) + lab_.host("b").count({"$RUN/stream"}), 0);
}

TEST_F(CaseKinds, BothHostsListTheirCongestionControlsAtOnce) {
  const TestCase& c = open(
      "[[test]]\nname = \"ts\"\nkind = \"tcp_stream\"\nfrom = \"a\"\nto = \"b\"\ncongestion = \"htcp\"\n"
      "budget = { min_throughput = \"1Mbit/s\" }\n");
  transport::Rendezvous both(2);
  std::atomic<int> met{0};
  const std::string list = transport::shell_join(congestion_list_command());
  for (const char* h : {"a", "b"}) {
    lab_.host(h).on(congestion_list_command(), FakeTransport::ok("reno cubic\n"));
    lab_.host(h).on_step = [&](const std::string& what) {
      if (what == list && both.arrive(std::chrono::seconds(2))) ++met;
    };
  }
  EXPECT_THAT(run_judge_record(*session_, *book_, c).error,
              HasSubstr("host a has no TCP congestion control"));
  EXPECT_EQ(met, 2) << "one host's list was asked for only after the other's had come";
}

std::string sysctls(const std::string& max) {
  return "/proc/sys/net/core/rmem_max:" + max + "\n/proc/sys/net/core/wmem_max:" + max +
         "\n/proc/sys/net/ipv4/tcp_rmem:4096\t87380\t" + max + "\n/proc/sys/net/ipv4/tcp_wmem:4096\t65536\t" +
         max + "\n";
}

TEST_F(CaseKinds, BuffersCoverBdpIsJudgedOnTheMeasuredThroughputAndRoundTrip) {
  const TestCase& c = open(
      "[preconditions]\nbuffers_cover_bdp = true\n"
      "[[test]]\nname = \"ts\"\nkind = \"tcp_stream\"\nfrom = \"a\"\nto = \"b\"\nduration = \"300ms\"\n"
      "warmup = \"100ms\"\ninterval = \"100ms\"\nbudget = { min_throughput = \"1Mbit/s\" }\n");
  no_counters();
  lab_.host("b").on({"$RUN/stream", "server"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/stream-server-tcp.txt")));
  lab_.host("a").on({"$RUN/stream", "client"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/stream-tcp.json")));
  // 159 Mbit/s over a 10 ms round trip: a BDP of ~199 kB. a's buffers hold 4 MiB, b's 64 KiB.
  lab_.host("a").on(
      {"ping", "-n", "-q", "-c", "10"},
      FakeTransport::ok("--- 192.168.1.2 ping statistics ---\n10 packets transmitted, 10 received, 0% "
                        "packet loss, time 1809ms\nrtt min/avg/max/mdev = 9.9/10.0/10.1/0.05 ms\n"));
  lab_.host("a").on(buffer_sysctls_command(), FakeTransport::ok(sysctls("4194304")));
  lab_.host("b").on(buffer_sysctls_command(), FakeTransport::ok(sysctls("65536")));
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  const results::TestRecord& r = out.records[0];
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail) << "b's 64 KiB cannot hold the path";
  EXPECT_THAT(r.failure, HasSubstr("buffers_cover_bdp b"));
  EXPECT_THAT(r.failure, ::testing::Not(HasSubstr("buffers_cover_bdp a")));
  EXPECT_EQ(lab_.host("a").count({"ping", "-n", "-q", "-c", "10"}), 1) << "the RTT is measured on the client";
}

}  // namespace
}  // namespace labgate::gate
